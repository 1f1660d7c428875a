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
# What each catalogue case does with the stock partitioner is stated on the case (``Case.stock``, in
# repro/harness/catalogue.py); these are the releases at which that changes.

# From this release OpenVINO's partitioner takes aten.alias_copy (x.detach(), x[:, :], transpose(0, 0)).
ALIAS_COPY_DELEGATED_FROM = Version("2025.4.0")
# From this release ov_core_import_model no longer copies the content: the CPU plugin reads the
# constants it does not repack (biases, eltwise operands) from the caller's buffer after the call
# (attachments/openvino_import_lifetime.c; measured on every release: 2024.3.0 - 2026.3.1 copy; 2026.4.0, 2026.4.1
# do not).
# ExecuTorch 1.5.1's OpenVINO backend frees that buffer right after the call, so a program loaded by
# path crashes, or gives wrong values once the freed pages are reused; from bytes nothing is freed.
IMPORT_KEEPS_CALLER_BUFFER_FROM = Version("2026.4.0")
_USE_AFTER_FREE = ("by path the backend has freed the blob whose constants OpenVINO reads in place "
                   "(use-after-free: crash, or wrong values once the pages are reused)")


def stock_outcome(case, load="bytes", release=None):
    """("correct" | "wrong" | "lowering_failed" | "runtime_failed" | "crashed_or_wrong", why) for a catalogue
    case with the stock partitioner on the installed (or given) release, its program loaded from bytes or by
    path."""
    release = release or installed_openvino()
    if load != "bytes" and case.stock.reads_constant_in_place and release >= IMPORT_KEEPS_CALLER_BUFFER_FROM:
        return "crashed_or_wrong", _USE_AFTER_FREE
    if case.stock.alias_copy and release < ALIAS_COPY_DELEGATED_FROM:
        return "correct", "alias_copy is not delegated before 2025.4, so ExecuTorch makes the copy"
    return case.stock.outcome, case.stock.why
