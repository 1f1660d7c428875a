"""ExecuTorch's own OpenVINO op tests (shipped in the executorch wheel) as the tests that compare them see them:
the ``op_test_runs`` fixture runs a way once per test run, whichever xdist worker asks first (a file lock in the
run's shared folder), so the tests that compare ways can land on either worker. A pytest plugin
(``pytest_plugins`` in the conftest): the gate compares the stock run with the workaround's, the upstream env
with our patches'.

The ways: ``stock``; ``workaround`` (``install()`` in the op tests' process); ``patched``, ``python -m
repro.harness.op_tests --every-op-test`` as a user runs it (the matrix runs it without the option): every op test
with our ExecuTorch patches applied, the tests they add also without them.
"""

import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from repro.harness.op_tests import op_tests_dir, run_op_tests
from tests.helpers import run_cli


def run_way(way, folder):
    """Run the op tests one way (see the module docstring) in ``folder``; writes outcomes.json."""
    if way in ("stock", "workaround"):
        run_op_tests(folder, [op_tests_dir()], with_workaround=way == "workaround")
        return
    result = run_cli("python", "-m", "repro.harness.op_tests", "--every-op-test", timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    (folder / "outcomes.json").write_text(result.stdout)


@pytest.fixture(scope="session")
def op_test_runs(shared_dir):
    """``runs(*ways)``: those ways' outcomes, each computed once per test run and shared between xdist workers
    (the first to ask runs it; the ways asked for together run concurrently)."""
    from filelock import FileLock

    def run(way):
        folder = shared_dir / f"op-tests-{way}"
        with FileLock(f"{folder}.lock"):
            if not (folder / "outcomes.json").exists():
                folder.mkdir(exist_ok=True)
                run_way(way, folder)
            return json.loads((folder / "outcomes.json").read_text())

    def runs(*ways):
        with ThreadPoolExecutor(len(ways)) as pool:
            return list(pool.map(run, ways))

    return runs


def changed(before, after):
    """{test: (outcome before, outcome after)} for every test of ``before`` whose outcome differs."""
    return {test: (before.get(test), after.get(test)) for test in before if before[test] != after.get(test)}
