"""The OpenVINO cost report on KV caches kept as state: its reproducer, run as a maintainer runs it (OpenVINO and
numpy alone), shows on the installed release that every way of writing one row copies the whole cache, and the
report pastes that run from the matrix's newest row that has one."""

import re

import pytest
from packaging.version import Version

from repro.reports import markdown as report_markdown
from repro.reports import openvino_state_cache_update as report
from tests.support.helpers import ATTACHMENTS, run_cli
from tests.support.outcomes import UPSTREAM_CHANGED
from tests.support.recorded_matrix import RECORDED

REPRODUCER = ATTACHMENTS / "openvino_state_cache_update.py"
FORMS = ["reading only", "frontend: Transpose, ScatterNDUpdate, Transpose", "ScatterUpdate on axis 2",
         "ScatterNDUpdate at [0, head, pos]"]
FORM_LINE = re.compile(r"^(?P<form>[^:]+(?::[^:]+)?): (?P<ms>[\d.]+) ms a step \(median of \d+\)"
                       r"(?:, (?P<ratio>[\d.]+)x reading only)?$")


@pytest.fixture(scope="module")
def installed_run():
    """The reproducer at a 2048-token context, 8 caches (a 4-layer model's): seconds, not the 32 a user runs."""
    result = run_cli("python", REPRODUCER, "--caches", "8", "--repeats", "15")
    return {"exit_code": result.returncode, "output": result.stdout + result.stderr, "stdout": result.stdout}


def test_every_update_form_copies_the_whole_cache_on_the_installed_release(installed_run):
    lines = installed_run["stdout"].splitlines()
    forms = {match["form"]: match for line in lines if (match := FORM_LINE.match(line))}
    assert list(forms) == FORMS, installed_run["output"][-2000:]
    ratios = {form: float(match["ratio"]) for form, match in forms.items() if match["ratio"]}
    assert installed_run["exit_code"] == 1, (
        f"some form now updates the cache in place ({ratios}): {UPSTREAM_CHANGED}; retire "
        "openvino-state-cache-update.md and measure the decode step at 2048 tokens again "
        "(python -m benchmarks.llm_real_width)")
    assert lines[-1].startswith("COST REPRODUCED: every update form costs"), lines[-1]
    assert min(ratios.values()) > 1.5


def test_the_report_pastes_the_reproducer_and_the_newest_run_of_it(installed_run):
    rows = [dict(row) for row in RECORDED["rows"]]
    newest = max(range(len(rows)), key=lambda index: Version(rows[index]["release"]))
    rows[newest][report.FIELD] = installed_run
    text = report.openvino_state_cache_update({**RECORDED, "rows": rows})
    assert text.startswith("# [Performance]: a fixed-size KV cache kept as a state is copied whole")
    assert REPRODUCER.read_text().rstrip() in text
    assert installed_run["stdout"].strip() in text
    assert f"{report.SIGNAL}: **yes** {rows[newest]['release']}" in text
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b",
                         report_markdown.main_text(text), re.IGNORECASE)


def test_the_report_without_a_run_says_none_ran():
    assert report.openvino_state_cache_update(RECORDED).startswith(
        "# openvino_state_cache_update.py did not run on any release")


@pytest.mark.parametrize("arguments", [["--context", "0"], ["--caches", "-1"], ["--repeats", "x"],
                                       ["--frobnicate"]])
def test_the_reproducer_answers_bad_arguments_with_one_line_and_exit_2(arguments):
    result = run_cli("python", REPRODUCER, *arguments)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("openvino_state_cache_update.py: error: ")
