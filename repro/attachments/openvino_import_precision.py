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
import openvino as ov
import openvino.opset8 as ops

rng = np.random.default_rng(0)
weights = rng.standard_normal((256, 256)).astype(np.float32)
data = rng.standard_normal((1, 256)).astype(np.float32)
x = ops.parameter([1, 256], np.float32)
model = ov.Model([ops.matmul(x, ops.constant(weights), False, False)], [x])
expected = data.astype(np.float64) @ weights.astype(np.float64)


def measured(compiled):
    error = float(np.abs(compiled.create_infer_request().infer([data])[0] - expected).max())
    return f"max error {error:.2g}, runs at {compiled.get_property('INFERENCE_PRECISION_HINT').to_string()}"


print("OpenVINO", ov.get_version(), "CPU default:", ov.Core().get_property("CPU", "INFERENCE_PRECISION_HINT"))
compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
blob = io.BytesIO()
compiled.export_model(blob)
imported = ov.Core().import_model(io.BytesIO(blob.getvalue()), "CPU")
print("compiled with the f32 hint:    ", measured(compiled))
print("exported, imported with nothing:", measured(imported))
hinted = ov.Core().import_model(io.BytesIO(blob.getvalue()), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
print("imported with the f32 hint:    ", measured(hinted))
raise SystemExit(0 if imported.get_property("INFERENCE_PRECISION_HINT").to_string() == "f32" else 1)
