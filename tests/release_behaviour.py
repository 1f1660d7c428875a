"""What each OpenVINO release is known to do with the plain reproducer's models.

This is the table the tests hold the installed release to. It was measured with
``repro/plain_openvino.py`` (see the README's release table); when a test built on
it fails, OpenVINO changed behaviour: re-measure, update this table and the
upstream report, and check whether the workaround can be retired.
"""

from importlib.metadata import version

from packaging.version import Version

STALE, DOWNSTREAM, OVERWRITTEN = "stale_output", "wrong_downstream", "input_overwritten"
SLOT = "input_slot_is_output_buffer"  # get_input_tensor(0) returns output 0's buffer before infer()

# (first release of an era, {model: {order: symptoms}}); an era lasts until the next one.
_ERAS = [
    ("2023.0.0", {  # the control order is wrong too; the input is never touched; the slots are apart
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
        "param_result_only": {"inputs_first": {STALE}, "outputs_first": {STALE}},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
    }),
    ("2023.3.0", {  # input and output share one slot: setting outputs first avoids the bug from here on
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM, SLOT}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE, SLOT}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM, SLOT}, "outputs_first": set()},
    }),
    ("2024.1.0", {  # the stale output is now also copied into the caller's input
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN, SLOT}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE, SLOT}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN, SLOT},
                                         "outputs_first": set()},
    }),
]

# Models converted from torch copy ops return (copy, sin(copy)), like param_result_and_sin.
TORCH_MODEL_BEHAVES_LIKE = "param_result_and_sin"
# Top-level openvino.opset8 (before: openvino.runtime.opset8 only; 2026 has no openvino.runtime).
TOP_LEVEL_OPSETS_FROM = Version("2025.0.0")
# The first wheel that ships libopenvino_c (the C API), measured over every release since 2023.0.0; the C++
# headers and cmake/OpenVINOConfig.cmake arrive in the same wheel (2024.2.0 has none of them).
C_API_IN_WHEEL_FROM = CPP_HEADERS_IN_WHEEL_FROM = Version("2024.3.0")
# Before this release ov.convert_model has no rule for aten.alias_copy (measured on 2024.6.0, 2025.0.0).
TORCH_ALIAS_COPY_CONVERTS_FROM = Version("2025.1.0")


def installed_openvino():
    return Version(version("openvino"))


def expected_symptoms(model, order, release=None):
    release = release or installed_openvino()
    eras = [table for first, table in _ERAS if Version(first) <= release]
    if not eras:
        raise LookupError(f"no known behaviour for OpenVINO {release}: add it to {__name__}")
    if model.startswith("torch:"):
        model = TORCH_MODEL_BEHAVES_LIKE
    return eras[-1][model][order]


# --- The ExecuTorch path with the stock OpenvinoPartitioner --------------------------------

# Older frontends reject ExecuTorch's edge ops at lowering (OpConversionFailure "No conversion rule
# found for operations: <EdgeOpOverload: aten.clone.default> ...", measured on 2024.6.0 and 2025.0.0);
# up to 2024.3 the stack cannot even be installed beside OpenVINO (numpy<2 against numpy>=2).
EXECUTORCH_FIRST_RELEASE = Version("2025.1.0")
# From this release OpenVINO's partitioner takes aten.alias_copy (x.detach(), x[:, :], transpose(0, 0)).
ALIAS_COPY_DELEGATED_FROM = Version("2025.4.0")

