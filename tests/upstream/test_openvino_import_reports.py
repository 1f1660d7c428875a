"""The two OpenVINO reports about importing a compiled blob: openvino-import-lifetime.md (the import keeps
pointers into the caller's buffer) and openvino-import-precision.md (the precision is not kept)."""

import re

from repro.reports import markdown as report_markdown
from repro.reports import openvino_import_lifetime
from tests.support.helpers import table_line
from tests.support.recorded_matrix import IMPORT_RECORDED, import_matrix


def test_import_report_names_the_first_bad_release_and_the_good_one_before_it():
    report = openvino_import_lifetime.openvino_import_lifetime(import_matrix(IMPORT_RECORDED))
    assert "First bad release: 2026.4.0; the release before it that was run, 2026.3.1, is fine." in report
    assert "Not run in between" not in report
    assert "`openvino_import_lifetime.c`" in report
    assert "include/openvino/c/ov_core.h" in report


def test_import_report_says_which_releases_between_were_not_run():
    report = openvino_import_lifetime.openvino_import_lifetime(import_matrix(["2025.2.0", "2026.4.1"]))
    assert "First bad release: 2026.4.1; the release before it that was run, 2025.2.0, is fine." in report
    assert "Not run in between: 2025.3.0, 2025.4.0, 2025.4.1, 2026.0.0" in report
    assert "2026.3.1, 2026.4.0." in report


def test_first_bad_release_when_the_oldest_run_is_already_bad():
    sentence = report_markdown.first_bad_release({"2026.4.0": True, "2026.4.1": True})
    assert sentence == "Seen in every release run from 2026.4.0 (the oldest run) on; older releases were not run."


def test_import_report_follows_the_bug_template_and_embeds_its_programs():
    report = openvino_import_lifetime.openvino_import_lifetime(import_matrix(IMPORT_RECORDED))
    assert report.startswith("# [Bug]: [C API] ")
    headings = [line for line in report.splitlines() if line.startswith("## ")]
    assert headings == ["## Summary", "## Environment", "## Step-by-step reproduction", "## Relevant log output",
                        "## Releases", "## Cause", "## Proposed fix", "## Impact",
                        "## Related threads (searched 2026-12-02)", "## Issue submission checklist"]
    for program in (openvino_import_lifetime.IMPORT_REPRODUCER, openvino_import_lifetime.OVERLOADS_PROGRAM):
        assert program.read_text().rstrip() in report
    assert len(openvino_import_lifetime.IMPORT_REPRODUCER.read_text().splitlines()) <= 40
    assert "PR #31327" in report
    assert "Proposal" in report


def test_import_report_shows_the_overload_each_release_calls_and_how_each_overload_behaves(recorded_matrix):
    report = openvino_import_lifetime.openvino_import_lifetime(recorded_matrix)
    assert "| copies | `std::istream&` |" in table_line(report, "2026.3.1")
    assert "| **reads the caller's buffer** | `ov::Tensor const&` |" in table_line(report, "2026.4.0")
    assert "reads the caller's memory after returning |" in table_line(report, "2025.4.1"), "already did"
    assert "not declared in this release |" in table_line(report, "2024.3.0")
    assert table_line(report, "2024.2.0") is None, "releases without C headers share one line below the table"
    assert re.search(r"Not measurable \(\d+ releases: 2023\.0\.0, .*2024\.2\.0\): the wheel ships no C headers",
                     report)


def test_import_precision_report_is_built_from_the_rows_and_answers_the_by_design_question(recorded_matrix):
    """openvino-import-precision.md from the 27 recorded releases: the attachment pasted, its output on the
    newest, the release line, and the by-design paragraph naming what each API takes."""
    from repro.reports import openvino_import_precision as report

    text = report.openvino_import_precision(recorded_matrix)
    assert text.startswith("# [Bug]: an exported compiled model does not keep its INFERENCE_PRECISION_HINT")
    assert report.REPRODUCER.read_text().rstrip() in text
    newest = next(row for row in recorded_matrix["rows"] if row["release"] == "2026.4.1")
    assert newest["import_precision"]["stdout"].strip() in text
    assert "import drops the precision: **yes** 2023.0.0 to 2026.4.1" in text
    assert "`ov_core_import_model(core, content, size, device, &compiled)` has no such argument" in text
    assert "## Related threads (searched 2026-12-02)" in text
