"""Every count README.md and docs/ state is the one its source gives today (``tests/tools/figures.py``): the
catalogue, its stock expectations, the mutations, the conformance record, the registry of differences, the LLM tier
and the last recorded gate runs and checker fuzz."""

import json

import pytest

from tests.tools import figures, mutations


def test_every_figure_in_the_readme_and_docs_is_what_its_source_says():
    stale = figures.stale_figures()
    assert not stale, "\n".join([stale.describe() for stale in stale]
                                 + ["fix: python -m tests.tools.figures --write"])


@pytest.mark.parametrize(("text", "said"), [
    ("<!-- figure catalogue_cases -->1<!-- /figure -->", "figure catalogue_cases says '1', it is "),
    ("<!-- figure no_such_count -->1<!-- /figure -->", "no figure named 'no_such_count'"),
])
def test_a_figure_that_disagrees_with_its_source_is_named(tmp_path, text, said):
    document = tmp_path / "README.md"
    document.write_text(f"The catalogue has {text} cases.\n")
    [stale] = figures.stale_figures([document])
    assert stale.describe().startswith(f"{document}: {said}")


@pytest.mark.parametrize(("cpu_class", "key"), [("avx512_bf16", "ov2026.4"), ("avx2", "ov2026.4@avx2")])
def test_a_recorded_gate_run_is_kept_under_its_hosts_class_beside_the_others(tmp_path, monkeypatch, cpu_class,
                                                                             key):
    """A run on a lower class (fewer tests, other kernels) never replaces the highest class's, nor the reverse."""
    monkeypatch.setattr(figures, "PROJECT", tmp_path)
    monkeypatch.setattr(figures, "GATE_RUNS", tmp_path / "gate-runs.json")
    other = {"ov2026.4": "ov2026.4@avx2", "ov2026.4@avx2": "ov2026.4"}[key]
    figures.GATE_RUNS.write_text(json.dumps({other: {"seconds": 1.0}}))
    summary = tmp_path / "ov2026.4.json"
    counts = {"passed": 5, "failed": 0, "skipped": 2, "xfailed": 3, "xpassed": 0, "error": 0}
    summary.write_text(json.dumps({"env": "ov2026.4", "cpu_class": cpu_class, "seconds": 361.0, **counts}))
    figures.record_gate(summary)
    assert json.loads(figures.GATE_RUNS.read_text()) == {other: {"seconds": 1.0},
                                                         key: {"cpu_class": cpu_class, "seconds": 361.0, **counts}}
    assert figures.current(f"gate.{key}.minutes") == "6 min 1 s"
    assert figures.current(f"gate.{key}.tests") == "10"
    assert figures.current(f"gate.{key}.budget") == "over its 6-minute budget"


def test_the_written_figures_are_the_current_ones(tmp_path):
    document = tmp_path / "notes.md"
    document.write_text("<!-- figure mutations -->0<!-- /figure --> mutations, a to "
                        "<!-- figure mutations_last -->a<!-- /figure -->\n")
    figures.write(figures.stale_figures([document]))
    assert figures.stale_figures([document]) == []
    assert f"-->{figures.current('mutations')}<!--" in document.read_text()


def test_the_recorded_checker_fuzz_found_no_disagreement():
    """README.md says the checker calls no file clean that the runtime refuses, and never fails: the recorded run
    (``python -m benchmarks.checker_fuzz --record``) is what says so."""
    recorded = json.loads(figures.CHECKER_FUZZ.read_text())
    assert recorded["files"] == sum(recorded["counts"].values()) > 0
    assert recorded["disagreements"] == []


def test_every_mutation_has_a_recorded_red_run_of_its_current_definition():
    """docs/ say every mutation turns the gate red: each has a recorded run (``python -m tests.tools.mutations
    --only NAME --record``) of the text it edits today, and a test caught it."""
    not_red = {name: "no recorded run of this definition" if run is None else f"not caught: {run}"
               for name, run in mutations.recorded_runs().items() if run is None or not run["caught_by"]}
    assert not not_red, f"run again with --record: {not_red}"


def test_recording_a_partial_checker_fuzz_is_refused_in_one_line_before_any_work():
    from tests.support.bad_input import assert_one_line
    from tests.support.helpers import run_cli

    before = figures.CHECKER_FUZZ.read_bytes()
    result = run_cli("python", "-m", "benchmarks.checker_fuzz", "--record", "--every", "2", timeout=120)
    assert_one_line(result, 2, "--record keeps a full run: leave out --every")
    assert figures.CHECKER_FUZZ.read_bytes() == before
