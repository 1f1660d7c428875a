"""A slice of the per-op conformance sweep in the gate: cases where OpenVINO computes differently from PyTorch,
each held to the outcomes recorded for this OpenVINO release (stock and workaround; ``tox -e conformance`` runs
them all). A changed outcome is upstream changing behaviour (re-run the sweep, check, ``--record``) or the
workaround regressing.
"""

from importlib.metadata import version

import pytest

from tests.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()
from repro.harness import conformance, conformance_record  # noqa: E402
from repro.harness.lowerings import LOWERINGS  # noqa: E402
from repro.harness.program_runner import ProgramRunner  # noqa: E402

pytestmark = pytest.mark.executorch
# Cases of the classes the workaround guards, one it leaves to OpenVINO by default, one ExecuTorch's own kernel
# gets wrong, and a control, by the sweep's own ids (op/OpInfo/variant).
SLICE = (
    "mul/mul/int64 bounds",
    "gt/gt/int64 bounds",
    "div/div.trunc_rounding/special values",
    "div/div.floor_rounding/int32 bounds",
    "fmod/fmod/special values",
    "remainder/remainder/special values",
    "remainder/remainder/int32 bounds",  # refused: ExecuTorch's own remainder kernel takes the dividend's sign
    "gt/gt/special values",  # both wrong: NaN and infinities are OpenVINO's by default
    "relu/nn.functional.relu/special values",  # the third lowering rewrites it exactly in the delegate
    "eq/eq/int32 bounds",  # int32 compared through float32: handed back
    "_softmax/softmax/special values",  # a NaN row: rewritten exactly with special_values="torch"
)


@pytest.fixture(scope="module")
def f32_runner():
    with ProgramRunner("bytes", environment=conformance.F32_ENVIRONMENT) as runner:
        yield runner


@pytest.fixture(scope="module")
def recorded():
    found = conformance_record.recorded(version("openvino"))
    if found is None:
        pytest.skip(f"no conformance outcomes are recorded for OpenVINO {version('openvino')}: run "
                    "python -m repro.conformance --record with it")
    return found


@pytest.mark.parametrize("case_id", SLICE)
def test_sweep_case_gives_the_outcomes_recorded_for_this_release(f32_runner, recorded, tmp_path, case_id):
    op = case_id.split("/")[0]
    sweep_case = next((case for case in conformance.sweep_cases({op}) if case.id == case_id), None)
    assert sweep_case is not None, f"the sweep no longer makes {case_id}: update SLICE"
    lowerings = [LOWERINGS[name] for name in conformance_record.LOWERINGS]
    found = conformance.run_sweep([sweep_case], f32_runner, tmp_path, lowerings)[case_id]
    assert found == recorded[case_id], (f"{case_id}: {found}, recorded {recorded[case_id]}: upstream changed "
                                        "behaviour, or the workaround regressed")
