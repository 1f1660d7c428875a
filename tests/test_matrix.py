"""repro/matrix.py: planning, failure rows and rendering on recorded results (fast, no installs),
and one real run over two releases that behave differently (marked ``matrix``)."""

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from repro import releases
from repro.reports import (
    executorch_frees_blob,
    matrix_report,
    matrix_runs,
    openvino_import_lifetime,
    release_boundaries,
)
from repro.reports import markdown as report_markdown
from repro.reports import openvino_stale_copies as stale_copies_report
from repro.reports import upstream as upstream_reports
from tests.helpers import PROJECT, REPRO, run_cli
from tests.release_behaviour import CPP_HEADERS_IN_WHEEL_FROM, expected_symptoms, installed_openvino

DATA = Path(__file__).parent / "data"
# Every release on the index from 2023.0.0, measured on 2026-11-30 (matrix.json, runs trimmed to their symptoms).
ALL_RELEASES = json.loads((DATA / "matrix-all-releases.json").read_text())


def recorded(kind, release):
    path = DATA / f"{kind}-{release}.json"
    return json.loads(path.read_text()) if path.exists() else None


def recorded_rows(releases=None):
    return [row for row in ALL_RELEASES["rows"] if releases is None or row["release"] in releases]


def failure_row(status, detail, release="2024.5.0"):
    return {"requested": release, "release": release, "status": status, "detail": detail, "seconds": 0.1,
            "plain": None, "import_lifetime": None, "executorch": None}


def matrix_of(rows):
    return {"index_note": "recorded", "available": ALL_RELEASES["available"], "rows": rows,
            "summary": matrix_report.summarize(rows, ALL_RELEASES["available"])}


@pytest.fixture
def recorded_matrix():
    return matrix_of(recorded_rows())


@pytest.mark.parametrize(("text", "expected"), [
    ("2024.0.0", ["2024.0.0"]), ("2024.0.0, 2026.4", ["2024.0.0", "2026.4"]), ("9999.1", ["9999.1"])])
def test_versions_argument_accepts_releases_and_series(text, expected):
    assert releases.release_list(text) == expected


@pytest.mark.parametrize("text", ["latest", "2024", "24.0.0", "2024.0.0rc1", ","])
def test_malformed_versions_are_a_usage_error(text):
    result = run_cli("python", REPRO / "matrix.py", "--versions", text, timeout=60)
    assert result.returncode == 2
    assert "not a release like 2024.0.0" in result.stderr


@pytest.mark.parametrize(("requested", "resolved"), [
    ("2025.4.1", "2025.4.1"), ("2025.4", "2025.4.1"), ("2026.2", "2026.2.1"),
    ("9999.1", None), ("2025.4.7", None)])
def test_series_resolve_to_their_newest_patch_and_unknown_ones_to_nothing(requested, resolved):
    assert releases.resolve(requested, releases.BUILTIN_RELEASES) == resolved


def test_without_an_index_the_builtin_list_is_used_and_said(monkeypatch):
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    found, note = releases.discover_releases()
    assert found == releases.BUILTIN_RELEASES
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
    got_status, got_detail, _ = matrix_runs.run_script(sys.executable, script, timeout=2)
    assert got_status == status
    assert detail in got_detail


def test_summary_says_where_each_symptom_starts_and_ends(recorded_matrix):
    lines = recorded_matrix["summary"]["boundaries"]
    assert "stale output: **yes** 2023.0.0 to 2026.4.1" in lines
    assert "outputs first wrong too: **yes** 2023.0.0 to 2023.2.0; no 2023.3.0 to 2026.4.1" in lines
    assert "input overwritten: no 2023.0.0 to 2024.0.0; **yes** 2024.1.0 to 2026.4.1" in lines
    assert "shared slot: no 2023.0.0 to 2023.2.0; **yes** 2023.3.0 to 2026.4.1" in lines
    assert "C API in the wheel: no 2023.0.0 to 2024.2.0; **yes** 2024.3.0 to 2026.4.1" in lines
    assert "C++ headers in the wheel: no 2023.0.0 to 2024.2.0; **yes** 2024.3.0 to 2026.4.1" in lines
    assert "import reads the caller's buffer: no 2024.3.0 to 2026.3.1; **yes** 2026.4.0 to 2026.4.1" in lines


def test_a_subset_names_the_releases_it_did_not_measure():
    rows = [*recorded_rows({"2024.0.0", "2026.3.1"}), failure_row("install_failed", "no wheel", "2024.1.0")]
    line = release_boundaries.describe(rows, "input overwritten", ALL_RELEASES["available"])
    available = ALL_RELEASES["available"]
    between = ", ".join(available[available.index("2024.1.0"):available.index("2026.3.1")])
    assert line == ("input overwritten: no 2024.0.0; **yes** 2026.3.1 (not run before 2024.0.0: 2023.0.0, "
                    "2023.0.1, 2023.0.2, 2023.1.0, 2023.2.0, 2023.3.0; not run after 2026.3.1: 2026.4.0, "
                    f"2026.4.1; not measured between 2024.0.0 and 2026.3.1: {between})"), line


