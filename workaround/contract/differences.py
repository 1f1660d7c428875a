"""Every way OpenVINO's CPU plugin, or ExecuTorch's portable kernels, compute differently from PyTorch: one entry
each, the one place it is kept.

An entry names the ops (as torch prints them: ``aten.relu.default``; none where a dtype decides, whatever the op),
what differs, where it was measured, the partitioner's rule that hands such a node back (a predicate of
``workaround.partitioner.rules.openvino_hand_back`` or ``portable_hand_back``) or the exact rewrite that
keeps it delegated, the checker's finding for it in a shipped blob or why a blob cannot show it, and the catalogue
cases that hold it. Built from it: the partitioner's op tables, reasons and rule order, the checker's semantic
finding kinds and the list of what it cannot see (``openvino-pte-check --help``), and README.md's table of them
(``python -m tests.tools.figures``; the conformance rows of each entry's ops are counted from the record there).
``tests/gate/test_differences.py`` holds each entry to the code and data it names.

Standard library only: the partitioner, the checker and the docs all read it.
"""

from dataclasses import dataclass
from enum import StrEnum

from workaround.contract.finding_kinds import FindingKind


class Owner(StrEnum):
    OPENVINO = "OpenVINO CPU plugin"
    EXECUTORCH = "ExecuTorch portable kernels"


class Rule(StrEnum):
    """The partitioner's rules that hand a node back, by name: a predicate of
    ``workaround.partitioner.rules.openvino_hand_back.NODE_RULES``, or one that reads more than a node (float16's
    reads the partitions, ExecuTorch's kernels' the runtime)."""

    DIVIDES_DIFFERENTLY = "divides_differently"
    DTYPE_RULE_DIFFERS = "dtype_rule_differs"
    FLOAT16_ROUNDING_DROPPED = "float16_rounding_dropped"
    INT64_OUT_OF_INT32 = "int64_out_of_int32"
    INTEGER_RULE_DIFFERS = "integer_rule_differs"
    INTEGERS_THROUGH_FLOAT32 = "integers_through_float32"
    KERNEL_DIFFERS = "kernel_differs"
    POOLS_DIFFERENTLY = "pools_differently"
    SPECIAL_VALUES_DIFFER = "special_values_differ"
    UNSUPPORTED_DTYPE = "unsupported_dtype"
    WRAPS_AROUND = "wraps_around"


@dataclass(frozen=True)
class Difference:
    name: str
    computes: str  # what differs; where the partitioner's reason is the entry's, this very text
    ops: tuple[str, ...]  # () where the dtype decides, whatever the op
    rule: Rule | None  # what hands a node back; None where an exact rewrite keeps every such node delegated
    measured: str  # releases and CPU classes
    owner: Owner = Owner.OPENVINO
    rewrite: str | None = None  # the module of workaround/partitioner/exact_rewrites/ that keeps it exact
    finding: FindingKind | None = None  # what the checker reports of it in a shipped blob
    # The ATen ops beyond ``ops`` whose traces in a blob (OpenVINO keeps the frontend's names) show it to the
    # checker: what an export decomposes it into, or, where the dtype decides, the ops that can show it.
    shown_by: tuple[str, ...] = ()
    dtypes: tuple[str, ...] = ()  # where the dtype decides: which (as torch names them: ``float64``)
    unseen: str | None = None  # why a shipped blob cannot show it (every entry has a finding or this)
    cases: tuple[str, ...] = ()  # catalogue cases
    special_values: bool = False  # handed back only with special_values="torch"
    # Where OpenVINO's source does it, as far as read (the report to OpenVINO lists these); "" not reported
    located: str = ""


def aten(*names: str) -> tuple[str, ...]:
    return tuple(f"aten.{name}" for name in names)


