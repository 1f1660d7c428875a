"""``pip install "<this repo>[partitioner]"`` gives model owners the workaround package, typed, and the checker
command (the plain install without torch: ``test_checker_install.py``)."""

import importlib.util
import os
import sys

import pytest

from tests.helpers import package_source, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The project pip-installed (--no-deps: the env already has executorch and openvino) into a folder."""
    root = tmp_path_factory.mktemp("packaging")
    source = package_source(root)
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    result = run_cli("python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                     *isolation, "--target", root / "site", source)
    assert result.returncode == 0, result.stderr[-2000:]
    return root / "site"


def run_elsewhere(installed, tmp_path, *command):
    return run_cli(*command, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(installed)}, timeout=300)


def test_it_ships_the_workaround_package_typed_and_the_checker_command_only(installed):
    shipped = sorted(p.name for p in installed.iterdir() if not p.name.endswith(".dist-info"))
    assert shipped == ["bin", "workaround"]
    assert (installed / "bin" / "openvino-pte-check").exists()
    assert (installed / "workaround" / "py.typed").exists()


def test_the_partitioner_is_an_extra_and_the_plain_install_needs_only_openvino_and_flatbuffers(installed):
    [metadata] = installed.glob("*.dist-info/METADATA")
    requires = [line.removeprefix("Requires-Dist: ") for line in metadata.read_text().splitlines()
                if line.startswith("Requires-Dist: ")]
    plain = sorted(r for r in requires if "extra ==" not in r)
    extra = sorted(r.split(";")[0].strip() for r in requires if 'extra == "partitioner"' in r)
    assert plain == ["flatbuffers", "openvino"]
    assert extra == ["executorch==1.5.1", "nncf==3.1.0", "openvino>=2025.1"]


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
    result = run_cli("python", "-m", "workaround.check", lowered_case("upstream_clone_sin")["pte"], timeout=300)
    assert result.returncode == 1
    assert "found in sys.modules" not in result.stderr
