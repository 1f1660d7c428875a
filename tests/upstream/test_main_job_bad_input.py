"""repro/main_job.py given bad input, run as users run it: one line and exit 2 before any reproducer runs (an
unknown --case used to run the plain reproducer and build the C one, 17 s, before exiting 125)."""

import time

import pytest

from tests.support.bad_input import assert_one_line
from tests.support.helpers import REPRO, run_cli


@pytest.mark.parametrize(("arguments", "says"), [
    (["--case", "upstream_clone_sin", "--case", "nosuch"], "--case: no such case: nosuch"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
], ids=["unknown_case", "unknown_flag"])
def test_bad_input_is_one_line_and_exit_2_before_any_reproducer_runs(arguments, says):
    started = time.monotonic()
    result = run_cli("python", REPRO / "main_job.py", *arguments, timeout=300)
    assert assert_one_line(result, 2, says).startswith("main_job.py: error: ")
    assert result.stdout == "", "no reproducer ran"
    assert time.monotonic() - started < 15, "refused before any reproducer (the catalogue's import included)"
