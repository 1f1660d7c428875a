import functools
import os

import pytest

from tests.outcomes import assert_equals_eager
from tests.release_behaviour import EXECUTORCH_FIRST_RELEASE, installed_openvino


@functools.cache
def executorch_path_problem():
    """Why the ExecuTorch path cannot run here, measured by lowering the upstream example, or None."""
    try:
        from repro import executorch_path
    except ImportError as error:
        return os.environ.get("EXECUTORCH_UNAVAILABLE") or f"the ExecuTorch stack is not importable: {error}"
    executorch_path.check_runtime()
    try:
        executorch_path.lower(executorch_path.CASES["upstream_clone_sin"], executorch_path.stock_partitioner())
    except Exception as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = next((line for line in lines if "No conversion rule" in line), lines[0] if lines else repr(error))
        return f"OpenVINO {installed_openvino()} cannot lower ExecuTorch's edge ops: {reason}"
    return None


def skip_module_without_executorch_path():
    """Skip a test module where the ExecuTorch path cannot run, saying what is missing (as measured).
    Where it is known to work, a failure to lower is an error, not a skip; where it is known not
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
def lowered_case(pte_dir):
    """record(case, partitioner) -> the catalogue case lowered, saved as .pte, run in the real runtime
    and replayed; made once per session."""
    from repro import executorch_path

    executorch_path.check_runtime()

    @functools.cache
    def record(case, partitioner="stock"):
        return executorch_path.run_case(executorch_path.CASES[case], partitioner, pte_dir, with_replay=True)

    return record


@pytest.fixture(scope="session")
def execute_layer_test(pte_dir):
    """Like ExecuTorch's BaseOpenvinoOpTest.execute_layer_test, for any function and inputs:
    lower (optionally with a compile_config), run in the real runtime, assert equal to eager
    (copies exactly, the rest within ``atol``), the delegate count, and a clean post-lowering check."""
    from repro import executorch_path
    from workaround import check_program

    executorch_path.check_runtime()

    def run(function, inputs, *, partitioner="workaround", compile_config=None, exact_outputs=(),
            atol=executorch_path.COMPUTE_ATOL, expected_delegates=None, name="layer_test"):
        case = executorch_path.Case(name, name, function, lambda: tuple(t.clone() for t in inputs),
                                    exact_outputs=exact_outputs, atol=atol)
        record = executorch_path.run_case(case, partitioner, pte_dir, config=compile_config)
        assert_equals_eager(record)
        if expected_delegates is not None:
            assert record["delegates"] == expected_delegates, record
        assert check_program(record["pte"]) == []
        return record

    return run
