"""A slice of the per-op conformance sweep in the gate: cases where OpenVINO computes differently from PyTorch,
each held to the outcomes recorded for this OpenVINO release on each CPU class this host reaches (stock and
workaround; ``tox -e conformance`` runs them all): lowered once, as this process's class computes, and rerun
as each other class computes (``as_class``: what a class exports differs only in the blob's stamp). A changed
outcome is upstream changing behaviour (re-run the sweep, check, ``--record``) or the workaround regressing.
"""

from importlib.metadata import version

import pytest

from tests.support.helpers import other_cpu_classes, skip_module_without_executorch_path

skip_module_without_executorch_path()
from repro.harness.conformance import per_op  # noqa: E402
from repro.harness.conformance import record as conformance_record  # noqa: E402
from repro.harness.cpu.classes import process_class  # noqa: E402

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


def recorded(cpu_class):
    """The outcomes recorded for this release on ``cpu_class``: a release never swept is skipped (the older
    releases' envs), a class never swept of a swept release is an error saying to sweep it."""
    release = version("openvino")
    if not conformance_record.recorded_classes(release):
        pytest.skip(f"no conformance outcomes are recorded for OpenVINO {release}: run "
                    "python -m repro.conformance --record with it")
    found = conformance_record.recorded(release, cpu_class)
    assert found is not None, (f"no conformance outcomes are recorded for OpenVINO {release} on the CPU class "
                               f"{cpu_class}: run python -m repro.conformance --record --cpu-class {cpu_class} "
                               "on a host that reaches it")
    return found


@pytest.mark.parametrize("cpu_class", [process_class(), *other_cpu_classes()], ids=str)
@pytest.mark.parametrize("case_id", SLICE)
def test_sweep_case_gives_the_outcomes_recorded_for_this_release(lowered_as, case_id, cpu_class):
    op = case_id.split("/")[0]
    sweep_case = next((case for case in per_op.sweep({op}).cases if case.id == case_id), None)
    assert sweep_case is not None, f"the sweep no longer makes {case_id}: update SLICE"
    found = {name: per_op.outcome(lowered_as(f"slice.{case_id}", sweep_case.case, name, cpu_class))
             for name in conformance_record.LOWERINGS}
    expected = recorded(cpu_class)[case_id]
    assert found == expected, (f"{case_id} as {cpu_class} computes: {found}, recorded {expected}: upstream "
                               "changed behaviour, or the workaround regressed")


def test_the_sweep_records_each_call_eager_refuses_rather_than_dropping_it():
    """A sample call at the bounds that eager PyTorch refuses (an index beyond the table) is not swept, and
    says so with eager's reason: the denominator of the sweep's figures is on the record."""
    not_swept = {item.variant: item.reason for item in per_op.sweep({"gather"}).not_swept}
    assert set(not_swept) == {"int32 bounds", "int64 bounds"}, not_swept
    assert all(reason.startswith("eager refuses: RuntimeError: index ") for reason in not_swept.values())


class BrokenOpInfo:
    """An OpInfo whose sample generator fails, as one may where this build lacks what it needs."""

    name, variant_test_name = "broken", ""

    @staticmethod
    def supported_dtypes(device):
        import torch

        return {torch.float32, torch.int64}

    @staticmethod
    def sample_inputs(device, dtype):
        raise RuntimeError(f"no {dtype} samples on {device}\nsecond line")


def test_an_opinfo_whose_samples_fail_is_recorded_with_the_reason_for_each_dtype():
    assert list(per_op.variants(BrokenOpInfo())) == [
        ("float32", "RuntimeError: no torch.float32 samples on cpu"),
        ("int64", "RuntimeError: no torch.int64 samples on cpu")]
