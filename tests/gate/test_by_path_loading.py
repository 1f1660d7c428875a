"""Programs loaded the way deployments load them: by path, in a child process that may crash.

ExecuTorch 1.5.1's OpenVINO backend frees each delegate's blob right after importing it, and from
OpenVINO 2026.4.0 the import keeps pointers into it. The stock expectations per release live in
``tests/support/release_behaviour.py`` (held case by case in ``test_executorch_path.py``); here: a crash is
a result and not the end of the run, the workaround's programs keep their blobs inline and run
correctly with every loader, and the rule follows the partitioner, not the process.
"""

import pytest

from tests.plugins.candidate_gate import under_test
from tests.support.helpers import ad_hoc_case, lower_save_run, skip_module_without_executorch_path
from tests.support.outcomes import UPSTREAM_CHANGED
from tests.support.release_behaviour import installed_executorch, installed_openvino, stock_use_after_free

skip_module_without_executorch_path()

from executorch.exir import ExecutorchBackendConfig  # noqa: E402
from executorch.exir.passes import MemoryPlanningPass  # noqa: E402

from repro.harness.cases.runs import eager_outputs, load_outcome  # noqa: E402
from repro.harness.lowering import to_edge  # noqa: E402
from repro.harness.lowering.named import LOWERINGS  # noqa: E402
from repro.harness.models import catalogue  # noqa: E402
from repro.harness.runtime.program_runner import ProgramRunner  # noqa: E402
from workaround import check_program, install, uninstall  # noqa: E402
from workaround.checker.pte import reader  # noqa: E402
from workaround.partitioner.hooks.inline_blobs import INLINE_BLOBS  # noqa: E402

pytestmark = pytest.mark.executorch
CONSTANT_CASES = [case.name for case in catalogue.CONSTANT_CASES + catalogue.EMPTY_CONSTANT_CASES]
USE_AFTER_FREE = stock_use_after_free()


def blobs_in_segments(program):
    return sorted({delegate.in_segment for delegate in reader.delegates(program.buffer)})


def lowered(case_name, partitioner):
    return to_edge.lower(catalogue.CASES[case_name], LOWERINGS[partitioner])


def test_a_crash_is_a_result_and_the_next_program_gets_a_fresh_worker_of_the_same_child(lowered_case, tmp_path):
    crashing, healthy = lowered_case("conv_bias_relu"), lowered_case("clone_used_inside")
    with ProgramRunner("path") as runner:
        first = runner.run(crashing["pte"], catalogue.CASES["conv_bias_relu"].inputs())
        child = runner.child.pid
        second = runner.run(healthy["pte"], catalogue.CASES["clone_used_inside"].inputs())
        assert runner.child.pid == child, "the child should fork a fresh worker, not be started again"
    if USE_AFTER_FREE:
        assert first.status == "crashed", first
        assert first.detail.startswith("crashed: SIGSEGV"), first.detail
    else:
        assert first.status == "ok", first
    assert second.status == "ok", second.detail


def test_a_program_that_does_not_answer_in_time_is_timed_out_and_the_next_gets_a_fresh_child(lowered_case):
    healthy, inputs = lowered_case("clone_used_inside"), catalogue.CASES["clone_used_inside"].inputs()
    with ProgramRunner("bytes", timeout=0) as runner:
        late = runner.run(healthy["pte"], inputs)  # a child starting up does not answer in no time
        runner.timeout = 300
        next_one = runner.run(healthy["pte"], inputs)
    assert late.status == "timed_out", late
    assert late.detail.startswith("no answer within 0 s"), late.detail
    assert next_one.status == "ok", next_one


@pytest.mark.parametrize("load", ["bytes", "path"])
def test_a_program_that_cannot_load_is_a_runtime_failure_naming_the_error(runners, tmp_path, load):
    not_a_program = tmp_path / "empty.pte"
    not_a_program.write_bytes(b"not a program")
    run = runners[load].run(not_a_program, [])
    assert run.status == "runtime_failed", run
    assert run.detail.startswith("RuntimeError"), run.detail


