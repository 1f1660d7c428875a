"""repro/attachments/openvino_import_lifetime.c, the plain OpenVINO reproducer of the blob-lifetime change,
built and run as its report prints it against the installed wheel and held to the release table (no
ExecuTorch needed: it runs in every tox env)."""

import shutil
import sys

import pytest

from repro import attachment_commands as commands
from tests.support.outcomes import UPSTREAM_CHANGED
from tests.support.release_behaviour import (
    C_API_IN_WHEEL_FROM,
    IMPORT_KEEPS_CALLER_BUFFER_FROM,
    installed_openvino,
)

PROGRAM = "openvino_import_lifetime.c"


@pytest.fixture(scope="module")
def run():
    if not shutil.which("cc"):
        pytest.skip("no C compiler (cc) to build the C program with")
    return commands.run(commands.c_build(PROGRAM), sys.executable, [PROGRAM])


def test_c_program_matches_the_release_table(run):
    release = installed_openvino()
    if release < C_API_IN_WHEEL_FROM:
        assert run["exit_code"] not in (0, 1), "a wheel without C headers built the C program: update the table"
        assert "openvino/c/openvino.h" in run["output"]
        return
    expected = 1 if release >= IMPORT_KEEPS_CALLER_BUFFER_FROM else 0
    assert run["exit_code"] == expected, f"OpenVINO {release}: {run['output']}. " + (
        UPSTREAM_CHANGED if expected == 1 else "")


def test_c_program_prints_y_and_ends_with_its_verdict(run):
    if installed_openvino() < C_API_IN_WHEEL_FROM:
        pytest.skip(f"OpenVINO {installed_openvino()} ships no C headers")
    first, last = run["output"].splitlines()[0], run["output"].splitlines()[-1]
    assert first.startswith(f"OpenVINO {installed_openvino()}")
    assert ": y[0] = " in first
    assert last in ("BUG REPRODUCED", "OK: the import copied its content")
