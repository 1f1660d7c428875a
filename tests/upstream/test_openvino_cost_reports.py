"""The OpenVINO cost reports: each reproducer, run as a maintainer runs it (OpenVINO and numpy alone), shows its
cost on the installed release, and each report pastes that run from the matrix's newest row that has one.

- ``openvino-state-cache-update.md``: every way of writing one row of a KV cache kept as state copies the whole
  cache;
- ``openvino-compressed-matmul.md``: a 4-bit compressed matmul takes more than half the 8-bit time."""

import re
import time
from types import ModuleType

import pytest
from packaging.version import Version

from repro.reports import markdown as report_markdown
from repro.reports import openvino_compressed_matmul, openvino_state_cache_update
from tests.support.helpers import run_cli
from tests.support.outcomes import UPSTREAM_CHANGED
from tests.support.recorded_matrix import RECORDED

# {report: (its builder, the reproducer's arguments here, the report's first words)}
REPORTS = {
    # a 2048-token context, 8 caches (a 4-layer model's): seconds, not the 32 a user runs
    openvino_state_cache_update: (openvino_state_cache_update.openvino_state_cache_update,
                                  ("--caches", "8", "--repeats", "15"),
                                  "# [Performance]: a fixed-size KV cache kept as a state is copied whole"),
    # as a user runs it (a quarter of the output layer), with fewer repeats
    openvino_compressed_matmul: (
        openvino_compressed_matmul.openvino_compressed_matmul, ("--repeats", "15"),
        "# [Performance]: a 4-bit weight-compressed MatMul reads its weights more slowly"),
}
BAD_ARGUMENTS = {openvino_state_cache_update: (["--context", "0"], ["--caches", "-1"], ["--repeats", "x"],
                                               ["--frobnicate"]),
                 openvino_compressed_matmul: (["--rows", "0"], ["--columns", "100"], ["--repeats", "x"],
                                              ["--frobnicate"])}
CACHE_FORMS = ["reading only", "frontend: Transpose, ScatterNDUpdate, Transpose", "ScatterUpdate on axis 2",
               "ScatterNDUpdate at [0, head, pos]"]
CACHE_FORM_LINE = re.compile(r"^(?P<form>[^:]+(?::[^:]+)?): (?P<ms>[\d.]+) ms a step \(median of \d+\)"
                             r"(?:, (?P<ratio>[\d.]+)x reading only)?$")
MATMUL_FORMS = ["8 bits (u8, per channel)", "4 bits (i4, group 128)", "4 bits (u4 + zero point, group 128)"]
MATMUL_FORM_LINE = re.compile(r"^(?P<form>[^,]+(?:, [^,]+)?), (?P<activations>f32|default) activations[^:]*: "
                              r"(?P<ms>[\d.]+) ms, (?P<rate>[\d.]+) GB/s of weights, "
                              r"(?P<ratio>[\d.]+)x the 8-bit f32 time")


def report_name(report: ModuleType) -> str:
    return report.__name__.rsplit(".", 1)[1]


@pytest.fixture(scope="module")
def installed_runs():
    """Each reproducer's run on the installed release, made once, when a test first asks for it."""
    made = {}

    def run(report, again=False):
        if again or report not in made:
            result = run_cli("python", report.REPRODUCER, *REPORTS[report][1], timeout=600)
            made[report] = {"exit_code": result.returncode, "output": result.stdout + result.stderr,
                            "stdout": result.stdout}
        return made[report]
    return run


# Timings beside the other xdist worker's tests: sharing the memory bus took the i4 ratio from 0.70 (idle) to 0.58,
# and the cache update's from 2.1 to 1.03 (measured in CI, 2026-12-07), under their verdicts' 0.60 and 1.5. A cost
# counts as gone only when none of ATTEMPTS runs, PAUSE seconds apart, shows it.
ATTEMPTS, PAUSE = 4, 5