def bisect_from(requested):
    """What ``matrix.py --reports`` runs, with recorded rows standing in for the installs."""
    rows, rounds = recorded_rows(set(requested)), 0
    while more := release_boundaries.releases_to_run(rows, ALL_RELEASES["available"]):
        rows += recorded_rows(set(more))
        rounds += 1
    return rows, rounds


@pytest.mark.parametrize("requested", [["2026.4.1"], ["2024.0.0", "2026.4.1"], ["2023.1.0"], ["2025.2.0"]])
@pytest.mark.parametrize("signal", stale_copies_report.SIGNALS)
def test_bisection_from_any_subset_says_what_every_release_would(requested, signal):
    rows, _ = bisect_from(requested)
    assert len(rows) <= 15, f"bisection ran {len(rows)} of 27 releases"
    available = ALL_RELEASES["available"]
    everything = release_boundaries.describe(ALL_RELEASES["rows"], signal, available)
    assert release_boundaries.describe(rows, signal, available) == everything


def test_report_from_one_release_names_the_first_bad_releases():
    rows, _ = bisect_from(["2026.4.1"])
    report = stale_copies_report.openvino_stale_copies(matrix_of(rows))
    assert "Setting the output first gives the right values from 2023.3.0 on." in report
    assert "First bad release: stale output 2023.0.0, input overwritten 2024.1.0" in report
    assert "input overwritten: no 2023.0.0 to 2024.0.0; **yes** 2024.1.0 to 2026.4.1" in report


