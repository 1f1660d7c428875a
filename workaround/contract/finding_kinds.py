"""What a finding of the post-lowering check is about: one StrEnum, whose values are the strings the checker's
``--json`` output, the gate's capability labels and the docs already use (a StrEnum serialises as its string, so
recorded output is unchanged). In the contract: the registry of differences names each entry's kind, and the
checker reports them. Standard library only."""

from enum import StrEnum


class FindingKind(StrEnum):
    PASS_THROUGH_OUTPUT = "pass_through_output"
    NON_DEFAULT_DIM_ORDER = "non_default_dim_order"
    EMPTY_OR_0D_ARGUMENT = "empty_or_0d_argument"
    DYNAMIC_SHAPED_OUTPUT = "dynamic_shaped_output"
    DELEGATE_BLOB_IN_SEGMENT = "delegate_blob_in_segment"
    EMPTY_CONSTANT_SEGMENT = "empty_constant_segment"
    PRECISION_NOT_KEPT = "precision_not_kept"
    OPERATOR_MISSING = "operator_missing"
    # OpenVINO 2026.4 imports a blob only where it was stamped (workaround.checker.compatibility_stamp).
    STAMPED_FOR_ANOTHER_CPU = "stamped_for_another_cpu"
    COMPILED_BY_ANOTHER_RELEASE = "compiled_by_another_release"
    # What OpenVINO's CPU plugin computes differently from PyTorch (workaround.checker.blob_differences).
    FLOAT64_COMPUTED_AS_FLOAT32 = "float64_computed_as_float32"
    INT64_COMPUTED_IN_32_BITS = "int64_computed_in_32_bits"
    NARROW_INTEGER_ARITHMETIC_SATURATES = "narrow_integer_arithmetic_saturates"
    DIVISION_THROUGH_FLOAT32 = "division_through_float32"
    TRUNC_DIVISION_THROUGH_INT32 = "trunc_division_through_int32"
    CONSTANT_ABS_DROPPED = "constant_abs_dropped"
    AVG_POOL_CEIL_WINDOW_DIVISOR = "avg_pool_ceil_window_divisor"
    # An importing CPU with AVX-512 VNNI or AMX quantizes compressed matmuls' activations (DYNAMIC_QUANTIZATION).
    ACTIVATIONS_QUANTIZED = "activations_quantized"
