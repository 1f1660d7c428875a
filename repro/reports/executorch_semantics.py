"""The ExecuTorch issue body: the OpenVINO partitioner delegates integer, float64 and reflection-padding ops that
OpenVINO's CPU plugin computes differently from PyTorch, so their values are wrong with no error; with the
``semantics`` series (``repro/patches/executorch/semantics``: the partitioner leaves those ops to ExecuTorch's
kernels, and op tests that fail without it) and the tests' result with and without it. Built from the matrix's
rows (``repro/matrix.py --executorch``).

The integer width, u8/i8 saturation and float64 are stated as OpenVINO CPU facts, citing OpenVINO's own
documentation of the CPU plugin's precisions; the dropped ``Abs`` and the rest are OpenVINO's bugs, reported
there (the two OpenVINO bodies this matrix writes), and linked.
"""

from repro.harness import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md

REPRODUCER = md.attachment("executorch_semantics.py")
FIELD = "executorch_semantics"
CPU_DOCS = ("https://docs.openvino.ai/2024/openvino-workflow/running-inference/inference-devices-and-modes/"
            "cpu-device.html")
FACTS = md.bullets([
    f"OpenVINO's [CPU device documentation]({CPU_DOCS}), \"Supported Model Precision\": the CPU plugin's "
    "internal primitives run in FP32, BF16 or FP16, INT32, and u8/i8/u1 for quantized operations only. So "
    "int64 arithmetic is computed in 32 bits (`x * x` of 100000 is 1410065408), uint8/int8 arithmetic is "
    "not computed in its own type and saturates (250 + 10 is 255, PyTorch wraps to 4), and float64 is computed "
    "in float32 (`1e300 * 2` is FLT_MAX) — or bf16, on CPUs with AVX512_BF16 or AMX, unless `f32` is asked for.",
    "Integer division goes through float32: `123456789 // 10` is 12345679 (OpenVINO's `Divide` on i32, and "
    "the floor-division decomposition of this backend's passes).",
    "Reflection padding decomposes into an `Abs` of an `arange`, and OpenVINO's CPU plugin drops a rank-1 "
    "`Abs` of constants at compile time (openvinotoolkit/openvino#38166; from OpenVINO 2025.4.0).",
])


def executorch_semantics(matrix):
    rows = matrix["rows"]
    partitioner, tests = patches.patch_files(patches.SEMANTICS)
    op_tests = et.op_test_results(rows, patches.SEMANTICS, "backends/openvino/tests/ops/test_semantics.py",
                                  "the patches")
    return md.render(
        "executorch_semantics",
        facts=FACTS,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.SUPPORTED_OPENVINO),
        versions=et.environment_section(rows, FIELD),
        partitioner_patch=et.patch_block(partitioner),
        tests_patch=et.patch_block(tests),
        op_tests=op_tests)