_PASS_THROUGH = "the copy compiles to a Result fed by a Parameter, so its output keeps the stale buffer"
_STOCK_WRONG = {
    "upstream_clone_sin": f"{_PASS_THROUGH}, and sin(y) is computed from it",
    "detach": f"alias_copy is delegated; {_PASS_THROUGH}, and sin(y) is computed from it",
    "full_slice": f"alias_copy is delegated; {_PASS_THROUGH}, and sin(y) is computed from it",
    "clone_clone": f"both clones vanish; {_PASS_THROUGH}",
    "transpose_0_0": f"alias_copy is delegated; {_PASS_THROUGH}, and sin(y) is computed from it",
    "dropout_eval": f"eval dropout is a clone; {_PASS_THROUGH}, and sin(y) is computed from it",
    "alias_copy": f"export's clone after alias_copy is delegated; {_PASS_THROUGH}",
    "clone_only": _PASS_THROUGH,
    "two_inputs": f"{_PASS_THROUGH}; x + z reads the overwritten inputs",
    "clone_channels_last": f"{_PASS_THROUGH} (and the buffer is read as contiguous)",
    "clone_channels_last_dim_order_off": f"{_PASS_THROUGH} (and the buffer is read as contiguous)",
    "float16_clone": _PASS_THROUGH,
    "int64_clone": _PASS_THROUGH,
    "bool_clone": _PASS_THROUGH,
    "input_read_after_delegate": f"{_PASS_THROUGH}; OpenVINO overwrote x's planned buffer, so atan2 reads junk",
}
_CONTIGUOUS = "the runtime hands OpenVINO the channels-last buffer as if it were contiguous"
_WRITTEN_CONTIGUOUS = "OpenVINO writes the channels-last output buffer as if it were contiguous"
_STOCK_WRONG |= {
    "channels_last_output": _WRITTEN_CONTIGUOUS,
    "channels_last_output_dim_order_off": _WRITTEN_CONTIGUOUS,
    "conv_channels_last_input": _CONTIGUOUS,
    "conv_channels_last_input_float16": _CONTIGUOUS,
    "conv_3x3_channels_last_input": _CONTIGUOUS,
    "conv_output_to_channels_last": _WRITTEN_CONTIGUOUS,
    "max_pool_channels_last_input": _CONTIGUOUS,
    "permute_channels_last_input": _CONTIGUOUS,
    "reshape_channels_last_input": _CONTIGUOUS,
    "sum_over_channels_channels_last_input": _CONTIGUOUS,
    "cat_channels_last_inputs": _CONTIGUOUS,
}
_STOCK_LOWERING_FAILS = {
    "intermediate_clone_returned": "OpenVINO's frontend fails converting a copy of a returned intermediate "
                                   "(\"Check 'is_number(name)' failed\")",
    "two_copies_of_a_computed_value": "OpenVINO's frontend fails converting two copies of one computed value "
                                      "(\"Check 'is_number(name)' failed\")",
}
# The limits of ExecuTorch 1.5.1's OpenVINO runtime (measured on 2026.4.1; the code at fault is ExecuTorch's,
# the same in every environment that installs it).
_ZERO_D_OR_EMPTY = "the delegate fails at run time (error 0x1) on a 0-d or 0-size argument"
_STOCK_RUNTIME_FAILS = {
    "cond_two_outputs": f"the predicate x.sum() > 0 leaves the partition 0-d: {_ZERO_D_OR_EMPTY}",
    "cond_channels_last": f"the predicate x.sum() > 0 leaves the partition 0-d: {_ZERO_D_OR_EMPTY}",
    "zero_d_input": _ZERO_D_OR_EMPTY,
    "zero_size_input": _ZERO_D_OR_EMPTY,
    "zero_d_output": _ZERO_D_OR_EMPTY,
}
_NOT_RESIZED = "the runtime never resizes a delegate output: it comes back with the upper bound's shape"
# Their blobs, replayed in plain OpenVINO, return the right shape: only the runtime's output is wrong.
DYNAMIC_OUTPUT_CASES = {"dynamic_batch", "dynamic_height_width_conv"}
_STOCK_WRONG |= {
    "stack_channels_last_inputs": _CONTIGUOUS,
    "stack_then_flatten_channels_last": _CONTIGUOUS,
    "unbind_channels_last_input": _CONTIGUOUS,
    "one_channel_channels_last": f"{_PASS_THROUGH} (the conv's channels-last output is written as contiguous)",
    **dict.fromkeys(DYNAMIC_OUTPUT_CASES, _NOT_RESIZED),
    "clone_sin_chain": f"the first copy is of the input: {_PASS_THROUGH}, and everything after reads it",
}


# From this release ov_core_import_model no longer copies the content: the CPU plugin reads the
# constants it does not repack (biases, eltwise operands) from the caller's buffer after the call
# (repro/import_lifetime.py; measured: 2025.2.0, 2026.3.1 copy; 2026.4.0, 2026.4.1 do not).
# ExecuTorch 1.5.1's OpenVINO backend frees that buffer right after the call, so a program loaded by
# path crashes, or gives wrong values once the freed pages are reused; from bytes nothing is freed.
IMPORT_KEEPS_CALLER_BUFFER_FROM = Version("2026.4.0")
# Measured on 2026.4.1 (stock, by path): every other catalogue case runs by path as it does from bytes,
# including conv_without_bias (weights are repacked at import) and sin(x) * 2 (a float scalar).
_READS_A_CONSTANT_IN_PLACE = {
    "conv_bias_relu", "linear_bias", "multiply_by_buffer", "int64_clone",  # int64: y + 1, an eltwise operand
    "conv_channels_last_input", "conv_channels_last_input_float16", "conv_3x3_channels_last_input",
    "conv_output_to_channels_last", "one_channel_channels_last", "dynamic_height_width_conv",
    "dynamic_batch_static_output",  # sin(x).sum(0): measured to crash by path too
}
_USE_AFTER_FREE = ("by path the backend has freed the blob whose constants OpenVINO reads in place "
                   "(use-after-free: crash, or wrong values once the pages are reused)")


def stock_outcome(case, load="bytes", release=None):
    """("correct" | "wrong" | "lowering_failed" | "runtime_failed" | "crashed_or_wrong", why) for a catalogue
    case with the stock partitioner, its program loaded from bytes or by path."""
    release = release or installed_openvino()
    if load != "bytes" and case in _READS_A_CONSTANT_IN_PLACE and release >= IMPORT_KEEPS_CALLER_BUFFER_FROM:
        return "crashed_or_wrong", _USE_AFTER_FREE
    if case in ("detach", "full_slice", "transpose_0_0") and release < ALIAS_COPY_DELEGATED_FROM:
        return "correct", "alias_copy is not delegated before 2025.4, so ExecuTorch makes the copy"
    if case in _STOCK_WRONG:
        return "wrong", _STOCK_WRONG[case]
    if case in _STOCK_LOWERING_FAILS:
        return "lowering_failed", _STOCK_LOWERING_FAILS[case]
    if case in _STOCK_RUNTIME_FAILS:
        return "runtime_failed", _STOCK_RUNTIME_FAILS[case]
    return "correct", "no copy leaves the partition"
