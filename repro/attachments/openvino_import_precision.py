"""OpenVINO: an exported compiled model does not keep its inference precision; the importer's properties decide.

A 256-wide f32 matmul compiled with INFERENCE_PRECISION_HINT=f32, exported, and imported back as a C API
caller must (ov_core_import_model takes no properties): on CPUs with AVX-512 BF16 or AMX it runs in bf16.
Needs only `pip install openvino numpy`. Exit status (git bisect run): 0 the import keeps f32, 1 it does not.
"""
import io
import sys

if sys.argv[1:]:
    print(__doc__ if sys.argv[1:] in (["-h"], ["--help"]) else "takes no arguments (see --help)")
    raise SystemExit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)

import numpy as np

try:  # 2025.0 and later (2026 has no openvino.runtime)
    import openvino as ov
    import openvino.opset8 as ops
except ImportError:  # 2023.0 - 2024.6
    import openvino.runtime as ov
    import openvino.runtime.opset8 as ops

rng = np.random.default_rng(0)
weights = rng.standard_normal((256, 256)).astype(np.float32)
data = rng.standard_normal((1, 256)).astype(np.float32)
x = ops.parameter([1, 256], np.float32)
model = ov.Model([ops.matmul(x, ops.constant(weights), False, False)], [x])
expected = data.astype(np.float64) @ weights.astype(np.float64)


def precision_name(compiled):
    """The precision the compiled model runs at, or None where this release cannot say (2023.0)."""
    try:
        hint = compiled.get_property("INFERENCE_PRECISION_HINT")
    except RuntimeError:
        return None
    return hint.to_string() if hasattr(hint, "to_string") else str(hint)


def measured(compiled):
    """(max error against float64, a line saying it and the precision), from one inference on a fresh copy."""
    error = float(np.abs(compiled.create_infer_request().infer([data.copy()])[0] - expected).max())
    return error, f"max error {error:.2g}, runs at {precision_name(compiled) or 'n/a (not reported)'}"


print("OpenVINO", ov.get_version(), "CPU default:", ov.Core().get_property("CPU", "INFERENCE_PRECISION_HINT"))
compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
blob = io.BytesIO()
compiled.export_model(blob)
imported = ov.Core().import_model(io.BytesIO(blob.getvalue()), "CPU")
hinted = ov.Core().import_model(io.BytesIO(blob.getvalue()), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
(compiled_error, compiled_line), (imported_error, imported_line), (_, hinted_line) = map(
    measured, (compiled, imported, hinted))
print("compiled with the f32 hint:    ", compiled_line)
print("exported, imported with nothing:", imported_line)
print("imported with the f32 hint:    ", hinted_line)
# The verdict by the values, which every release gives (2023.0 cannot report a compiled model's precision).
raise SystemExit(1 if imported_error > 100 * compiled_error else 0)
