"""Every count README.md and docs/ state is the one its source gives today (``tests/figures.py``): the catalogue,
its stock expectations, the mutations, the conformance record, the registry of differences, the LLM tier and the
last recorded gate runs."""

import pytest

from tests import figures


def test_every_figure_in_the_readme_and_docs_is_what_its_source_says():
    stale = figures.stale_figures()
    assert not stale, "\n".join([stale.describe() for stale in stale] + ["fix: python -m tests.figures --write"])


@pytest.mark.parametrize(("text", "said"), [
    ("<!-- figure catalogue_cases -->1<!-- /figure -->", "figure catalogue_cases says '1', it is "),
    ("<!-- figure no_such_count -->1<!-- /figure -->", "no figure named 'no_such_count'"),
])
def test_a_figure_that_disagrees_with_its_source_is_named(tmp_path, text, said):
    document = tmp_path / "README.md"
    document.write_text(f"The catalogue has {text} cases.\n")
    [stale] = figures.stale_figures([document])
    assert stale.describe().startswith(f"{document}: {said}")


def test_the_written_figures_are_the_current_ones(tmp_path):
    document = tmp_path / "notes.md"
    document.write_text("<!-- figure mutations -->0<!-- /figure --> mutations, a to "
                        "<!-- figure mutations_last -->a<!-- /figure -->\n")
    figures.write(figures.stale_figures([document]))
    assert figures.stale_figures([document]) == []
    assert f"-->{figures.current('mutations')}<!--" in document.read_text()
