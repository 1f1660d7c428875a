"""The ExecuTorch issue body: the OpenVINO partitioner delegates integer, float64 and reflection-padding ops that
OpenVINO's CPU plugin computes differently from PyTorch, so their values are wrong with no error; with the
``semantics`` series (``repro/patches/executorch/semantics``: the partitioner leaves those ops to ExecuTorch's
kernels, and op tests that fail without it) and the tests' result with and without it. Built from the matrix's
rows (``repro/matrix.py --executorch``).

The integer width, u8/i8 saturation and float64 are stated as OpenVINO CPU facts, citing OpenVINO's own
documentation of the CPU plugin's precisions; the dropped ``Abs`` and the rest are OpenVINO's bugs, reported
there (the two OpenVINO bodies this matrix writes), and linked.
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

REPRODUCER = md.attachment("executorch_semantics.py")
FIELD = "executorch_semantics"
CPU_DOCS = ("https://docs.openvino.ai/2024/openvino-workflow/running-inference/inference-devices-and-modes/"
            "cpu-device.html")


def executorch_semantics(matrix: Matrix) -> str:
    rows = matrix["rows"]
    partitioner, tests = patches.patch_files(patches.SEMANTICS)
    op_tests = et.op_test_results(rows, patches.SEMANTICS, "backends/openvino/tests/ops/test_semantics.py",
                                  "the patches")
    return md.render(
        "executorch_semantics",
        cpu_docs=CPU_DOCS,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.SUPPORTED_OPENVINO),
        versions=et.environment_section(rows, FIELD),
        partitioner_patch=et.patch_block(partitioner),
        tests_patch=et.patch_block(tests),
        op_tests=op_tests)
