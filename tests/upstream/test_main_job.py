"""The main job (``tox -e repro``): quiet, and ending in one line that says what it found."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.helpers import REPRO, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
# What torch, torchao, tokenizers and the runtime print on import, none of it about the bugs.
THIRD_PARTY_NOISE = re.compile(r"Warning|torchao|_pytree|tokenizers|cpuinfo|Failed to load|Op not supported")


@pytest.fixture(scope="module")
def main_job():
    return run_cli("python", "-m", "repro.main_job", "--case", "upstream_clone_sin", "--case", "conv_bias_relu",
                   timeout=900)


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


def test_the_executorch_script_alone_hides_import_chatter_unless_verbose():
    with ThreadPoolExecutor(2) as both:  # two child processes, one per core
        quiet, verbose = both.map(lambda flag: run_cli("python", REPRO / "executorch_path.py", "--case",
                                                       "clone_only", *flag), ([], ["-v"]))
    assert quiet.returncode == verbose.returncode == 1
    assert [line for line in quiet.stderr.splitlines() if THIRD_PARTY_NOISE.search(line)] == []
    assert THIRD_PARTY_NOISE.search(verbose.stderr), "with -v the chatter is shown"
