"""repro/matrix.py: planning, failure rows and rendering on recorded results (fast, no installs),
and one real run over two releases that behave differently (marked ``matrix``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repro import matrix, matrix_report
from tests.release_behaviour import TOP_LEVEL_OPSETS_FROM, installed_openvino

DATA = Path(__file__).parent / "data"
RECORDED = ["2023.0.0", "2023.1.0", "2024.0.0", "2025.2.0", "2026.4.1"]
INPUT_OVERWRITTEN = matrix_report.label(("python", "inputs_first", "input_overwritten"))
STALE = matrix_report.label(("python", "inputs_first", "stale_output"))
C_STALE = matrix_report.label(("c", "inputs_first", "stale_output"))


def recorded_row(release):
    return {"requested": release, "release": release, "status": "bug", "detail": "", "seconds": 1.0,
            "plain": json.loads((DATA / f"plain-{release}.json").read_text()), "executorch": None}


def failure_row(status, detail, release="2024.5.0"):
    return {"requested": release, "release": release, "status": status, "detail": detail, "seconds": 0.1,
            "plain": None, "executorch": None}


@pytest.fixture
def recorded_matrix():
    unknown = failure_row("not_on_index", "9999.1 is not a release on the package index", release=None)
    rows = [recorded_row(r) for r in reversed(RECORDED)] + [
        failure_row("install_failed", "pip install failed: No matching distribution"),
        failure_row("crashed", "plain_openvino.py was killed by SIGSEGV", "2024.6.0"),
        {**unknown, "requested": "9999.1"},
    ]
    return {"index_note": "recorded", "rows": rows, "summary": matrix_report.summarize(rows)}


@pytest.mark.parametrize(("text", "expected"), [
    ("2024.0.0", ["2024.0.0"]), ("2024.0.0, 2026.4", ["2024.0.0", "2026.4"]), ("9999.1", ["9999.1"])])
def test_versions_argument_accepts_releases_and_series(text, expected):
    assert matrix.release_list(text) == expected


@pytest.mark.parametrize("text", ["latest", "2024", "24.0.0", "2024.0.0rc1", ","])
def test_malformed_versions_are_a_usage_error(text):
    result = subprocess.run([sys.executable, matrix.__file__, "--versions", text], capture_output=True, text=True,
                            check=False, timeout=60)
    assert result.returncode == 2
    assert "not a release like 2024.0.0" in result.stderr


@pytest.mark.parametrize(("requested", "resolved"), [
    ("2025.4.1", "2025.4.1"), ("2025.4", "2025.4.1"), ("2026.2", "2026.2.1"),
    ("9999.1", None), ("2025.4.7", None)])
def test_series_resolve_to_their_newest_patch_and_unknown_ones_to_nothing(requested, resolved):
    assert matrix.resolve(requested, matrix.BUILTIN_RELEASES) == resolved


def test_unknown_release_becomes_a_not_on_the_index_row(tmp_path):
    row = matrix.matrix_row("9999.1", None, cache=tmp_path, with_executorch=False, timeout=10,
                            progress=lambda *_: None)
    assert row["status"] == "not_on_index"
    assert "9999.1 is not a release on the package index" in row["detail"]


def test_without_an_index_the_builtin_list_is_used_and_said(monkeypatch):
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    releases, note = matrix.discover_releases()
    assert releases == matrix.BUILTIN_RELEASES
    assert note.startswith("The package index could not be asked")


@pytest.mark.parametrize(("body", "status", "detail"), [
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "crashed", "killed by SIGSEGV"),
    ("import time; time.sleep(30)", "timeout", "ran longer than 2 s"),
    ("import json; print(json.dumps({'verdict': 'COULD NOT TEST: no CPU'})); raise SystemExit(125)",
     "untestable", "COULD NOT TEST: no CPU"),
    ("print('not json'); raise SystemExit(3)", "error", "exited 3 without JSON"),
], ids=["crash", "timeout", "untestable", "no_json"])
def test_a_failing_release_becomes_a_row_with_its_status(tmp_path, body, status, detail):
    script = tmp_path / "reproducer.py"
    script.write_text(body)
    got_status, got_detail, _ = matrix.run_script(sys.executable, script, timeout=2)
    assert got_status == status
    assert detail in got_detail


def test_summary_names_first_and_last_release_per_symptom(recorded_matrix):
    summary = recorded_matrix["summary"]
    assert summary["first_last"][STALE] == ["2023.0.0", "2026.4.1"]
    assert summary["first_last"][INPUT_OVERWRITTEN] == ["2025.2.0", "2026.4.1"]
    assert summary["first_last"][C_STALE] == ["2025.2.0", "2026.4.1"]
    assert summary["control_order_also_wrong"] == ["2023.0.0", "2023.1.0"]
    assert summary["statuses"] == {"bug": 5, "install_failed": 1, "crashed": 1, "not_on_index": 1}


def test_markdown_has_one_row_per_release_in_release_order_with_failures_as_rows(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    assert len(table) == 2 + len(recorded_matrix["rows"])
    assert len(table[0].split("|")) == len(table[2].split("|")) == 2 + 2 + len(matrix_report.COLUMNS) + 1
    releases = [line.split("|")[1].strip() for line in table[2:]]
    assert releases == ["9999.1", *RECORDED[:3], "2024.5.0", "2024.6.0", *RECORDED[3:]]
    assert "| 2024.5.0 | could not install |" in table[6]
    assert "killed by SIGSEGV" in table[7]


def test_report_reads_on_its_own(recorded_matrix):
    report = matrix_report.render_report(recorded_matrix)
    for heading in ("# [CPU]", "## Summary", "## Environment", "## Reproducer", "## Releases",
                    "## What we observed about the cause", "## Impact"):
        assert heading in report
    assert "Observed on 2026.4.1" in report
    assert "in 2023.0.0, 2023.1.0 the outputs-first order is wrong too" in report
    assert "Reproduced in 5 of the 5 releases we ran" in report
    assert "9999.1" not in report, "rows that measured nothing stay out of the upstream report"


def test_reproducer_in_the_report_reproduces_on_the_installed_release():
    if installed_openvino() < TOP_LEVEL_OPSETS_FROM:
        pytest.skip(f"the report's snippet imports openvino.opset8, which exists from {TOP_LEVEL_OPSETS_FROM}")
    result = subprocess.run([sys.executable, "-c", matrix_report.MINIMAL_REPRODUCER], capture_output=True,
                            text=True, check=True, timeout=120)
    verdicts = [line.split(":", 1)[1].split()[0] for line in result.stdout.splitlines()]
    assert verdicts == ["False", "False", "False"], result.stdout


@pytest.mark.matrix
def test_real_matrix_tells_2024_0_from_2026_4_and_reuses_environments(tmp_path):
    command = [sys.executable, matrix.__file__, "--versions", "2024.0.0,2026.4", "--out", str(tmp_path / "out"),
               "--cache", str(tmp_path / "envs"), "--report", str(tmp_path / "report.md")]
    first = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    assert first.returncode == 0, first.stderr[-3000:]
    rows = {row["release"]: row for row in json.loads((tmp_path / "out" / "matrix.json").read_text())["rows"]}
    overwritten = ("python", "inputs_first", "input_overwritten")
    assert matrix_report.symptom_cells(rows["2024.0.0"]["plain"])[overwritten] is False
    assert matrix_report.symptom_cells(rows["2026.4.1"]["plain"])[overwritten] is True
    assert "| 2026.4.1 | bug reproduced |" in (tmp_path / "out" / "matrix.md").read_text()
    second = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    assert second.stderr.count("(environment: cached)") == 2, second.stderr
