"""Every script says its exit codes in --help (and exits 0 there); every tox env says what it is for."""

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPRO = Path(__file__).resolve().parent.parent / "repro"
PLAIN = ["plain_openvino.py", "plain_openvino_c.py", "plain_openvino_cpp.py", "import_lifetime.py", "matrix.py"]
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


TOX = shutil.which("tox")
DESCRIPTIONS = {"ov2026.4": "the whole gate (bug as this release shows it, and the fix) on one OpenVINO release",
                "repro": "reproduce the bugs on OpenVINO 2026.4.1",
                "matrix": "run the reproducers over every OpenVINO release on the index",
                "bench": "run the benchmarks (run time, export, matrix, dim-order guard, by-path loading",
                "lint": "ruff over the whole tree"}


@pytest.mark.skipif(TOX is None, reason="tox is not on the PATH")
def test_every_tox_env_has_its_own_description_and_no_stray_env_exists():
    """A description starting with 'word:' is read as a factor condition (it once made a 'benchmarks' env)."""
    shown = subprocess.run([TOX, "config", "-k", "description", "-e", ",".join(DESCRIPTIONS)], cwd=REPRO.parent,
                           capture_output=True, text=True, check=True, timeout=120).stdout
    found = dict(re.findall(r"\[testenv:([^\]]+)\]\ndescription = (.*)", shown))
    assert set(found) == set(DESCRIPTIONS)
    for env, start in DESCRIPTIONS.items():
        assert found[env].startswith(start), (env, found[env])
    listed = subprocess.run([TOX, "list", "--no-desc"], cwd=REPRO.parent, capture_output=True, text=True,
                            check=True, timeout=120).stdout.split()
    assert {"repro", "matrix", "bench", "lint", "ov2023.1", "ov2026.4"} <= set(listed)
    assert "benchmarks" not in listed


def test_the_plain_reproducer_prints_no_third_party_warnings():
    result = subprocess.run([sys.executable, str(REPRO / "plain_openvino.py")], capture_output=True, text=True,
                            check=False, timeout=600)
    assert result.returncode in (0, 1, 125), result.stderr[-2000:]
    assert "Warning" not in result.stderr
