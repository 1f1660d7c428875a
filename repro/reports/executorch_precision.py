"""The ExecuTorch issue body: the OpenVINO backend cannot run an f32 model in f32 on CPUs with AVX-512 BF16 or
AMX, where OpenVINO's CPU plugin computes in bf16 by default: the compile specs do not reach ``compile_model``,
and ``ov_core_import_model`` takes no properties. With the ``precision`` series inline and what the reproducer
prints with its runtime part. Built from the matrix's rows (``repro/matrix.py --executorch`` runs
``attachments/executorch_precision.py`` at the CPU's default precision, with ``--executorch-source`` also with
the ``precision`` backend).
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

REPRODUCER = md.attachment("executorch_precision.py")
FIELD = "executorch_precision"
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
# At ExecuTorch main (et.EXECUTORCH_MAIN), by function so that a moved line is findable.
IMPORT = f"[`OpenvinoBackend::init`]({et.SOURCE_URL}/{BACKEND}#L146-L163)"
OPTIONS = f"[`OpenvinoBackend.preprocess`]({et.SOURCE_URL}/backends/openvino/preprocess.py#L53-L59)"
# benchmarks/precision_cost.py, 2026-12-02, executorch 1.5.1, OpenVINO 2026.4.1, 2 cores (AMD EPYC, AVX-512
# BF16): from bytes, median of 5 interleaved rounds of 20; max error against eager float32.
COST = md.table(
    ["model", "time at f32 / at the default", "max error, f32", "max error, default (bf16)"],
    [["Conv2d(3, 8, 3) and ReLU on 8x8", "1.03", "1.8e-7", "3.4e-3"],
     ["three convolutions on 224x224", "1.62", "3.0e-8", "2.1e-4"],
     ["a transformer encoder block (256 wide, 64 tokens)", "1.44", "1.7e-6", "8.9e-3"]])


def executorch_precision(matrix: Matrix) -> str:
    rows = matrix["rows"]
    runtime, preprocess, test = patches.patch_files(patches.PRECISION)
    return md.render(
        "executorch_precision",
        options=OPTIONS,
        import_=IMPORT,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.NEWEST_OPENVINO),
        versions=et.environment_section(rows, FIELD),
        cost=COST,
        runtime_patch=et.patch_block(runtime),
        preprocess_patch=et.patch_block(preprocess),
        test_patch=et.patch_block(test),
        patched_run=md.details("The reproducer with the runtime rebuilt with the first patch (against the "
                               "installed wheel)", et.outputs(rows, f"{FIELD}_patched", (et.NEWEST_OPENVINO,))))
