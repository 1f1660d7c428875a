"""repro/matrix.py: planning, failure rows and rendering on recorded results (fast, no installs),
and one real run over two releases that behave differently (marked ``matrix``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from repro import matrix, matrix_report, report_markdown, upstream_reports
from tests.release_behaviour import TOP_LEVEL_OPSETS_FROM, installed_openvino

DATA = Path(__file__).parent / "data"
RECORDED = ["2023.0.0", "2023.1.0", "2024.0.0", "2025.2.0", "2026.4.1"]
INPUT_OVERWRITTEN = matrix_report.label(("python", "inputs_first", "input_overwritten"))
STALE = matrix_report.label(("python", "inputs_first", "stale_output"))
C_STALE = matrix_report.label(("c", "inputs_first", "stale_output"))


def recorded(kind, release):
    path = DATA / f"{kind}-{release}.json"
    return json.loads(path.read_text()) if path.exists() else None


def recorded_row(release):
    return {"requested": release, "release": release, "status": "bug", "detail": "", "seconds": 1.0,
            "plain": recorded("plain", release), "import_lifetime": recorded("import", release),
            "executorch": None}


def failure_row(status, detail, release="2024.5.0"):
    return {"requested": release, "release": release, "status": status, "detail": detail, "seconds": 0.1,
            "plain": None, "import_lifetime": None, "executorch": None}


@pytest.fixture
def recorded_matrix():
    rows = [recorded_row(r) for r in reversed(RECORDED)] + [
        failure_row("install_failed", "pip install failed: No matching distribution"),
        failure_row("crashed", "plain_openvino.py was killed by SIGSEGV", "2024.6.0"),
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
    assert summary["statuses"] == {"bug": 5, "install_failed": 1, "crashed": 1}


def test_markdown_has_one_row_per_release_in_release_order_with_failures_as_rows(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    assert len(table) == 2 + len(recorded_matrix["rows"])
    # table edges, release, status, the symptom columns, the import column, the note
    assert len(table[0].split("|")) == len(table[2].split("|")) == 2 + 2 + len(matrix_report.COLUMNS) + 1 + 1
    releases = [line.split("|")[1].strip() for line in table[2:]]
    assert releases == [*RECORDED[:3], "2024.5.0", "2024.6.0", *RECORDED[3:]]
    assert "| 2024.5.0 | could not install |" in table[5]
    assert "killed by SIGSEGV" in table[6]


def test_report_reads_on_its_own(recorded_matrix):
    report = upstream_reports.openvino_stale_copies(recorded_matrix)
    for heading in ("# [CPU]", "## Summary", "## Environment", "## Reproducer", "## Releases",
                    "## What we observed about the cause", "## Impact"):
        assert heading in report
    assert "Observed on 2026.4.1" in report
    assert "in 2023.0.0, 2023.1.0 the outputs-first order is wrong too" in report
    assert "Reproduced in 5 of the 5 releases we ran" in report
    assert "2024.5.0" not in report, "rows that measured nothing stay out of the upstream report"


def test_reproducer_in_the_report_reproduces_on_the_installed_release():
    if installed_openvino() < TOP_LEVEL_OPSETS_FROM:
        pytest.skip(f"the report's snippet imports openvino.opset8, which exists from {TOP_LEVEL_OPSETS_FROM}")
    result = subprocess.run([sys.executable, "-c", upstream_reports.MINIMAL_REPRODUCER], capture_output=True,
                            text=True, check=True, timeout=120)
    verdicts = [line.split(":", 1)[1].split()[0] for line in result.stdout.splitlines()]
    assert verdicts == ["False", "False", "False"], result.stdout


@pytest.mark.matrix
def test_real_matrix_tells_2024_0_from_2026_4_and_reuses_environments(tmp_path):
    command = [sys.executable, matrix.__file__, "--versions", "2024.0.0,2026.4", "--out", str(tmp_path / "out"),
               "--cache", str(tmp_path / "envs"), "--reports", str(tmp_path / "reports")]
    first = subprocess.run(command, capture_output=True, text=True, check=False, timeout=1800)
    assert first.returncode == 0, first.stderr[-3000:]
    rows = {row["release"]: row for row in json.loads((tmp_path / "out" / "matrix.json").read_text())["rows"]}
    overwritten = ("python", "inputs_first", "input_overwritten")
    assert matrix_report.symptom_cells(rows["2024.0.0"]["plain"])[overwritten] is False
    assert matrix_report.symptom_cells(rows["2026.4.1"]["plain"])[overwritten] is True
    assert "| 2026.4.1 | bug reproduced |" in (tmp_path / "out" / "matrix.md").read_text()
    assert matrix_report.import_reads_caller_buffer(rows["2026.4.1"]["import_lifetime"]) is True
    assert rows["2024.0.0"]["import_lifetime"]["exit_code"] == 125, "the 2024.0 wheel ships no libopenvino_c"
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == sorted(upstream_reports.REPORTS)
    second = subprocess.run(command, capture_output=True, text=True, check=False, timeout=600)
    assert second.stderr.count("(environment: cached)") == 2, second.stderr


# --- The blob's lifetime: the import column and the two reports built on it ------------------------

IMPORT_RECORDED = ["2024.0.0", "2025.2.0", "2026.3.1", "2026.4.0", "2026.4.1"]


def import_matrix(releases, executorch=None):
    rows = [{**failure_row("bug", "", release), "import_lifetime": recorded("import", release),
             "executorch": (executorch or {}).get(release)} for release in releases]
    return {"index_note": "recorded", "available": matrix.BUILTIN_RELEASES, "rows": rows,
            "summary": matrix_report.summarize(rows)}


def test_release_table_has_the_import_column(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    column = table[0].split("|").index(f" {matrix_report.IMPORT_COLUMN} ")
    cells = {line.split("|")[1].strip(): line.split("|")[column].strip() for line in table[2:]}
    assert cells["2026.4.1"] == "**yes**"
    assert cells["2025.2.0"] == "no"
    assert cells["2024.0.0"] == "-", "2024.0.0 has no C API: could not test, not 'no'"


def test_import_report_names_the_first_bad_release_and_the_good_one_before_it():
    report = upstream_reports.openvino_import_lifetime(import_matrix(IMPORT_RECORDED))
    assert "First bad release: 2026.4.0; the release before it that was run, 2026.3.1, is fine." in report
    assert "Not run in between" not in report
    assert "import_lifetime.py" in report
    assert "ov_core_import_model" in report
    assert "include/openvino/c/ov_core.h" in report


def test_import_report_says_which_releases_between_were_not_run():
    report = upstream_reports.openvino_import_lifetime(import_matrix(["2025.2.0", "2026.4.1"]))
    assert "First bad release: 2026.4.1; the release before it that was run, 2025.2.0, is fine." in report
    assert "Not run in between: 2025.3.0, 2025.4.0, 2025.4.1, 2026.0.0" in report
    assert "2026.3.1, 2026.4.0." in report


def test_first_bad_release_when_the_oldest_run_is_already_bad():
    sentence = report_markdown.first_bad_release({"2026.4.0": True, "2026.4.1": True})
    assert sentence == "Seen in every release run from 2026.4.0 (the oldest run) on; older releases were not run."


@pytest.mark.parametrize("render", [upstream_reports.openvino_import_lifetime,
                                    upstream_reports.executorch_frees_blob])
def test_lifetime_reports_embed_their_reproducer_and_point_into_the_sources(render):
    report = render(import_matrix(IMPORT_RECORDED))
    assert report.startswith("# [")
    for heading in ("## Summary", "## Reproducer", "## Releases", "## Where"):
        assert heading in report
    reproducer = (upstream_reports.IMPORT_REPRODUCER if render is upstream_reports.openvino_import_lifetime
                  else upstream_reports.EXECUTORCH_REPRODUCER)
    assert reproducer.read_text().rstrip() in report


def test_executorch_report_points_at_the_free_after_import_and_suggests_the_fix():
    report = upstream_reports.executorch_frees_blob(import_matrix(IMPORT_RECORDED))
    assert "backends/openvino/runtime/OpenvinoBackend.cpp" in report
    assert "line 175 `processed->Free();`" in report
    assert "OpenvinoBackend::destroy" in report
    assert "extract_delegate_segments=False" in report
    assert "The ExecuTorch path was not run in this matrix" in report


def test_executorch_report_shows_the_by_path_rows_when_the_executorch_path_ran():
    counts = {"bytes": {"correct": 7, "wrong": 26}, "path": {"correct": 4, "crashed": 8, "wrong": 21}}
    report = upstream_reports.executorch_frees_blob(
        import_matrix(IMPORT_RECORDED, {"2026.4.1": {"counts": counts, "verdict": "BUG REPRODUCED"}}))
    assert "| 2026.4.1 | bytes: 7 correct, 26 wrong; path: 4 correct, 8 crashed, 21 wrong |" in report


def test_write_reports_writes_all_three(tmp_path):
    written = upstream_reports.write_reports(import_matrix(IMPORT_RECORDED), tmp_path / "reports")
    assert sorted(p.name for p in written) == sorted(upstream_reports.REPORTS)
    assert all(p.read_text().startswith("# ") for p in written)


@pytest.mark.parametrize(("arguments", "message"), [
    (["--versions", "2024.0.0", "-j", "0"], "-j/--jobs: must be at least 1, got 0"),
    (["--versions", "2024.0.0", "-j", "-1"], "-j/--jobs: must be at least 1, got -1"),
    (["--versions", "2026.4.1", "--out", "/proc/forbidden"], "--out: cannot write into /proc/forbidden"),
    (["--versions", "2026.4.1", "--reports", "/proc/forbidden/reports"], "--reports: cannot write into"),
    (["--versions", "2026.4.1", "--cache", "/proc/forbidden"], "--cache: cannot write into"),
    (["--versions", "2026.4.1,9999.1"], "--versions: not on the package index: 9999.1"),
], ids=["jobs_0", "jobs_negative", "out", "reports", "cache", "unknown_release"])
def test_bad_input_is_one_line_and_exit_2_before_anything_is_written(tmp_path, arguments, message):
    out = tmp_path / "matrix"
    out.mkdir()
    (out / "matrix.json").write_text("earlier results")
    defaults = [] if "--out" in arguments else ["--out", str(out)]
    defaults += [] if "--cache" in arguments else ["--cache", str(tmp_path / "envs")]
    result = subprocess.run([sys.executable, matrix.__file__, *arguments, *defaults], capture_output=True,
                            text=True, check=False, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert message in line
    assert (out / "matrix.json").read_text() == "earlier results"
    assert not (tmp_path / "envs").exists() or not any((tmp_path / "envs").iterdir())


def test_help_states_the_exit_codes():
    result = subprocess.run([sys.executable, matrix.__file__, "--help"], capture_output=True, text=True,
                            check=True, timeout=60)
    assert "exit status: 0 the table was written, 2 usage error" in result.stdout
