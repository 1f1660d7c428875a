"""Every script says its exit codes in --help (and exits 0 there)."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

REPRO = Path(__file__).resolve().parent.parent / "repro"
PLAIN = ["plain_openvino.py", "plain_openvino_c.py", "import_lifetime.py", "matrix.py"]
NEED_TORCH = ["executorch_path.py", "executorch_by_path.py", "executorch_channels_last.py"]


def scripts():
    yield from PLAIN
    for script in NEED_TORCH:
        yield pytest.param(script, marks=pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                                            reason="needs torch to import"))


@pytest.mark.parametrize("script", list(scripts()))
def test_every_script_states_its_exit_codes_in_help(script):
    result = subprocess.run([sys.executable, str(REPRO / script), "--help"], capture_output=True, text=True,
                            check=False, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2 usage error" in " ".join(result.stdout.split()), result.stdout


def test_the_checker_states_its_exit_codes_in_help():
    result = subprocess.run([sys.executable, "-m", "workaround.check", "--help"], capture_output=True, text=True,
                            check=False, timeout=300, cwd=REPRO.parent)
    if result.returncode and "No module named" in result.stderr:
        pytest.skip("the checker needs ExecuTorch's schema here")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2 not a readable .pte or a usage error" in " ".join(result.stdout.split())
