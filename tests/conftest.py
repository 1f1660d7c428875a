import functools

import pytest

from tests.outcomes import assert_equals_eager
from tests.release_behaviour import EXECUTORCH_FIRST_RELEASE, installed_openvino


def skip_module_without_executorch_path():
    """Skip a test module where the ExecuTorch path cannot run, saying what is missing."""
    release = installed_openvino()
    if release < EXECUTORCH_FIRST_RELEASE:
        pytest.skip(f"OpenVINO {release} cannot lower ExecuTorch's edge ops (needs >= {EXECUTORCH_FIRST_RELEASE})",
                    allow_module_level=True)
    pytest.importorskip("executorch", reason="executorch is not installed in this environment")


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
