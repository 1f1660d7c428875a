"""The plain reproducers given bad input, run as users run them: one line and exit 2 (the C and C++ scripts used
to run another API than theirs when --api named it)."""

import pytest

from tests.support.helpers import REPRO, run_cli


@pytest.mark.parametrize(("script", "arguments", "says"), [
    ("plain_openvino_c.py", ["--api=python"], "--api python: this script drives the c API only"),
    ("plain_openvino_cpp.py", ["--api=c"], "--api c: this script drives the cpp API only"),
    ("plain_openvino.py", ["--api=java"], "argument --api: invalid choice: 'java'"),
    ("plain_openvino.py", ["--frobnicate"], "unrecognized arguments: --frobnicate"),
], ids=["c_asked_for_python", "cpp_asked_for_c", "unknown_api", "unknown_flag"])
def test_bad_input_is_an_error_not_a_run(script, arguments, says):
    result = run_cli("python", REPRO / script, *arguments, timeout=120)
    assert result.returncode == 2, result.stdout[-2000:]
    assert result.stdout == ""
    assert says in result.stderr.strip().splitlines()[-1]
    assert "Traceback" not in result.stderr