MEASURED = "OpenVINO 2025.4.1 - 2026.4.1, executorch 1.5.1; every CPU class"
MEASURED_F32 = "OpenVINO 2026.4.1 at f32; every CPU class"
MEASURED_NAN = "OpenVINO 2026.4.1; the AVX-512 classes (AVX2 where said)"
MEASURED_PORTABLE = "executorch 1.5.1's pip runtime, no partitioner, over the conformance sweep"
NO_BLOB = "lowering fails: there is no blob to ship"
VALUES_UNSEEN = "a blob shows the op, not whether its values will reach the bound"
NAN_UNSEEN = "a blob shows the op, not whether NaN or infinities will reach it (every ReLU would be flagged)"
HANDED_BACK = "the partitioner's own hand-back: nothing of it is in a blob"
THROUGH_FLOAT32_LOCATED = (
    "i32 `Equal` / `Greater` / ... , `ReduceMax` / `ReduceMin`, `Power` (and `Clamp`, `Relu`, `MatMul`, "
    "`Ceiling` on i32, measured through ExecuTorch): the values come back as their nearest float32 "
    "(16777217 → 16777216; 40001² → 1600080000), as if the CPU plugin ran these kernels in f32 for i32 "
    "inputs. `Add`, `Multiply`, `Abs`, `Maximum`, `Select`, `TopK`, `CumSum` on i32 are exact above 2**24"
    " (measured). Not located in source."
)
INTEGER_COMPARISONS = aten(
    "eq.Tensor",
    "eq.Scalar",
    "ne.Tensor",
    "ne.Scalar",
    "gt.Tensor",
    "gt.Scalar",
    "ge.Tensor",
    "ge.Scalar",
    "lt.Tensor",
    "lt.Scalar",
    "le.Tensor",
    "le.Scalar",
    "logical_not.default",
    "logical_and.default",
    "logical_or.default",
    "logical_xor.default",
)
INTEGER_EXTREMES = aten(
    "amax.default",
    "amin.default",
    "max.dim",
    "min.dim",
    "max.default",
    "min.default",
    "clamp.default",
    "clamp.Tensor",
    "hardtanh.default",
    "relu.default",
)
ROUNDINGS = aten("ceil.default", "floor.default", "round.default", "trunc.default")
POWERS = aten("pow.Tensor_Scalar", "pow.Tensor_Tensor", "pow.Scalar")
DIVISIONS = aten("div.Tensor_mode", "div.Scalar_mode", "floor_divide.default", "floor_divide.Scalar")
DROPS_NAN = "drops NaN (PyTorch propagates it)"

