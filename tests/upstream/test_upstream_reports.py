"""repro/reports/upstream.py and markdown.py: every report is written, each reads in five minutes (its main text
at most 600 words, the rest collapsed), and a template renders as its builder and its fields say."""

import pytest

from repro.reports import markdown as md
from repro.reports import upstream as upstream_reports
from tests.support.recorded_matrix import IMPORT_RECORDED, executorch_matrix, import_matrix

MAIN_TEXT_WORDS = 600  # issue 31: a report a maintainer triages in five minutes


@pytest.mark.parametrize("name", upstream_reports.REPORTS)
def test_each_reports_main_text_is_at_most_600_words_the_rest_collapsed(recorded_matrix, name):
    """What a maintainer reads to triage (summary, steps, expected and actual, releases, the cause in a
    paragraph); reproducers, logs, patches and per-release detail sit in <details> blocks."""
    for matrix in (recorded_matrix, executorch_matrix()):
        report = upstream_reports.REPORTS[name](matrix)
        assert report.count("<details>") == report.count("</details>")
        words = md.words(md.main_text(report))
        assert words <= MAIN_TEXT_WORDS, (name, words)


def test_write_reports_writes_every_report(tmp_path):
    written = upstream_reports.write_reports(import_matrix(IMPORT_RECORDED), tmp_path / "reports")
    assert sorted(p.name for p in written) == sorted(upstream_reports.REPORTS)
    assert all(p.read_text().startswith("# ") for p in written)


@pytest.fixture
def template_folder(tmp_path, monkeypatch):
    (tmp_path / "sample.md").write_text("# A $kind report\n\n## Found\n\n$finding\n\n## Empty\n\n$nothing\n")
    monkeypatch.setattr(md, "TEMPLATES", tmp_path)
    return tmp_path


def test_a_template_renders_its_sections_and_leaves_an_empty_one_out(template_folder):
    assert md.render("sample", kind="short", finding="it costs $5", nothing=" ") == \
        "# A short report\n\n## Found\n\nit costs $5\n"


@pytest.mark.parametrize(("fields", "error"), [
    ({"kind": "x", "finding": "y", "nothing": "", "unused": "z"}, "sample.md has no field unused"),
    ({"kind": "x", "finding": "y"}, "'nothing'")])
def test_a_field_the_template_does_not_use_or_lacks_is_an_error(template_folder, fields, error):
    with pytest.raises((ValueError, KeyError), match=error):
        md.render("sample", **fields)
