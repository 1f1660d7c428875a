"""Which catalogue cases the workaround is held to eager on, and which it refuses at export by design."""

from repro.harness.models import catalogue
from tests.support.outcomes import expected_failure
from tests.support.release_behaviour import stock_outcome

REFUSED = "clone_channels_last_dim_order_off"
# With dim order off ExecuTorch holds this channels-last output, but nothing can convert it at the
# boundary (the pass needs dim-order ops): refused at export instead of wrong values.
REFUSED_DIM_ORDER_OFF = "channels_last_output_dim_order_off"
# A node OpenVINO computes differently that ExecuTorch's runtime cannot run as PyTorch does either: refused at
# export (CannotHandBackError), each with what the one line names (executorch 1.5.1's runtime).
CANNOT_HAND_BACK = {"avg_pool3d_ceil_counting_padding": "no kernel aten::avg_pool3d.out",
                    "int64_sort_beyond_int32": "no kernel aten::sort.values",
                    "int32_remainder": "ExecuTorch's integer remainder takes the dividend's sign",
                    "int32_square_by_pow": "ExecuTorch's integer pow goes through double and saturates"}
CORRECTED = [name for name in catalogue.CASES if name not in (REFUSED, REFUSED_DIM_ORDER_OFF, *CANNOT_HAND_BACK)]

# With its default (special_values="openvino") the workaround leaves NaN and infinities to OpenVINO: these cases
# stay wrong, as the stock partitioner has them, until OpenVINO computes them as PyTorch does.
KEEPS_OPENVINO_SPECIAL_VALUES = {name for name in CORRECTED if catalogue.CASES[name].special_values}


def keeps_openvinos_values(name, cpu_class=None):
    """Marks for a case the default keeps OpenVINO's special values in: its stock outcome on ``cpu_class`` (the
    process's by default), unless that class's kernels compute it as PyTorch does."""
    if name not in KEEPS_OPENVINO_SPECIAL_VALUES:
        return []
    outcome, why = stock_outcome(catalogue.CASES[name], cpu_class=cpu_class)
    if outcome == "correct":
        return []
    return [expected_failure(outcome, f"the default special_values='openvino' keeps OpenVINO's semantics: {why}")]
