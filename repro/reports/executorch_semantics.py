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
    return md.issue(
        "[OpenVINO] The partitioner delegates integer, float64 and reflection-padding ops that OpenVINO's CPU "
        "plugin computes differently from PyTorch: wrong values, no error",
        [("🐛 Describe the bug", f"""\
`OpenvinoPartitioner` delegates every op OpenVINO's PyTorch frontend can convert, whatever its dtype. On
the CPU device several of them give values PyTorch does not, silently; ExecuTorch's own kernels (no
partitioner) are right in every case below:

{FACTS}

It does not depend on the ExecuTorch release (the ones measured are below) and, but for the `Abs`, not on the
OpenVINO release: every one run shows it."""),
         ("To reproduce", et.reproduction(REPRODUCER, rows, FIELD, et.SUPPORTED_OPENVINO)),
         ("Versions", et.environment_section(rows, FIELD)),
         ("Proposed fix", f"""\
The partitioner leaves to ExecuTorch's kernels, with the reason, every node OpenVINO would compute
differently: one reading or making float64 (or int16 / bfloat16, which fail at lowering); int64, uint8 and
int8 results of `add`, `sub`, `mul`, `neg`, `abs`, `pow`, `sum` and `cumsum`; integer and trunc division;
every remainder; an `abs` that depends on no input; `avg_pool` with `divisor_override`, or with `ceil_mode`,
`count_include_pad` and padding together. It proves no value ranges: simple to review, at the price of
leaving int64 index arithmetic (position ids) to ExecuTorch's kernels too.

{et.patch_block(partitioner)}

Op tests, each failing without the change (wrong values, or a lowering error):

{et.patch_block(tests)}

{op_tests}"""),
         ("Related threads (searched 2026-12-01)", md.bullets([
             "On OpenVINO's tracker each class is its own: u8/i8 saturation (#35647 and its siblings, open), the "
             "dropped `Abs` (#38166, open), NaN handling (#31196, open); the rest we report there. This issue is "
             "the partitioner's side: what to keep away from the CPU plugin until they are fixed.",
             "None in ExecuTorch's tracker reports wrong values from the OpenVINO partitioner by dtype."]))])
