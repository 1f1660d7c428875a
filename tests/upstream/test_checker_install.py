"""``pip install <this repo>`` gives a model owner the checker and nothing heavy: into a fresh virtual
environment it brings openvino and flatbuffers, no torch and no executorch, and ``openvino-pte-check``
reports the committed stock program there, beside ``openvino-pte-restamp``. (The same OpenVINO and numpy as
this env are asked for, so the wheels come from pip's cache and the blob opens where it opens here.)"""

import sys
from importlib.metadata import version

import pytest

from tests.support.helpers import PROJECT, package_source, run_cli

SHIPPED = PROJECT / "tests" / "data" / "stock_upstream_clone_sin.pte"


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("checker-install")
    source = package_source(root)
    made = run_cli(sys.executable, "-m", "venv", root / "venv", timeout=300)
    assert made.returncode == 0, made.stderr
    python = root / "venv" / "bin" / "python"
    installed = run_cli(python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", source,
                        f"openvino=={version('openvino')}", f"numpy=={version('numpy')}", timeout=900)
    assert installed.returncode == 0, installed.stdout[-2000:] + installed.stderr[-2000:]
    return root / "venv"


def test_the_plain_install_brings_no_torch_and_no_executorch(venv):
    listed = run_cli(venv / "bin" / "python", "-m", "pip", "list", "--format=freeze", timeout=300).stdout
    names = {line.split("==")[0].lower() for line in listed.splitlines()}
    assert {"openvino", "flatbuffers", "openvino-passthrough-gate"} <= names
    assert not names & {"torch", "executorch", "nncf"}, names


def test_the_checker_command_reports_the_shipped_program(venv, tmp_path):
    result = run_cli(venv / "bin" / "openvino-pte-check", SHIPPED, cwd=tmp_path, timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert result.stdout.splitlines()[-1].startswith(f"{SHIPPED}: 1 OpenVINO delegate(s), AFFECTED: ")
    assert "1 pass through output(s)" in result.stdout
    # its blob in a segment was asked about by the installed checker's child: the model holds no constant
    assert "0 delegate blob in segment(s)" in result.stdout
    assert ("OpenVINO delegate 0 is stored in a segment ExecuTorch's backend frees after import, and its "
            "compiled model keeps nothing of it") in result.stdout


def test_the_restamp_command_is_installed_beside_the_checker_and_its_output_passes_it(venv, tmp_path):
    """Restamped for this host from the AVX2 host's program, the checker finds nothing about its stamp there."""
    foreign = PROJECT / "tests" / "data" / "avx2-host" / "upstream_clone_sin.workaround.pte"
    output = tmp_path / "here.pte"
    result = run_cli(venv / "bin" / "openvino-pte-restamp", foreign, "-o", output, cwd=tmp_path, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert result.stdout.splitlines()[-1] == f"wrote {output}: it loads on this host (imported here)"
    checked = run_cli(venv / "bin" / "openvino-pte-check", output, cwd=tmp_path, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr[-2000:]
