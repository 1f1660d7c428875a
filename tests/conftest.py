import functools
import os

import pytest

from tests import candidate_gate
from tests.outcomes import assert_equals_eager
from tests.release_behaviour import EXECUTORCH_FIRST_RELEASE, installed_openvino


def pytest_addoption(parser):
    candidate_gate.add_options(parser)


def pytest_configure(config):
    candidate_gate.configure(config)


def pytest_collection_modifyitems(config, items):
    candidate_gate.deselect_all_but_under_test(config, items)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    candidate_gate.record(item, outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_terminal_summary(terminalreporter):
    yield  # after pytest's own summary of failures: the last thing before the counts
    for line in candidate_gate.summary_lines():
        terminalreporter.write_line(line)


@functools.cache
def executorch_path_problem():
    """Why the ExecuTorch path cannot run here, measured by lowering the upstream example, or None."""
    try:
        from repro import catalogue, lowering
    except ImportError as error:
        if os.environ.get("EXECUTORCH_UNAVAILABLE"):
            return os.environ["EXECUTORCH_UNAVAILABLE"]
        raise RuntimeError(f"the ExecuTorch stack is not importable ({error}), yet this environment is meant to "
                           "have it; where it cannot be installed, say why in EXECUTORCH_UNAVAILABLE (tox.ini "
                           "does for the OpenVINO releases that need numpy<2)") from error
    lowering.check_runtime()
    try:
        lowering.lower(catalogue.CASES["upstream_clone_sin"], lowering.stock_partitioner())
    except Exception as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = next((line for line in lines if "No conversion rule" in line), lines[0] if lines else repr(error))
        return f"OpenVINO {installed_openvino()} cannot lower ExecuTorch's edge ops: {reason}"
    return None


def skip_module_without_executorch_path():
    """Skip a test module where the ExecuTorch path cannot run, saying what is missing (as measured).
    A missing stack is an error unless the environment declares it unavailable (EXECUTORCH_UNAVAILABLE).
    Where the path is known to work, a failure to lower is an error, not a skip; where it is known not
    to, a successful lowering is an error too: either way the release table needs updating."""
    problem, release = executorch_path_problem(), installed_openvino()
    lowering_failed = problem is not None and problem.startswith("OpenVINO")
    if release >= EXECUTORCH_FIRST_RELEASE and lowering_failed:
        raise RuntimeError(f"{problem} -- but {EXECUTORCH_FIRST_RELEASE} and newer used to lower it")
    if release < EXECUTORCH_FIRST_RELEASE and problem is None:
        raise RuntimeError(f"OpenVINO {release} now lowers ExecuTorch programs: lower EXECUTORCH_FIRST_RELEASE "
                           "in tests/release_behaviour.py and add this release's expectations")
    if problem:
        pytest.skip(problem, allow_module_level=True)


@pytest.fixture(scope="session")
def pte_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("pte")


@pytest.fixture(scope="session")
def runners():
    """{load: ProgramRunner}: the real runtime in child processes, loading from bytes and by path."""
    from repro.executorch_path import GATE_LOADS
    from repro.lowering import check_runtime
    from repro.program_runner import ProgramRunner

    check_runtime()
    started = {load: ProgramRunner(load) for load in GATE_LOADS}
    yield started
    for runner in started.values():
        runner.close()


@pytest.fixture(scope="session")
def lowered_case(pte_dir, runners):
    """record(case, partitioner) -> the catalogue case lowered, saved as .pte, run in the real runtime
    from bytes and by path, and replayed; made once per session."""
    from repro import executorch_path
    from repro.catalogue import CASES

    @functools.cache
    def record(case, partitioner="stock"):
        return executorch_path.run_case(CASES[case], partitioner, runners, pte_dir, with_replay=True)

    return record


@pytest.fixture(scope="session")
def execute_layer_test(pte_dir, runners):
    """Like ExecuTorch's BaseOpenvinoOpTest.execute_layer_test, for any function and inputs:
    lower (optionally with a compile_config), run in the real runtime, assert equal to eager
    (copies exactly, the rest within ``atol``), the delegate count, and a clean post-lowering check."""
    from repro import executorch_path
    from repro.catalogue import COMPUTE_ATOL, Case
    from workaround import check_program

    def run(function, inputs, *, partitioner=None, compile_config=None, exact_outputs=(),
            atol=COMPUTE_ATOL, expected_delegates=None, name="layer_test"):
        case = Case(name, name, function, lambda: tuple(t.clone() for t in inputs),
                    exact_outputs=exact_outputs, atol=atol)
        record = executorch_path.run_case(case, partitioner or candidate_gate.under_test(), runners, pte_dir,
                                          config=compile_config)
        assert_equals_eager(record)
        if expected_delegates is not None:
            assert record["delegates"] == expected_delegates, record
        assert check_program(record["pte"]) == []
        return record

    return run
