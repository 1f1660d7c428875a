"""``pip install "<this repo>[partitioner]"`` gives model owners the workaround package, typed, and the checker
command (the plain install without torch: ``test_checker_install.py``)."""

import importlib.util
import json
import os
import sys

import pytest

from tests.support.helpers import PROJECT, package_source, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch


@pytest.fixture(scope="module")
def target(tmp_path_factory):
    """The project pip-installed (--no-deps: the env already has executorch and openvino) into a folder."""
    root = tmp_path_factory.mktemp("packaging")
    source = package_source(root)
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    result = run_cli("python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                     *isolation, "--target", root / "site", source)
    assert result.returncode == 0, result.stderr[-2000:]
    return root / "site"


def run_elsewhere(target, tmp_path, *command):
    return run_cli(*command, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)}, timeout=300)


def test_it_ships_the_workaround_package_typed_and_the_checker_command_only(target):
    shipped = sorted(p.name for p in target.iterdir() if not p.name.endswith(".dist-info"))
    assert shipped == ["bin", "workaround"]
    assert (target / "bin" / "openvino-pte-check").exists()
    assert (target / "workaround" / "py.typed").exists()


def test_the_partitioner_is_an_extra_and_the_plain_install_needs_only_openvino_flatbuffers_and_numpy(target):
    [metadata] = target.glob("*.dist-info/METADATA")
    requires = [line.removeprefix("Requires-Dist: ") for line in metadata.read_text().splitlines()
                if line.startswith("Requires-Dist: ")]
    plain = sorted(r for r in requires if "extra ==" not in r)
    extra = sorted(r.split(";")[0].strip() for r in requires if 'extra == "partitioner"' in r)
    assert plain == ["flatbuffers", "numpy", "openvino"]  # numpy: the checker reads a blob's IR with it
    assert extra == ["executorch<=1.5.1,>=1.4.1", "nncf==3.1.0", "openvino>=2025.1"]


def test_installing_the_extra_keeps_the_executorch_release_already_there(tmp_path):
    """What `pip install "<repo>[partitioner]"` would do in this env, resolved offline against what it has."""
    isolation = [] if importlib.util.find_spec("setuptools") is None else ["--no-build-isolation"]
    if not isolation:
        pytest.skip("no setuptools here to build the package offline with")
    result = run_cli("python", "-m", "pip", "install", "--dry-run", "--no-index", "--quiet", "--report",
                     tmp_path / "report.json", "--disable-pip-version-check", *isolation,
                     f"{package_source(tmp_path)}[partitioner]")
    assert result.returncode == 0, result.stderr[-2000:]
    planned = [item["metadata"]["name"] for item in json.loads((tmp_path / "report.json").read_text())["install"]]
    assert planned == ["openvino-passthrough-gate"], f"would also install or replace: {planned}"


def test_an_executorch_outside_the_range_stops_the_import_with_one_line(tmp_path):
    fake = tmp_path / "executorch-1.3.1.dist-info"  # found before the real one: PYTHONPATH comes first
    fake.mkdir()
    (fake / "METADATA").write_text("Metadata-Version: 2.1\nName: executorch\nVersion: 1.3.1\n")
    result = run_cli(sys.executable, "-c", "from workaround import CopySafeOpenvinoPartitioner", cwd=tmp_path,
                     env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(PROJECT)])}, timeout=300)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "workaround.partitioner.hooks.supported_executorch.UnsupportedExecutorch: the workaround supports "
        "executorch 1.4.1 to 1.5.1 (the releases its gate runs green); this environment has executorch 1.3.1")


def test_the_partitioner_imports_from_anywhere(target, tmp_path):
    result = run_elsewhere(target, tmp_path, sys.executable, "-c",
                           "import workaround; from workaround import CopySafeOpenvinoPartitioner; "
                           "print(workaround.__file__)")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == str(target / "workaround" / "__init__.py")


def test_importing_the_package_does_not_import_torch(target, tmp_path):
    result = run_elsewhere(target, tmp_path, sys.executable, "-c",
                           "import sys, workaround; print('torch' in sys.modules)")
    assert result.stdout.strip() == "False", result.stderr[-2000:]


def test_the_checker_command_reports_a_shipped_program(target, tmp_path, lowered_case):
    pte = lowered_case("upstream_clone_sin")["pte"]
    result = run_elsewhere(target, tmp_path, str(target / "bin" / "openvino-pte-check"), pte)
    assert result.returncode == 1, result.stderr[-2000:]
    assert f"{pte}: 1 OpenVINO delegate(s), AFFECTED" in result.stdout


def test_python_m_check_has_no_runpy_warning(tmp_path, lowered_case):
    result = run_cli("python", "-m", "workaround.check", lowered_case("upstream_clone_sin")["pte"], timeout=300)
    assert result.returncode == 1
    assert "found in sys.modules" not in result.stderr
