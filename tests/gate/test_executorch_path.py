"""The bug through the real pipeline: torch.export -> OpenvinoPartitioner -> .pte -> ExecuTorch runtime.

With the stock partitioner every case the release table marks wrong is a strict xfail
that names what is wrong; an upstream fix turns it into a failure (XPASS) saying the
workaround may be retired. Cases that are correct are asserted correct.
"""


import pytest

from tests.support.helpers import other_cpu_classes, skip_module_without_executorch_path
from tests.support.outcomes import assert_equals_eager, expected_failure
from tests.support.release_behaviour import (
    ALIAS_COPY_DELEGATED_FROM,
    installed_openvino,
    stock_outcome,
)

skip_module_without_executorch_path()
executorch_path = pytest.importorskip("repro.executorch_path")
from repro.harness.cases.runs import GATE_LOADS  # noqa: E402
from repro.harness.models.catalogue import CASES, GROUPS, NOT_RESIZED, group_of  # noqa: E402

pytestmark = pytest.mark.executorch

CLONE_OPS = {"aten.clone.default", "dim_order_ops._clone_dim_order.default"}


def stock_cases():
    for name in CASES:
        for load in GATE_LOADS:
            outcome, why = stock_outcome(CASES[name], load)
            yield pytest.param(name, load, id=f"{name}-{load}",
                               marks=[] if outcome == "correct" else [expected_failure(outcome, why)])


@pytest.mark.parametrize(("case", "load"), list(stock_cases()))
def test_stock_partitioner_equals_eager(lowered_case, case, load):
    assert_equals_eager(lowered_case(case), loads=[load])


def stock_cases_on_other_classes():
    """The semantics cases (what OpenVINO's kernels compute) as each other class this host reaches computes them,
    from bytes: how a program is loaded is no kernel's choice."""
    for case in GROUPS["semantics"]:
        for cpu_class in other_cpu_classes():
            outcome, why = stock_outcome(case, "bytes", cpu_class=cpu_class)
            yield pytest.param(case.name, cpu_class, id=f"{case.name}-{cpu_class}",
                               marks=[] if outcome == "correct" else [expected_failure(outcome, why)])


@pytest.mark.parametrize(("case", "cpu_class"), list(stock_cases_on_other_classes()))
def test_stock_partitioner_equals_eager_as_another_cpu_class_computes(lowered_case, as_class, case, cpu_class):
    assert_equals_eager(as_class(CASES[case], "stock", lowered_case(case), cpu_class))


def replayable_cases():
    """The cases whose stock program runs, except those whose only fault is the runtime's: a dynamic output
    it never resizes (their blobs, replayed in plain OpenVINO, return the right shape)."""
    ran = {"correct", "wrong", "crashed_or_wrong"}
    return [name for name, case in CASES.items()
            if stock_outcome(case)[0] in ran and case.stock.why != NOT_RESIZED]


@pytest.mark.parametrize("case", replayable_cases())
def test_replayed_blob_gives_the_runtimes_values(lowered_case, case):
    """Plain OpenVINO, fed the delegate's inputs in the runtime's order, returns exactly what the runtime did.
    (Not for dynamic-shaped outputs: OpenVINO returns the right shape, the runtime never resizes to it.)"""
    replay = lowered_case(case)["replay"]
    assert replay["outputs_compared"] > 0
    assert replay["agrees_with_runtime"], replay


@pytest.mark.parametrize("case", [n for n in replayable_cases() if "channels_last" not in n
                                  and group_of(n) != "semantics"])
def test_replayed_blob_is_correct_when_outputs_are_set_first(lowered_case, case):
    """The undocumented detail the workaround must not rely on: outputs first avoids the bug.
    (Channels-last cases are excluded: there the runtime's dim-order bug makes both orders wrong; so are
    semantics cases: OpenVINO computes them differently whatever the order.)"""
    assert lowered_case(case)["replay"]["control_order_correct"]


def test_copy_used_only_inside_stays_delegated(lowered_case):
    record = lowered_case("clone_used_inside")
    assert record["delegates"] == 1
    assert CLONE_OPS & set(record["delegated_ops"]), record["delegated_ops"]
    assert record["ops_outside"] == []


@pytest.mark.parametrize("case", ["detach", "full_slice", "transpose_0_0"])
def test_alias_copy_is_delegated_from_2025_4(lowered_case, case):
    record = lowered_case(case)
    delegated = "aten.alias_copy.default" in record["delegated_ops"]
    assert delegated == (installed_openvino() >= ALIAS_COPY_DELEGATED_FROM), record


def test_atan2_runs_outside_after_the_delegate_and_reads_a_clobbered_input(lowered_case):
    record = lowered_case("input_read_after_delegate")
    assert record["ops_outside"] == ["aten.atan2.default"]
    for run in record["runs"].values():
        assert run["inputs_intact"], "the caller's tensor is copied into planned memory and stays intact"
        assert not run["outputs"][1]["ok"], "atan2(x, ...) should read the overwritten planned copy of x"
