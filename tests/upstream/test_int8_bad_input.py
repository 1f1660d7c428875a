"""``python -m repro.harness.models.int8`` given bad input, run as users run it: one line and exit 2, the job not
run (it used to ignore its arguments and run)."""

from tests.support.bad_input import assert_one_line
from tests.support.helpers import run_cli


def test_an_unknown_flag_is_one_line_and_the_job_does_not_run():
    result = run_cli("python", "-m", "repro.harness.models.int8", "--frobnicate", timeout=300)
    assert_one_line(result, 2, "python -m repro.harness.models.int8: error: unrecognized arguments: --frobnicate")
    assert result.stdout == ""
