import functools

import pytest

from tests.release_behaviour import EXECUTORCH_FIRST_RELEASE, installed_openvino


def skip_module_without_executorch_path():
    """Skip a test module where the ExecuTorch path cannot run, saying what is missing."""
    release = installed_openvino()
    if release < EXECUTORCH_FIRST_RELEASE:
        pytest.skip(f"OpenVINO {release} cannot lower ExecuTorch's edge ops (needs >= {EXECUTORCH_FIRST_RELEASE})",
                    allow_module_level=True)
    pytest.importorskip("executorch", reason="executorch is not installed in this environment")


@pytest.fixture(scope="session")
def lowered_case():
    """record(case, partitioner) -> the case lowered, run in the real runtime and replayed, once per session."""
    from repro import executorch_path

    executorch_path.check_runtime()

    @functools.cache
    def record(case, partitioner="stock"):
        return executorch_path.run_case(executorch_path.CASES[case], partitioner, with_replay=True)

    return record