def reproduced_run(installed_runs, report):
    """The installed release's run of ``report``'s reproducer, run again (up to ATTEMPTS in all) while it does not
    show the cost."""
    run = installed_runs(report)
    for _ in range(ATTEMPTS - 1):
        if run["exit_code"] == 1:
            break
        time.sleep(PAUSE)
        run = installed_runs(report, again=True)
    return run


def test_every_update_form_copies_the_whole_cache_on_the_installed_release(installed_runs):
    run = reproduced_run(installed_runs, openvino_state_cache_update)
    lines = run["stdout"].splitlines()
    forms = {match["form"]: match for line in lines if (match := CACHE_FORM_LINE.match(line))}
    assert list(forms) == CACHE_FORMS, run["output"][-2000:]
    ratios = {form: float(match["ratio"]) for form, match in forms.items() if match["ratio"]}
    assert run["exit_code"] == 1, (
        f"some form now updates the cache in place in {ATTEMPTS} runs (the last: {ratios}): {UPSTREAM_CHANGED}; "
        "retire openvino-state-cache-update.md and measure the decode step at 2048 tokens again "
        "(python -m benchmarks.llm_real_width)")
    assert lines[-1].startswith("COST REPRODUCED: every update form costs"), lines[-1]
    assert min(ratios.values()) > 1.5


def test_a_4_bit_matmul_takes_more_than_half_the_8_bit_time_on_the_installed_release(installed_runs):
    run = reproduced_run(installed_runs, openvino_compressed_matmul)
    lines = run["stdout"].splitlines()
    forms = [(match["form"], match["activations"], float(match["ratio"]))
             for line in lines if (match := MATMUL_FORM_LINE.match(line))]
    expected = [(form, activations) for form in MATMUL_FORMS for activations in ("f32", "default")]
    assert [(form, activations) for form, activations, _ in forms] == expected, run["output"][-2000:]
    four_bit = {form: ratio for form, activations, ratio in forms
                if activations == "f32" and form != MATMUL_FORMS[0]}
    assert run["exit_code"] == 1, (
        f"a 4-bit form now reads its weights as fast as 8 bits in {ATTEMPTS} runs (the last: {four_bit}): "
        f"{UPSTREAM_CHANGED}; retire "
        "openvino-compressed-matmul.md and measure the 4-bit decode again (python -m benchmarks.llm_real_width)")
    assert lines[-1].startswith("COST REPRODUCED: with f32 activations the faster 4-bit form takes"), lines[-1]
    assert min(four_bit.values()) > 0.60


@pytest.mark.parametrize("report", REPORTS, ids=report_name)
def test_the_report_pastes_the_reproducer_and_the_newest_run_of_it(installed_runs, report):
    render, _, title = REPORTS[report]
    run = installed_runs(report)
    rows = [dict(row) for row in RECORDED["rows"]]
    newest = max(range(len(rows)), key=lambda index: Version(rows[index]["release"]))
    rows[newest][report.FIELD] = run
    text = render({**RECORDED, "rows": rows})
    assert text.startswith(title)
    assert report.REPRODUCER.read_text().rstrip() in text
    assert run["stdout"].strip() in text
    # the run's own verdict (a timing: the cost tests above hold it present, over several runs where needed)
    verdict = {1: "**yes**", 0: "no"}[run["exit_code"]]
    assert f"{report.SIGNAL}: {verdict} {rows[newest]['release']}" in text
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b",
                         report_markdown.main_text(text), re.IGNORECASE)


@pytest.mark.parametrize("report", REPORTS, ids=report_name)
def test_the_report_without_a_run_says_none_ran(report):
    render = REPORTS[report][0]
    assert render(RECORDED).startswith(f"# {report.REPRODUCER.name} did not run on any release")


@pytest.mark.parametrize(("report", "arguments"), [
    pytest.param(report, arguments, id=f"{report_name(report)}-{' '.join(arguments)}")
    for report, given in BAD_ARGUMENTS.items() for arguments in given])
def test_the_reproducer_answers_bad_arguments_with_one_line_and_exit_2(report, arguments):
    result = run_cli("python", report.REPRODUCER, *arguments)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith(f"{report.REPRODUCER.name}: error: ")