def test_release_table_has_one_column_per_api_and_order(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    assert [cell.strip() for cell in table[0].split("|")[1:-1]] == [
        "release", "status", "Python, inputs first", "Python, outputs first", "C, inputs first",
        "C, outputs first", "C++, inputs first", "C++, outputs first", matrix_report.IMPORT_COLUMN, "note"]
    cells = {line.split("|")[1].strip(): [c.strip() for c in line.split("|")[3:9]] for line in table[2:]}
    assert cells["2023.1.0"] == ["stale output, wrong sin", "stale output", "-", "-", "-", "-"]
    assert cells["2026.4.1"] == ["stale output, wrong sin, input overwritten, shared slot", "correct"] * 3


def test_failures_are_rows_of_the_release_table():
    rows = [*recorded_rows({"2024.0.0"}), failure_row("install_failed", "pip install failed: No matching"),
            failure_row("crashed", "plain_openvino.py was killed by SIGSEGV", "2024.6.0")]
    table = matrix_report.release_table(rows).splitlines()
    assert [line.split("|")[1].strip() for line in table[2:]] == ["2024.0.0", "2024.5.0", "2024.6.0"]
    assert "| 2024.5.0 | could not install |" in table[3]
    assert "killed by SIGSEGV" in table[4]


REPORT_STRUCTURE = DATA / "openvino-stale-copies.structure.txt"


def report_structure(markdown):
    """What must not silently go: headings, bold template fields, fenced block languages, table headers."""
    lines = []
    for line in markdown.splitlines():
        if line.startswith(("# ", "## ", "| releases")) or (line.startswith("```") and line != "```"):
            lines.append(line)
        elif line.startswith("- **"):
            lines.append(line.split(":", 1)[0])
    return "\n".join(lines) + "\n"


def test_report_keeps_its_structure(recorded_matrix):
    structure = report_structure(stale_copies_report.openvino_stale_copies(recorded_matrix))
    assert structure == REPORT_STRUCTURE.read_text(), (
        f"the report's structure changed; if that is intended, write this into {REPORT_STRUCTURE}:\n{structure}")


def test_report_reads_on_its_own(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    assert report.startswith("# [Bug]: [CPU] ")
    assert stale_copies_report.MINIMAL_REPRODUCER.read_text().rstrip() in report
    assert stale_copies_report.CPP_REPRODUCER.read_text().rstrip() in report
    newest = recorded_rows({"2026.4.1"})[0]
    assert newest["snippet"]["output"] in report, "the snippet's output is pasted verbatim"
    assert newest["plain"]["cpp_output"].rstrip() in report, "the C++ program's output is pasted verbatim"
    assert "It ran unchanged on every release in the table (2023.0.0 to 2026.4.1)." in report
    for pointer in ("`INFERENCE_PRECISION_HINT`: f32", "`OPTIMIZATION_CAPABILITIES`", "src/core/src/op/result.cpp",
                    "`src/plugins/intel_cpu/src/infer_request.cpp`", "PR #23035"):
        assert pointer in report
    assert "2023.3.0 is where the slot became shared and where the outputs-first order became right" in report
    assert "| 2024.3.0 to 2026.4.1 (18) |" in report, "neighbouring releases with the same symptoms share a row"


def code_block_after(markdown, marker, language):
    start = markdown.index(f"```{language}\n", markdown.index(marker)) + len(language) + 4
    return markdown[start:markdown.index("\n```", start)]


def test_snippet_in_the_report_shows_this_releases_symptoms(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    snippet = code_block_after(report, "Save as", "python")
    result = run_cli("python", "-c", snippet, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    expected = expected_symptoms("param_result_and_sin", "inputs_first")
    cpu = next(line for line in result.stdout.splitlines() if line.startswith("CPU:"))
    checks = dict(part.rsplit(": ", 1) for part in cpu.removeprefix("CPU: ").split("; "))
    assert checks["output 0 == x"].split()[0] == str("stale_output" not in expected), cpu
    assert checks["output 1 == sin(x)"] == str("wrong_downstream" not in expected), cpu
    assert checks["x intact"] == str("input_overwritten" not in expected), cpu
    assert checks["input 0 is output 0's buffer"] == str("input_slot_is_output_buffer" in expected), cpu
    assert {line.split(":")[0] for line in result.stdout.splitlines()[1:]} == {"CPU", "AUTO", "HETERO"}


def test_cpp_build_lines_in_the_report_build_and_reproduce(recorded_matrix, tmp_path):
    if installed_openvino() < CPP_HEADERS_IN_WHEEL_FROM:
        pytest.skip(f"OpenVINO {installed_openvino()} ships no C++ headers")
    if not shutil.which("g++"):
        pytest.skip("no g++ to run the report's build line with")
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    shutil.copy(stale_copies_report.CPP_REPRODUCER, tmp_path)
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"  # `python` is this interpreter
    result = run_cli("bash", "-c", code_block_after(report, "built against the wheel", "sh"), cwd=tmp_path,
                     env={**os.environ, "PATH": path})
    assert result.returncode == 1, result.stderr[-2000:]
    assert result.stdout.rstrip().endswith("BUG REPRODUCED")


@pytest.mark.matrix
def test_real_matrix_from_one_release_bisects_the_boundaries_and_reuses_environments(tmp_path):
    # The matrix's own cache of release environments (git-ignored), as a user's repeated runs reuse it.
    command = ["python", REPRO / "matrix.py", "--versions", "2026.4", "--out", tmp_path / "out",
               "--cache", PROJECT / ".matrix" / "envs", "--reports", tmp_path / "reports"]
    first = run_cli(*command, timeout=3600)
    assert first.returncode == 0, first.stderr[-3000:]
    rows = json.loads((tmp_path / "out" / "matrix.json").read_text())["rows"]
    assert len(rows) < 27, "bisection, not every release"
    assert {row["release"] for row in rows} >= {"2023.0.0", "2026.4.1"}
    assert all(row["snippet"]["exit_code"] == 0 for row in rows), [(r["release"], r["snippet"]) for r in rows]
    report = (tmp_path / "reports" / "openvino-stale-copies.md").read_text()
    assert "Setting the output first gives the right values from 2023.3.0 on." in report
    assert "First bad release: stale output 2023.0.0, input overwritten 2024.1.0" in report
    assert "It ran unchanged on every release in the table (2023.0.0 to 2026.4.1)." in report
    assert "not measured" not in report
    assert "| 2026.4.1 | bug reproduced |" in (tmp_path / "out" / "matrix.md").read_text()
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == sorted(upstream_reports.REPORTS)
    second = run_cli(*command, timeout=1800)
    assert second.stderr.count("(environment: cached)") == len(rows), second.stderr


# --- The blob's lifetime: the import column and the two reports built on it ------------------------

IMPORT_RECORDED = ["2024.0.0", "2025.2.0", "2026.3.1", "2026.4.0", "2026.4.1"]


def import_matrix(measured, executorch=None, by_path=None):
    rows = [{**failure_row("bug", "", release), "import_lifetime": recorded("import", release),
             "executorch": (executorch or {}).get(release), "executorch_by_path": (by_path or {}).get(release)}
            for release in measured]
    return {"index_note": "recorded", "available": releases.BUILTIN_RELEASES, "rows": rows,
            "summary": matrix_report.summarize(rows)}


def test_release_table_has_the_import_column(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    column = table[0].split("|").index(f" {matrix_report.IMPORT_COLUMN} ")
    cells = {line.split("|")[1].strip(): line.split("|")[column].strip() for line in table[2:]}
    assert cells["2026.4.1"] == "**yes**"
    assert cells["2025.2.0"] == "no"
    assert cells["2024.0.0"] == "-", "2024.0.0 has no C API: could not test, not 'no'"


def test_import_report_names_the_first_bad_release_and_the_good_one_before_it():
    report = openvino_import_lifetime.openvino_import_lifetime(import_matrix(IMPORT_RECORDED))
    assert "First bad release: 2026.4.0; the release before it that was run, 2026.3.1, is fine." in report
    assert "Not run in between" not in report
    assert "import_lifetime.py" in report
    assert "ov_core_import_model" in report
    assert "include/openvino/c/ov_core.h" in report


def test_import_report_says_which_releases_between_were_not_run():
    report = openvino_import_lifetime.openvino_import_lifetime(import_matrix(["2025.2.0", "2026.4.1"]))
    assert "First bad release: 2026.4.1; the release before it that was run, 2025.2.0, is fine." in report
    assert "Not run in between: 2025.3.0, 2025.4.0, 2025.4.1, 2026.0.0" in report
    assert "2026.3.1, 2026.4.0." in report


def test_first_bad_release_when_the_oldest_run_is_already_bad():
    sentence = report_markdown.first_bad_release({"2026.4.0": True, "2026.4.1": True})
    assert sentence == "Seen in every release run from 2026.4.0 (the oldest run) on; older releases were not run."


@pytest.mark.parametrize("render", [openvino_import_lifetime.openvino_import_lifetime,
                                    executorch_frees_blob.executorch_frees_blob])
def test_lifetime_reports_embed_their_reproducer_and_point_into_the_sources(render):
    report = render(import_matrix(IMPORT_RECORDED))
    assert report.startswith("# [")
    for heading in ("## Summary", "## Reproducer", "## Releases", "## Where"):
        assert heading in report
    reproducer = {openvino_import_lifetime.openvino_import_lifetime: openvino_import_lifetime.IMPORT_REPRODUCER,
                  executorch_frees_blob.executorch_frees_blob: executorch_frees_blob.EXECUTORCH_REPRODUCER}[render]
    assert reproducer.read_text().rstrip() in report


def test_executorch_report_points_at_the_free_after_import_and_suggests_the_fix():
    report = executorch_frees_blob.executorch_frees_blob(import_matrix(IMPORT_RECORDED))
    assert "backends/openvino/runtime/OpenvinoBackend.cpp" in report
    assert "line 175 `processed->Free();`" in report
    assert "OpenvinoBackend::destroy" in report
    assert "extract_delegate_segments=False" in report
    assert "The ExecuTorch path was not run in this matrix" in report


def test_executorch_report_shows_the_by_path_rows_when_the_executorch_path_ran():
    counts = {"bytes": {"correct": 7, "wrong": 26}, "path": {"correct": 4, "crashed": 8, "wrong": 21}}
    report = executorch_frees_blob.executorch_frees_blob(
        import_matrix(IMPORT_RECORDED, {"2026.4.1": {"counts": counts, "verdict": "BUG REPRODUCED"}}))
    assert "| 2026.4.1 | bytes: 7 correct, 26 wrong; path: 4 correct, 8 crashed, 21 wrong |" in report


def test_executorch_report_pastes_its_reproducers_output_from_the_newest_row_that_ran_it():
    executorch = {"2026.4.1": {"counts": {}, "environment": {"executorch": "1.5.1"}}}
    runs = {"2026.4.0": {"exit_code": 1, "output": "older output"},
            "2026.4.1": {"exit_code": 1, "output": "blob in segment, loaded from path : exit -11\nBUG REPRODUCED"}}
    report = executorch_frees_blob.executorch_frees_blob(import_matrix(IMPORT_RECORDED, executorch, runs))
    assert ("Output with executorch 1.5.1 and OpenVINO 2026.4.1 (exit 1):\n\n```\n"
            "blob in segment, loaded from path : exit -11\nBUG REPRODUCED\n```") in report
    assert "older output" not in report


def test_executorch_report_says_when_its_reproducer_was_not_run():
    report = executorch_frees_blob.executorch_frees_blob(import_matrix(IMPORT_RECORDED))
    assert "(Not run in this matrix: `repro/matrix.py --executorch` runs it on every release.)" in report
    assert "exit -11" not in report, "nothing measured is pasted by hand"


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
    result = run_cli("python", REPRO / "matrix.py", *arguments, *defaults, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert message in line
    assert (out / "matrix.json").read_text() == "earlier results"
    assert not (tmp_path / "envs").exists() or not any((tmp_path / "envs").iterdir())
