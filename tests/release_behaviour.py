"""What each OpenVINO release is known to do with the plain reproducer's models.

This is the table the tests hold the installed release to. It was measured with
``repro/plain_openvino.py`` (see the README's release table); when a test built on
it fails, OpenVINO changed behaviour: re-measure, update this table and the
upstream report, and check whether the workaround can be retired.
"""

from importlib.metadata import version

from packaging.version import Version

STALE, DOWNSTREAM, OVERWRITTEN = "stale_output", "wrong_downstream", "input_overwritten"

# (first release of an era, {model: {order: symptoms}}); an era lasts until the next one.
_ERAS = [
    ("2023.0.0", {  # the control order is wrong too; the input is never touched
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
        "param_result_only": {"inputs_first": {STALE}, "outputs_first": {STALE}},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
    }),
    ("2023.3.0", {  # setting outputs first avoids the bug from here on
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": set()},
    }),
    ("2024.1.0", {  # the stale output is now also copied into the caller's input
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN},
                                         "outputs_first": set()},
    }),
]

# Models converted from torch copy ops return (copy, sin(copy)), like param_result_and_sin.
TORCH_MODEL_BEHAVES_LIKE = "param_result_and_sin"


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