DIFFERENCES = (
    Difference(
        "float64_computed_as_float32",
        "float64 is computed in float32 (1e300 * 2 is FLT_MAX)",
        (),
        Rule.UNSUPPORTED_DTYPE,
        MEASURED,
        finding=FindingKind.FLOAT64_COMPUTED_AS_FLOAT32,
        dtypes=("float64",),
        cases=("float64_scale",),
    ),
    Difference(
        "dtype_not_mapped",
        "int16, uint16/32/64, bfloat16 and complex tensors fail at lowering (KeyError)",
        (),
        Rule.UNSUPPORTED_DTYPE,
        MEASURED,
        unseen=NO_BLOB,
        dtypes=("int16", "uint16", "uint32", "uint64", "bfloat16", "complex64", "complex128"),
        cases=("int16_add", "bfloat16_add"),
    ),
    Difference(
        "int64_computed_in_32_bits",
        "int64 is computed in 32 bits, even through a reshape",
        (),
        Rule.INT64_OUT_OF_INT32,
        MEASURED,
        finding=FindingKind.INT64_COMPUTED_IN_32_BITS,
        dtypes=("int64",),
        cases=("int64_square", "int64_beyond_int32_reshaped", "int64_sort_beyond_int32"),
    ),
    Difference(
        "narrow_integer_arithmetic_saturates",
        "uint8 / int8 arithmetic saturates where PyTorch wraps around",
        (),
        Rule.WRAPS_AROUND,
        MEASURED,
        finding=FindingKind.NARROW_INTEGER_ARITHMETIC_SATURATES,
        dtypes=("uint8", "int8"),
        # arithmetic that can leave its dtype (not max, min, where, ...), any overload
        shown_by=aten("add.Tensor", "sub.Tensor", "rsub.Scalar", "mul.Tensor", "neg.default", "abs.default",
                      "pow.Tensor_Scalar", "sum.dim_IntList", "cumsum.default"),
        cases=("uint8_add_wraps", "int8_multiply_wraps"),
    ),
    Difference(
        "narrow_integer_sum_saturates",
        "a uint8 / int8 sum saturates in its input's type (PyTorch sums in int64)",
        aten("sum.dim_IntList", "sum.default", "cumsum.default", "prod.default", "prod.dim_int"),
        Rule.WRAPS_AROUND,
        MEASURED,
        unseen="a blob shows a reduction of an input, not what PyTorch would sum in",
    ),
    Difference(
        "division_through_float32",
        "integer floor division goes through float32 (wrong above 2**24)",
        DIVISIONS,
        Rule.DIVIDES_DIFFERENTLY,
        MEASURED,
        finding=FindingKind.DIVISION_THROUGH_FLOAT32,
        shown_by=aten("floor.default"),  # ExecuTorch's preprocess: integer floor division as float32 div, floor
        cases=("int32_floor_divide", "int32_trunc_divide"),
        located=(
            'i32 `Divide` (floor, "python division"): 123456789 // 10 gives 12345679, the quotient of the nearest'
            " float32; exact integer division is what the element type promises. Not located in source."
        ),
    ),
    Difference(
        "trunc_division_through_int32",
        "trunc division goes through an int32 convert (quotients beyond 2**31, inf and NaN break)",
        aten("div.Tensor_mode", "div.Scalar_mode"),
        Rule.DIVIDES_DIFFERENTLY,
        MEASURED,
        finding=FindingKind.TRUNC_DIVISION_THROUGH_INT32,
        cases=("float_trunc_divide",),
        located=(
            "Trunc division: `src/frontends/pytorch/src/op/div.cpp`, `translate_div_common`, translates "
            '`rounding_mode="trunc"` as `Divide` → `Convert(i32)` → `ConvertLike`: every quotient of magnitude ≥ '
            "2**31, and ±inf and NaN, comes back as -2147483648 (read in source; the reproducer builds that "
            "graph). `Floor` of the sign-folded quotient, or `Sign(q) * Floor(Abs(q))`, stays in the float type."
        ),
    ),
    Difference(
        "remainder_through_float32",
        "fmod / remainder lose the remainder of a large quotient",
        aten("fmod.Tensor", "fmod.Scalar", "remainder.Tensor", "remainder.Scalar", "remainder.Scalar_Tensor"),
        Rule.DIVIDES_DIFFERENTLY,
        MEASURED,
        finding=FindingKind.DIVISION_THROUGH_FLOAT32,
        cases=("float_fmod_large_quotient", "int32_remainder"),
        located=(
            "f32 `Mod`: 1e9 mod 3 gives 0 (PyTorch's `fmod`, exact, gives 1), as `x - trunc(x / y) * y` would "
            "beyond float32's integers (our reading of the values; not located in source)."
        ),
    ),
    Difference(
        "integer_comparisons_through_float32",
        "integer comparisons go through float32 (16777217 == 16777216 is true)",
        INTEGER_COMPARISONS,
        Rule.INTEGERS_THROUGH_FLOAT32,
        MEASURED_F32,
        unseen=VALUES_UNSEEN,
        cases=("int32_timestamp_window", "int32_equal_beyond_2_24"),
        located=THROUGH_FLOAT32_LOCATED,
    ),
    Difference(
        "integer_extremes_through_float32",
        "integer max / min / clamp / relu go through float32 (16777217 becomes 16777216)",
        INTEGER_EXTREMES,
        Rule.INTEGERS_THROUGH_FLOAT32,
        MEASURED_F32,
        unseen=VALUES_UNSEEN,
        cases=("int32_amax_beyond_2_24", "int32_clamp_beyond_2_24"),
        located=THROUGH_FLOAT32_LOCATED,
    ),
    Difference(
        "integer_products_through_float32",
        "integer matrix products go through float32",
        aten("mm.default", "bmm.default", "addmm.default", "baddbmm.default", "matmul.default"),
        Rule.INTEGERS_THROUGH_FLOAT32,
        MEASURED_F32,
        unseen=VALUES_UNSEEN,
        located=THROUGH_FLOAT32_LOCATED,
    ),
    Difference(
        "integer_roundings_through_float32",
        "ceil / floor / round / trunc of integers go through float32",
        ROUNDINGS,
        Rule.INTEGERS_THROUGH_FLOAT32,
        MEASURED_F32,
        unseen=VALUES_UNSEEN,
        located=THROUGH_FLOAT32_LOCATED,
    ),
    Difference(
        "integer_pow_through_float32",
        "integer pow goes through float32 (40001 ** 2 is 1600080000)",
        POWERS,
        Rule.INTEGERS_THROUGH_FLOAT32,
        MEASURED_F32,
        unseen=VALUES_UNSEEN,
        cases=("int32_square_by_pow",),
        located=THROUGH_FLOAT32_LOCATED,
    ),
    Difference(
        "avg_pool_ceil_window_divisor",
        "avg_pool with ceil_mode, count_include_pad and padding divides the last window by the kernel",
        aten("avg_pool2d.default", "avg_pool3d.default"),
        Rule.POOLS_DIFFERENTLY,
        MEASURED,
        finding=FindingKind.AVG_POOL_CEIL_WINDOW_DIVISOR,
        cases=("avg_pool_ceil_counting_padding", "avg_pool3d_ceil_counting_padding"),
        located=(
            "AvgPool: PyTorch (and ONNX) divide the extra window that `ceil_mode` adds by the part of it inside "
            "the padded input; the CPU plugin divides by the whole kernel. Where in the CPU kernel is not "
            "located."
        ),
    ),
    Difference(
        "avg_pool_divisor_override",
        "avg_pool with divisor_override fails to convert in OpenVINO's frontend",
        aten("avg_pool2d.default", "avg_pool3d.default"),
        Rule.POOLS_DIFFERENTLY,
        MEASURED,
        unseen=NO_BLOB,
        cases=("avg_pool_divisor_override",),
    ),
    Difference(
        "float16_rounding_dropped",
        "float16 is computed in float32 inside OpenVINO: the rounding to float16 is dropped",
        (),
        Rule.FLOAT16_ROUNDING_DROPPED,
        MEASURED_F32,
        dtypes=("float16",),
        unseen="a blob computes float16 in float32 either way; where PyTorch would round is not in it",
        cases=("float16_round_trip", "float16_scaled_round_trip"),
        located=(
            "f16 round trip: `Convert(f32 → f16)` followed by `Convert(f16 → f32)` returns the input unrounded, "
            "with `INFERENCE_PRECISION_HINT` f32; the same happens to an f16 `Multiply` between them (the CPU "
            'plugin computes f16 in f32 and rounds only at the Result). PR #35341 (open, "[CPU][GPU] F16 '
            'precision in chained operations fix") addresses the chained case.'
        ),
    ),
    Difference(
        "constant_abs_dropped",
        "the Abs of a constant is dropped at compile time (reflection padding's "
        "indices come from the wrong places)",
        aten("abs.default", "reflection_pad1d.default", "reflection_pad2d.default"),
        None,
        "OpenVINO 2025.4.0 and later (the matrix); 2025.3.0 keeps it",
        rewrite="constant_abs",
        finding=FindingKind.CONSTANT_ABS_DROPPED,
        cases=("reflect_pad_1d", "reflect_pad_2d"),
    ),
    Difference(
        "activations_quantized",
        "weight-only compressed matmuls get int8-quantized activations on CPUs with "
        "AVX-512 VNNI or AMX (DYNAMIC_QUANTIZATION_GROUP_SIZE 32): 2.8e-2 to 8.6e-2 of an LLM's logits",
        (),
        None,
        "OpenVINO 2026.4.1; the AVX-512 VNNI and AMX classes (AVX2 is exact)",
        rewrite=None,
        finding=FindingKind.ACTIVATIONS_QUANTIZED,
    ),
    # IEEE special values: handed back (or rewritten exactly) only with special_values="torch".
    Difference(
        "drops_nan",
        DROPS_NAN,
        aten(
            "relu.default",
            "clamp.default",
            "clamp.Tensor",
            "hardtanh.default",
            "maximum.default",
            "minimum.default",
            "amin.default",
            "argmin.default",
            "min.dim",
            "argmax.default",
            "topk.default",
            "sort.default",
        ),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        rewrite="nan_propagating_extremes",
        unseen=NAN_UNSEEN,
        cases=("relu_of_nan",),
        special_values=True,
    ),
    Difference(
        "drops_nan_and_negative_infinity",
        f"{DROPS_NAN}, and gives -FLT_MAX for a window of -inf",
        aten(
            "amax.default",
            "max.dim",
            "max_pool2d_with_indices.default",
            "max_pool3d_with_indices.default",
            "max_pool2d.default",
            "max_pool3d.default",
        ),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        rewrite="max_pool_special_values",
        unseen=NAN_UNSEEN,
        cases=("amax_of_negative_infinity", "max_pool_of_nan"),
        special_values=True,
        located=(
            "ReduceMax / ReduceMin: PR #5494 (2021) set the CPU Reduce's initial value for max to `-FLT_MAX` (it "
            "was `FLT_MIN`); the identity of max over floats is `-inf`, so a window of all `-inf` cannot come "
            "back as itself (read in the PR's diff; MaxPool's initial value not located)."
        ),
    ),
    Difference(
        "nan_greater",
        "is true when an operand is NaN",
        aten("gt.Tensor", "gt.Scalar", "ge.Tensor", "ge.Scalar"),
        Rule.SPECIAL_VALUES_DIFFER,
        "OpenVINO 2026.4.1; the SSE4.1 and AVX-512 kernels (AVX2 is right)",
        unseen=NAN_UNSEEN,
        cases=("nan_greater_than",),
        special_values=True,
    ),
    Difference(
        "softmax_of_nan",
        "gives 0 (log: -inf) beside a NaN where PyTorch gives NaN",
        aten("_softmax.default", "_log_softmax.default"),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        rewrite="softmax_of_nan",
        unseen=NAN_UNSEEN,
        cases=("softmax_of_a_nan_row",),
        special_values=True,
    ),
    Difference(
        "signed_zeros",
        "gives a zero the other sign (elu(-0.0) and x + 0 keep or drop -0.0 where PyTorch does not)",
        aten("elu.default", "cumsum.default", "add.Tensor", "sub.Tensor"),
        None,
        "OpenVINO 2026.4.1; every CPU class",
        rewrite="signed_zeros",
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    Difference(
        "exp_of_nan",
        "gives inf for NaN",
        aten("exp.default"),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    Difference(
        "sign_of_nan",
        "gives NaN for NaN (PyTorch: 0)",
        aten("sign.default"),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        rewrite="sign_of_nan",
        unseen=NAN_UNSEEN,
        cases=("sign_of_nan",),
        special_values=True,
    ),
    Difference(
        "log1p_of_negative_zero",
        "gives +0.0 for -0.0 (computed as log(1 + x))",
        aten("log1p.default"),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    Difference(
        "nan_taken_for_false",
        "takes NaN for False (PyTorch: True)",
        aten(
            "all.default",
            "all.dim",
            "all.dims",
            "any.default",
            "any.dim",
            "any.dims",
            "logical_not.default",
            "logical_and.default",
            "logical_or.default",
            "logical_xor.default",
        ),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    Difference(
        "upsampling_special_values",
        "gives other values beside NaN or infinities (the conformance sweep's special values)",
        aten(
            "upsample_bilinear2d.vec",
            "upsample_nearest2d.vec",
            "upsample_bilinear2d.default",
            "upsample_nearest2d.default",
        ),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    Difference(
        "nan_converted_to_false",
        "gives False for NaN (PyTorch: True)",
        (),
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
        dtypes=("bool",),
    ),
    Difference(
        "float_floor_division_of_infinities",
        "gives +-inf for a float's floor division where PyTorch gives NaN (inf // 1)",
        DIVISIONS,
        Rule.SPECIAL_VALUES_DIFFER,
        MEASURED_NAN,
        unseen=NAN_UNSEEN,
        special_values=True,
    ),
    # ExecuTorch's portable kernels: where handing a node back would be wrong again.
    Difference(
        "portable_remainder_sign",
        "ExecuTorch's integer remainder takes the dividend's sign (PyTorch: the divisor's)",
        aten("remainder.Tensor", "remainder.Scalar", "remainder.Scalar_Tensor"),
        Rule.INTEGER_RULE_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
    ),
    Difference(
        "portable_integer_roundings",
        "ExecuTorch's ceil / floor / round / trunc of integers go through float32",
        ROUNDINGS,
        Rule.INTEGER_RULE_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
    ),
    Difference(
        "portable_integer_pow",
        "ExecuTorch's integer pow goes through double and saturates (PyTorch wraps around)",
        POWERS,
        Rule.INTEGER_RULE_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
    ),
    Difference(
        "portable_float64_log_softmax",
        "ExecuTorch's _log_softmax fails at run time on float64 (0x12)",
        aten("_log_softmax.default"),
        Rule.DTYPE_RULE_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
    ),
    Difference(
        "portable_uint8_bilinear",
        "ExecuTorch's upsample_bilinear2d rounds uint8 otherwise (off by one)",
        aten("upsample_bilinear2d.vec"),
        Rule.DTYPE_RULE_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
    ),
    Difference(
        "portable_drops_nan",
        "drops NaN",
        aten("max_pool2d_with_indices.default"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
    Difference(
        "portable_sign_of_nan",
        "gives NaN for NaN (PyTorch: 0)",
        aten("sign.default"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
    Difference(
        "portable_gelu_of_infinities",
        "gives other values for infinities",
        aten("gelu.default"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
    Difference(
        "portable_grid_sampler_special_values",
        "gives other values for NaN and infinities",
        aten("grid_sampler_2d.default"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
    Difference(
        "portable_upsampling_special_values",
        "gives other values beside NaN and infinities",
        aten("upsample_bilinear2d.vec", "upsample_nearest2d.vec"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
    Difference(
        "portable_floor_division_of_infinities",
        "floor-divides infinities otherwise",
        aten("div.Tensor_mode", "div.Scalar_mode"),
        Rule.KERNEL_DIFFERS,
        MEASURED_PORTABLE,
        Owner.EXECUTORCH,
        unseen=HANDED_BACK,
        special_values=True,
    ),
)


def named(name: str) -> Difference:
    return next(difference for difference in DIFFERENCES if difference.name == name)


def of_rule(rule: Rule, owner: Owner = Owner.OPENVINO) -> list[Difference]:
    return [difference for difference in DIFFERENCES if difference.rule == rule and difference.owner == owner]


def reasons(rule: Rule, owner: Owner = Owner.OPENVINO) -> dict[str, str]:
    """{op: what differs} for every op a rule's entries name (the first entry naming an op wins)."""
    found: dict[str, str] = {}
    for difference in of_rule(rule, owner):
        for op in difference.ops:
            found.setdefault(op, difference.computes)
    return found


def op_names(difference: Difference) -> list[str]:
    """The entry's ops by name, each once (``relu``, whatever its overloads)."""
    return list(dict.fromkeys(op.split(".")[1] for op in difference.ops))


def traced(name: str) -> frozenset[str]:
    """The ATen ops whose traces in a blob show the named entry (its ops and ``shown_by``)."""
    difference = named(name)
    return frozenset((*difference.ops, *difference.shown_by))


def described(kind: FindingKind) -> str:
    """What the entries the checker reports as ``kind`` compute differently, in the registry's words: every such
    finding's message says it after where in the blob it was seen."""
    return "; ".join(difference.computes for difference in DIFFERENCES if difference.finding == kind)


def finding_kinds() -> tuple[FindingKind, ...]:
    """The checker's findings of what OpenVINO computes differently, in the registry's order."""
    return tuple(dict.fromkeys(difference.finding for difference in DIFFERENCES if difference.finding))


def unseen_by_the_checker() -> list[Difference]:
    return [difference for difference in DIFFERENCES if difference.finding is None]