def test_a_program_whose_only_constant_is_empty_fails_by_path_without_any_delegate(runners, tmp_path):
    """ExecuTorch's own bug, not a delegate's: the fix for the empty constants the OpenVINO delegate leaves
    can be retired when this program loads by path."""
    import torch

    case = ad_hoc_case(lambda x: torch.cat([torch.tensor([]), x], -1) + x, (torch.rand(2, 3),), "only_empty")
    program, by_path = lower_save_run(case, LOWERINGS["none"], runners["path"], tmp_path)
    _, from_bytes = lower_save_run(case, LOWERINGS["none"], runners["bytes"], tmp_path)
    assert from_bytes.status == "ok", from_bytes
    if not installed_executorch().empty_constants_unloadable:
        assert by_path.status == "ok", by_path
        return
    assert by_path.status == "runtime_failed", f"{by_path} {UPSTREAM_CHANGED}"
    assert by_path.detail.endswith("error: 0x:23"), by_path.detail
    assert [finding.kind for finding in check_program(program)] == ["empty_constant_segment"]


@pytest.fixture(scope="module")
def module_loader():
    """_load_for_executorch(path): ExecuTorch's C++ Module with its mmap loader, as C++ deployments load."""
    with ProgramRunner("module") as runner:
        yield runner


@pytest.mark.under_test
@pytest.mark.parametrize("case", CONSTANT_CASES)
def test_workaround_program_is_correct_in_the_cpp_module_loader(lowered_case, module_loader, case):
    record = lowered_case(case, under_test())
    inputs = catalogue.CASES[case].inputs()
    run = module_loader.run(record["pte"], inputs)
    outcome = load_outcome(catalogue.CASES[case], run, inputs, eager_outputs(catalogue.CASES[case], inputs),
                           record["declared_dim_orders"])
    assert outcome["outcome"] == "correct", outcome


@pytest.mark.skipif(not USE_AFTER_FREE, reason=f"OpenVINO {installed_openvino()} copies the blob at import")
def test_stock_program_crashes_in_the_cpp_module_loader(lowered_case, module_loader):
    record = lowered_case("conv_bias_relu")
    run = module_loader.run(record["pte"], catalogue.CASES["conv_bias_relu"].inputs())
    assert run.status == "crashed", run


def test_workaround_keeps_openvino_blobs_inline():
    assert blobs_in_segments(lowered("conv_bias_relu", "workaround").to_executorch()) == [False]


def test_stock_programs_keep_their_segments_after_the_workaround_was_used():
    lowered("conv_bias_relu", "workaround").to_executorch()
    assert INLINE_BLOBS.applied()
    assert blobs_in_segments(lowered("conv_bias_relu", "stock").to_executorch()) == [True]


def test_programs_without_openvino_are_serialized_as_before():
    lowered("conv_bias_relu", "workaround")  # hooks to_executorch
    hooked = lowered("conv_bias_relu", "none").to_executorch().buffer
    uninstall()
    assert hooked == lowered("conv_bias_relu", "none").to_executorch().buffer


def input_is_planned(program):
    plan = program.executorch_program.execution_plan[0]
    return plan.values[plan.inputs[0]].val.allocation_info is not None


def test_the_rest_of_the_callers_config_is_kept():
    unplanned_inputs = ExecutorchBackendConfig(memory_planning_pass=MemoryPlanningPass(alloc_graph_input=False))
    program = lowered("conv_bias_relu", "workaround").to_executorch(unplanned_inputs)
    assert blobs_in_segments(program) == [False]
    assert not input_is_planned(program), "the caller's memory planning was dropped"
    assert input_is_planned(lowered("conv_bias_relu", "workaround").to_executorch())


def test_install_keeps_blobs_inline_for_the_stock_partitioner_and_uninstall_restores_segments():
    install()
    try:
        assert blobs_in_segments(lowered("conv_bias_relu", "stock").to_executorch()) == [False]
    finally:
        uninstall()
    assert not INLINE_BLOBS.applied()
    assert blobs_in_segments(lowered("conv_bias_relu", "stock").to_executorch()) == [True]
