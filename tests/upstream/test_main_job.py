"""The main job (``tox -e repro``): quiet, and ending in one line that says what it found."""

import pytest

from tests.support.helpers import THIRD_PARTY_NOISE, cli_run_once, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch


@pytest.fixture
def main_job(once_per_run):
    """The main job on two cases, run once per test run."""
    return cli_run_once(once_per_run, "main_job", "python", "-m", "repro.main_job", "--case", "upstream_clone_sin",
                        "--case", "conv_bias_relu", timeout=900)


def test_it_succeeds_and_ends_with_one_line_saying_what_it_found(main_job):
    from importlib.metadata import version

    assert main_job.returncode == 0, main_job.stderr[-3000:]
    last = main_job.stdout.strip().splitlines()[-1]
    assert last.startswith(f"OpenVINO {version('openvino')}, executorch {version('executorch')}: ")
    assert "the ExecuTorch path (stock partitioner): reproduced" in last


def test_it_shows_the_reports_without_third_party_noise(main_job):
    assert main_job.stderr == ""
    noisy = [line for line in main_job.stdout.splitlines() if THIRD_PARTY_NOISE.search(line)]
    assert noisy == []
    assert "=== stale copies in plain OpenVINO: python repro/plain_openvino.py" in main_job.stdout

