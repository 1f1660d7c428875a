import functools
import json
import os

import pytest

from repro.harness.precision import F32_ISA_CAP
from tests.outcomes import UPSTREAM_CHANGED, assert_equals_eager

# The gate judges at f32 on every CPU (repro/harness/precision.py): set before any test imports OpenVINO,
# and inherited by every child process; the bf16 leg (tests/gate/test_default_precision.py) takes it away.
for _variable, _value in F32_ISA_CAP.items():
    os.environ.setdefault(_variable, _value)

pytest_plugins = ["tests.candidate_gate", "tests.executorch_source", "tests.op_test_runs", "pytester"]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A strict expected failure that passed says what that means (upstream changed: retire this); the
    expected failures themselves say only what they expect, so a green run prints no alarm."""
    report = (yield).get_result()
    if report.when == "call" and report.failed and str(report.longrepr).startswith("[XPASS(strict)]"):
        report.longrepr = f"{report.longrepr}. {UPSTREAM_CHANGED}"


# Tests that take a minute or more each (measured: the peer suite's op-test runs, the real matrix, the
# property-based gates). xdist hands tests out in collection order, so these go first: started last, one of
# them would keep a core busy alone at the end of the run.
LONG_RUNNING = ("tests/gate/test_peer_suite.py", "tests/gate/test_workaround_fuzz.py",
                "tests/gate/test_semantics_fuzz.py", "tests/upstream/test_peer_suite_with_our_patches.py",
                "tests/upstream/test_matrix_runs.py::test_real_matrix")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_RUNNING))  # stable: the rest keep their order


@pytest.fixture
def recorded_matrix():
    """The recorded release matrix (``tests/recorded_matrix.py``) as ``repro/matrix.py`` gives it to reports."""
    from tests.recorded_matrix import matrix_of, recorded_rows

    return matrix_of(recorded_rows())


@pytest.fixture(scope="session")
def pte_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("pte")


@pytest.fixture(scope="session")
def runners():
    """{load: ProgramRunner}: the real runtime in child processes, loading from bytes and by path."""
    from repro.harness.case_runs import GATE_LOADS
    from repro.harness.program_runner import ProgramRunner
    from repro.harness.runtime import check_runtime

    check_runtime()
    started = {load: ProgramRunner(load) for load in GATE_LOADS}
    yield started
    for runner in started.values():
        runner.close()


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory, worker_id):
    """A folder every xdist worker of this run sees (the workers' temporary folders share a parent)."""
    return tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session")
def lowered_case(pte_dir, runners, shared_dir):
    """record(case name, lowering) -> the catalogue case lowered (a ``Lowering``, or the name of one; the stock
    partitioner by default), saved as .pte, run in the real runtime from bytes and by path, and replayed; made
    once per gate run, whichever xdist worker asks first (a file lock per record; the others read it back),
    since tests of one case land on either worker (measured: 111 of 299 records were made twice)."""
    from filelock import FileLock

    from repro.harness.case_runs import run_case
    from repro.harness.catalogue import CASES
    from repro.harness.lowerings import as_lowering

    folder = shared_dir / "lowered-cases"
    folder.mkdir(exist_ok=True)

    @functools.cache
    def lowered(case, lowering):
        stored = folder / f"{case}.{lowering.name}.json"
        with FileLock(f"{stored}.lock"):
            if not stored.exists():
                record = run_case(CASES[case], lowering, runners, pte_dir, with_replay=True)
                stored.write_text(json.dumps(record))
            return json.loads(stored.read_text())  # the same JSON-ready record on every worker

    def record(case, lowering="stock"):
        return lowered(case, as_lowering(lowering))

    return record


@pytest.fixture(scope="session")
def execute_layer_test(pte_dir, runners):
    """Like ExecuTorch's BaseOpenvinoOpTest.execute_layer_test, for any function and inputs:
    lower (optionally with a compile_config), run in the real runtime, assert equal to eager
    (copies exactly, the rest within ``atol``), the delegate count, and a clean post-lowering check."""
    from repro.harness.case_runs import run_case
    from repro.harness.catalogue import COMPUTE_ATOL
    from repro.harness.lowerings import as_lowering
    from tests.candidate_gate import under_test
    from tests.helpers import ad_hoc_case
    from workaround import check_program

    def run(function, inputs, *, partitioner=None, compile_config=None, exact_outputs=(),
            atol=COMPUTE_ATOL, expected_delegates=None, name="layer_test"):
        case = ad_hoc_case(function, inputs, name, exact_outputs=exact_outputs, atol=atol)
        lowering = as_lowering(partitioner or under_test())
        record = run_case(case, lowering, runners, pte_dir, config=compile_config)
        assert_equals_eager(record)
        if expected_delegates is not None:
            assert record["delegates"] == expected_delegates, record
        assert check_program(record["pte"]) == []
        return record

    return run
