"""``pip install <this repo>`` gives model owners the workaround package and the checker command."""

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
PROJECT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project pip-installed (--no-deps: the env already has executorch and openvino) into a folder."""
    root = tmp_path_factory.mktemp("packaging")
    source = root / "source"  # a copy, so that the build leaves nothing in the checkout
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PROJECT / name, source / name)
    shutil.copytree(PROJECT / "workaround", source / "workaround", ignore=shutil.ignore_patterns("__pycache__"))
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    *isolation, "--target", str(root / "site"), str(source)], check=True, timeout=600)
    return root / "site"


def run_elsewhere(installed, tmp_path, *command):
    return subprocess.run(command, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)},
                          capture_output=True, text=True, check=False, timeout=300)


def test_it_ships_the_workaround_package_and_the_checker_command_only(installed):
    shipped = sorted(p.name for p in installed.iterdir() if not p.name.endswith(".dist-info"))
    assert shipped == ["bin", "workaround"]
    assert (installed / "bin" / "openvino-pte-check").exists()


def test_the_partitioner_imports_from_anywhere(installed, tmp_path):
    result = run_elsewhere(installed, tmp_path, sys.executable, "-c",
                           "import workaround; from workaround import CopySafeOpenvinoPartitioner; "
                           "print(workaround.__file__)")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == str(installed / "workaround" / "__init__.py")


def test_importing_the_package_does_not_import_torch(installed, tmp_path):
    result = run_elsewhere(installed, tmp_path, sys.executable, "-c",
                           "import sys, workaround; print('torch' in sys.modules)")
    assert result.stdout.strip() == "False", result.stderr[-2000:]


def test_the_checker_command_reports_a_shipped_program(installed, tmp_path, lowered_case):
    pte = lowered_case("upstream_clone_sin")["pte"]
    result = run_elsewhere(installed, tmp_path, str(installed / "bin" / "openvino-pte-check"), pte)
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{pte}: 1 OpenVINO delegate(s), AFFECTED" in result.stdout


def test_python_m_check_has_no_runpy_warning(tmp_path, lowered_case):
    result = subprocess.run([sys.executable, "-m", "workaround.check", lowered_case("upstream_clone_sin")["pte"]],
                            cwd=PROJECT, capture_output=True, text=True, check=False, timeout=300)
    assert result.returncode == 1
    assert "found in sys.modules" not in result.stderr


def test_the_checker_runs_without_torch_or_executorch(lowered_case):
    """A check of a shipped .pte reads its flatbuffer with the flatbuffers package and asks OpenVINO."""
    child = ("import sys\n"
             "sys.modules['torch'] = sys.modules['executorch'] = None  # any import of them fails\n"
             "from workaround.check import main\n"
             f"sys.exit(main([{lowered_case('upstream_clone_sin')['pte']!r}]))\n")
    result = subprocess.run([sys.executable, "-c", child], cwd=PROJECT, capture_output=True, text=True,
                            check=False, timeout=300)
    assert result.returncode == 1, result.stderr[-2000:]
    assert "1 OpenVINO delegate(s), AFFECTED: 1 pass through output(s)" in result.stdout
