"""repro/reports/upstream.py: every report is written, and each reads in five minutes (its main text at
most 600 words, the rest collapsed)."""

import pytest

from repro.reports import markdown as report_markdown
from repro.reports import upstream as upstream_reports
from tests.recorded_matrix import IMPORT_RECORDED, executorch_matrix, import_matrix

MAIN_TEXT_WORDS = 600  # issue 31: a report a maintainer triages in five minutes


@pytest.mark.parametrize("name", upstream_reports.REPORTS)
def test_each_reports_main_text_is_at_most_600_words_the_rest_collapsed(recorded_matrix, name):
    """What a maintainer reads to triage (summary, steps, expected and actual, releases, the cause in a
    paragraph); reproducers, logs, patches and per-release detail sit in <details> blocks."""
    for matrix in (recorded_matrix, executorch_matrix()):
        report = upstream_reports.REPORTS[name](matrix)
        assert report.count("<details>") == report.count("</details>")
        words = report_markdown.words(report_markdown.main_text(report))
        assert words <= MAIN_TEXT_WORDS, (name, words)


def test_write_reports_writes_every_report(tmp_path):
    written = upstream_reports.write_reports(import_matrix(IMPORT_RECORDED), tmp_path / "reports")
    assert sorted(p.name for p in written) == sorted(upstream_reports.REPORTS)
    assert all(p.read_text().startswith("# ") for p in written)
