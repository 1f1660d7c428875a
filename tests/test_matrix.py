"""repro/matrix.py: planning, failure rows and rendering on recorded results (fast, no installs),
and one real run over two releases that behave differently (marked ``matrix``)."""

import json
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from repro import attachment_commands as commands
from repro import dependencies, matrix_runs, releases
from repro.harness import executorch_patches
from repro.reports import (
    executorch_channels_last,
    executorch_empty_constants,
    executorch_frees_blob,
    executorch_issue,
    executorch_precision,
    executorch_semantics,
    executorch_stale_copies,
    matrix_report,
    openvino_import_lifetime,
    release_boundaries,
)
from repro.reports import markdown as report_markdown
from repro.reports import openvino_stale_copies as stale_copies_report
from repro.reports import upstream as upstream_reports
from repro.reports.markdown import code_block as md_block
from repro.reports.matrix_row import MatrixRow, RowStatus, empty_row
from tests.helpers import PROJECT, REPRO, run_cli, table_line
from tests.release_behaviour import expected_symptoms

DATA = Path(__file__).parent / "data"
# Every release on the index from 2023.0.0, measured on 2026-11-30 (matrix.json, runs trimmed to their symptoms).
ALL_RELEASES = json.loads((DATA / "matrix-all-releases.json").read_text())


def recorded_import(release):
    """The C program's recorded run on ``release`` (``import_lifetime`` of the recorded matrix)."""
    return next(row["import_lifetime"] for row in ALL_RELEASES["rows"] if row["release"] == release)


def recorded_rows(releases=None):
    return [row for row in ALL_RELEASES["rows"] if releases is None or row["release"] in releases]


def failure_row(status, detail, release="2024.5.0"):
    return {**empty_row(release, release), "status": RowStatus(status), "detail": detail, "seconds": 0.1}


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


# Signals every release can show (the C and C++ programs need the headers wheels ship from 2024.3.0, so their
# lines name the older releases a subset did not run, which the full table measured as "not buildable").
EVERY_RELEASE_SIGNALS = [signal for signal in release_boundaries.SIGNALS
                         if signal not in ("import reads the caller's buffer", "Abs of constants dropped (C++)")]


@pytest.mark.parametrize("requested", [["2026.4.1"], ["2024.0.0", "2026.4.1"], ["2023.1.0"], ["2025.2.0"]])
@pytest.mark.parametrize("signal", EVERY_RELEASE_SIGNALS)
def test_bisection_from_any_subset_says_what_every_release_would(requested, signal):
    rows, _ = bisect_from(requested)
    # 7 boundaries among 27 releases (the Abs one the newest): bisecting each costs about log2 of its gap.
    assert len(rows) <= 17, f"bisection ran {len(rows)} of 27 releases"
    available = ALL_RELEASES["available"]
    everything = release_boundaries.describe(ALL_RELEASES["rows"], signal, available)
    assert release_boundaries.describe(rows, signal, available) == everything


def test_report_from_one_release_names_the_first_bad_releases():
    rows, _ = bisect_from(["2026.4.1"])
    report = stale_copies_report.openvino_stale_copies(matrix_of(rows))
    assert "Setting the output first gives the right values from 2023.3.0 on." in report
    assert "Stale output: present in every release on the index, oldest 2023.0.0.\n" in report
    assert "Input overwritten: from 2024.1.0 (see Releases" in report
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


def collapsed_section(report, heading):
    """The text of a ``## heading`` section whose body is one collapsed <details> block."""
    section = report.split(f"## {heading}\n\n")[1].split("\n\n## ")[0]
    assert section.startswith("<details>\n<summary>"), section[:200]
    assert section.endswith("\n\n</details>"), section[-200:]
    return section.split("</summary>\n\n", 1)[1].removesuffix("\n\n</details>")


def test_mechanism_is_four_bullets_each_marked_measured_or_read_in_source(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    bullets = collapsed_section(report, "Mechanism").splitlines()
    assert len(bullets) <= 4
    assert all(line.startswith(("- **Measured**:", "- **Read in source**:")) for line in bullets), bullets


def test_source_pointers_are_permalinks_at_the_tested_build_with_function_names(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    lines = collapsed_section(report, "Where in the sources").split("\n\n")[1].splitlines()
    assert len(lines) == len(stale_copies_report.POINTERS)
    for line in lines:
        path, url, function = re.match(r"- \[`([^`]+)`\]\((\S+)\), `([^`]+)`: ", line).groups()
        assert url == f"https://github.com/openvinotoolkit/openvino/blob/e213a147257/{path}"
        assert "::" in function
        assert "(read " in line


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
    for pointer in ("`INFERENCE_PRECISION_HINT`: bf16", "`OPTIMIZATION_CAPABILITIES`", "PR #23035",
                    "issue #4742", "PR #5000", "**Operating System**: Debian GNU/Linux 12 (bookworm)"):
        assert pointer in report
    assert "from 2023.3.0 on; 2023.3.0 is also where the outputs-first order became right" in report
    assert "Stale output: present in every release on the index, oldest 2023.0.0" in report
    assert "| 2024.3.0 to 2026.4.1 (18) |" in report, "neighbouring releases with the same symptoms share a row"


def code_block_after(markdown, marker, language):
    start = markdown.index(f"```{language}\n", markdown.index(marker)) + len(language) + 4
    return markdown[start:markdown.index("\n```", start)]


def test_snippet_in_the_report_shows_this_releases_symptoms(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    snippet = code_block_after(report, "Save as", "python")
    result = run_cli("python", "-c", snippet, timeout=300)
    expected = expected_symptoms("param_result_and_sin", "inputs_first")
    wrong = {"stale_output", "wrong_downstream", "input_overwritten"} & set(expected)
    assert result.returncode == (1 if wrong else 0), result.stderr[-2000:]
    cpu = next(line for line in result.stdout.splitlines() if line.startswith("CPU:"))
    checks = dict(part.rsplit(": ", 1) for part in cpu.removeprefix("CPU: ").split("; "))
    assert checks["output 0 == x"].split()[0] == str("stale_output" not in expected), cpu
    assert checks["output 1 == sin(x)"] == str("wrong_downstream" not in expected), cpu
    assert checks["x intact"] == str("input_overwritten" not in expected), cpu
    assert checks["input 0 is output 0's buffer"] == str("input_slot_is_output_buffer" in expected), cpu
    assert {line.split(":")[0] for line in result.stdout.splitlines()[1:]} == {"CPU", "AUTO", "HETERO"}


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
    assert all(row.keys() == MatrixRow.__annotations__.keys() for row in rows), "the rows are MatrixRows"
    # git bisect run's convention: 1 while the bug shows, which is every release the index has
    assert all(row["snippet"]["exit_code"] == 1 for row in rows), [(r["release"], r["snippet"]) for r in rows]
    report = (tmp_path / "reports" / "openvino-stale-copies.md").read_text()
    assert "Setting the output first gives the right values from 2023.3.0 on." in report
    assert "Stale output: present in every release on the index, oldest 2023.0.0.\n" in report
    assert "Input overwritten: from 2024.1.0 (see Releases" in report
    assert "It ran unchanged on every release in the table (2023.0.0 to 2026.4.1)." in report
    assert "not measured" not in report
    assert "| 2026.4.1 | bug reproduced |" in (tmp_path / "out" / "matrix.md").read_text()
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == sorted(upstream_reports.REPORTS)
    lifetime = (tmp_path / "reports" / "openvino-import-lifetime.md").read_text()
    assert "First bad release: 2026.4.0; the release before it that was run, 2026.3.1, is fine." in lifetime
    assert "| **reads the caller's buffer** | `ov::Tensor const&` |" in table_line(lifetime, "2026.4.1")
    constant_abs = (tmp_path / "reports" / "openvino-constant-abs.md").read_text()
    assert "First bad release: 2025.4.0; the release before it that was run, 2025.3.0, is fine." in constant_abs
    # A second run over two of those releases (the oldest and the newest) reuses their environments.
    again = run_cli("python", REPRO / "matrix.py", "--versions", "2023.0.0,2026.4.1", "--out", tmp_path / "again",
                    "--cache", PROJECT / ".matrix" / "envs", timeout=1800)
    assert again.stderr.count("(environment: cached)") == 2, again.stderr


def test_a_built_attachment_is_kept_in_its_environment_and_only_run_the_next_time(tmp_path):
    (tmp_path / "bin").mkdir()
    python = tmp_path / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')  # this interpreter, in a folder of tmp_path
    python.chmod(0o755)
    name = "openvino_constant_abs.cpp"
    first = matrix_runs.run_built(commands.cpp_build, python, name, timeout=600)
    [kept] = (tmp_path / "builds").iterdir()
    built_at = (kept / "openvino_constant_abs").stat().st_mtime_ns
    again = matrix_runs.run_built(commands.cpp_build, python, name, timeout=600)
    assert (again["exit_code"], again["output"]) == (first["exit_code"], first["output"])
    assert first["output"].endswith("BUG REPRODUCED: the Abs was dropped") or first["exit_code"] == 0, first
    assert (kept / "openvino_constant_abs").stat().st_mtime_ns == built_at, "built again"


# --- The blob's lifetime: the import column and the two reports built on it ------------------------

IMPORT_RECORDED = ["2024.0.0", "2025.2.0", "2026.3.1", "2026.4.0", "2026.4.1"]


def import_matrix(measured, executorch=None, by_path=None):
    rows = [{**recorded_rows({release})[0],
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


# --- The ExecuTorch axis: --executorch-versions -------------------------------------------------------

def test_executorch_versions_are_sorted_releases():
    assert releases.executorch_list("1.5.1, 1.4.1,1.5.1") == ["1.4.1", "1.5.1"]


def test_each_executorch_release_gets_its_own_environment_with_the_same_stack():
    headline = dependencies.requirements("2026.4.1", releases.HEADLINE_EXECUTORCH)
    older = dependencies.requirements("2026.4.1", "1.4.1")
    assert [item for item in older if not item.startswith("executorch==")] == [
        item for item in headline if not item.startswith("executorch==")]
    assert "executorch==1.4.1" in older
    assert f"executorch=={releases.HEADLINE_EXECUTORCH}" in headline
    assert "torch==2.13.0" in older
    names = {matrix_runs.environment_name("2026.4.1", et) for et in (None, "1.4.1", releases.HEADLINE_EXECUTORCH)}
    assert names == {"ov-2026.4.1", "ov-2026.4.1-executorch-1.4.1", "ov-2026.4.1-executorch"}


def executorch_releases_row(release="2026.4.1"):
    crashed = {"exit_code": 1, "output": "blob in segment, loaded from path : exit -11\nBUG REPRODUCED"}
    wrong = {"exit_code": 1, "output": "channels-last frame: max |diff| to eager 1.22\nBUG REPRODUCED"}
    runs = {"executorch": {"counts": {"bytes": {"wrong": 3}}}, "executorch_by_path": crashed,
            "executorch_channels_last": wrong}
    return {**failure_row("bug", "", release), "executorch_releases": {
        "1.5.1": runs, "1.4.1": runs, "1.3.1": {"install_failed": "pip install failed: no torch 2.12"}}}


def test_matrix_shows_each_executorch_release_side_by_side():
    table = matrix_report.executorch_release_table([executorch_releases_row()]).splitlines()
    assert table[0].startswith("| OpenVINO | executorch | ExecuTorch path (stock) |")
    assert [line.split(" | ")[1] for line in table[2:]] == ["1.3.1", "1.4.1", "1.5.1"]
    assert "could not install: pip install failed" in table[2]
    assert table[3].endswith("| BUG REPRODUCED | BUG REPRODUCED | - | - |"), "no empty-constants, semantics runs"
    assert matrix_report.executorch_release_table([failure_row("bug", "")]) == "", "one release: no table"


def test_executorch_reports_name_the_releases_measured():
    sentence = executorch_issue.releases_measured([executorch_releases_row()], "executorch_by_path")
    assert sentence.startswith("ExecuTorch releases measured: 1.4.1, 1.5.1.")
    assert "- executorch 1.4.1, OpenVINO 2026.4.1: `BUG REPRODUCED` (exit 1)" in sentence


# --- The two ExecuTorch reports: built from --executorch rows ----------------------------------------

COLLECT_ENV = """Collecting environment information...
PyTorch version: 2.13.0+cpu
Is debug build: False
OS: Debian GNU/Linux 12 (bookworm) (x86_64)
GCC version: (Debian 12.2.0-14+deb12u1) 12.2.0
Python version: 3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0] (64-bit runtime)
Python platform: Linux-6.18.44-x86_64-with-glibc2.36
Is CUDA available: False
Vendor ID:                               AuthenticAMD
Model name:                              AMD EPYC
Flags:                                   fpu vme avx2 avx512f avx512_vnni avx512_bf16 xsaves
Vulnerability Srbds:                     Not affected
Versions of relevant libraries:
[pip3] executorch==1.5.1
[pip3] flake8==6.1.0
[pip3] numpy==2.4.6
[pip3] torch==2.13.0+cpu"""
# What the matrix recorded per release, shaped as repro/matrix_runs.py writes it.
EXECUTORCH_ROWS = {
    "2025.4.1": {"by_path": "executorch 1.5.1, OpenVINO 2025.4.1, torch 2.13.0+cpu\nOK: every run equals eager",
                 "channels_last": "channels-last frame: max |diff| to eager 2.06\nBUG REPRODUCED",
                 "semantics": "int64 x * x: WRONG: eager [10000000000], delegate [1410065408]\nBUG REPRODUCED",
                 "stale_copies": "loaded from bytes: copy == x: False; sin == sin(x): False; x intact: True\n"
                                 "BUG REPRODUCED",
                 "precision": "compile specs ask for INFERENCE_PRECISION_HINT=f32; max error against float64: "
                              "0.097 (f32 leaves < 0.0001)\nBUG REPRODUCED: the delegate ran below f32"},
    "2026.4.1": {"by_path": "blob in segment, loaded from path : exit -11\nBUG REPRODUCED",
                 "channels_last": "channels-last frame: max |diff| to eager 2.07\nBUG REPRODUCED",
                 "semantics": "uint8 x + y: WRONG: eager [4], delegate [255]\nBUG REPRODUCED",
                 "stale_copies": "loaded from path : copy == x: False; sin == sin(x): False; x intact: True\n"
                                 "BUG REPRODUCED",
                 "precision": "compile specs ask for INFERENCE_PRECISION_HINT=f32; max error against float64: 0.1 "
                              "(f32 leaves < 0.0001)\nBUG REPRODUCED: the delegate ran below f32"},
}
DIM_ORDER_RECORD = {"case": "conv_channels_last_input", "what": "Conv2d(3, 3, 1)(x), x channels-last",
                    "group": "dim order", "outcome": "wrong",
                    "runs": {"bytes": {"outcome": "wrong", "outputs": [{"max_abs_diff": 1.31}]}}}
COPY_RECORD = {**DIM_ORDER_RECORD, "case": "clone_only", "what": "return x.clone()", "group": "copies"}
PATCH_TESTS = {"copy-exclusion": {"with": {"test_copy_of_input_as_output": "passed"},
                                  "without": {"test_copy_of_input_as_output": "failed"}},
               "channels-last": {"with": {"test_channels_last_input": "passed"},
                                 "without": {"test_channels_last_input": "failed"}},
               "semantics": {"with": {"test_int64_square": "passed"}, "without": {"test_int64_square": "failed"}}}


def executorch_matrix(patched_by_path=True):
    rows = []
    for release, runs in EXECUTORCH_ROWS.items():
        rows.append({**failure_row("bug", "", release), "import_lifetime": recorded_import(release),
                     "executorch": {"counts": {}, "cases": [DIM_ORDER_RECORD, COPY_RECORD]},
                     "executorch_by_path": {"exit_code": 1 if "BUG" in runs["by_path"] else 0,
                                            "output": runs["by_path"]},
                     "executorch_channels_last": {"exit_code": 1, "output": runs["channels_last"]},
                     "executorch_semantics": {"exit_code": 1, "output": runs["semantics"]},
                     "executorch_stale_copies": {"exit_code": 1, "output": runs["stale_copies"]},
                     "executorch_stale_copies_patched": {"exit_code": 0, "output": "OK: every run equals eager"}
                     if patched_by_path else None,
                     "executorch_precision": {"exit_code": 1, "output": runs["precision"]},
                     "executorch_precision_patched": {"exit_code": 0, "output": "OK: the delegate ran at f32"}
                     if patched_by_path else None,
                     "executorch_environment": COLLECT_ENV, "executorch_patch_tests": PATCH_TESTS,
                     "executorch_by_path_patched": {"exit_code": 0, "output": "OK: every run equals eager"}
                     if patched_by_path else None})
    return {"index_note": "recorded", "available": releases.BUILTIN_RELEASES, "rows": rows,
            "summary": matrix_report.summarize(rows)}


MAIN_TEXT_WORDS = 600  # issue 31: a report a maintainer triages in five minutes

EXECUTORCH_REPORTS = [executorch_frees_blob.executorch_frees_blob,
                      executorch_channels_last.executorch_channels_last, executorch_semantics.executorch_semantics,
                      executorch_stale_copies.executorch_stale_copies, executorch_precision.executorch_precision]
# Each report's reproducer and the field of the rows (and of EXECUTORCH_ROWS) its runs are in.
REPRODUCERS = {executorch_frees_blob.executorch_frees_blob:
                   (executorch_frees_blob.EXECUTORCH_REPRODUCER, "by_path"),
               executorch_channels_last.executorch_channels_last:
                   (executorch_channels_last.CHANNELS_LAST_REPRODUCER, "channels_last"),
               executorch_semantics.executorch_semantics: (executorch_semantics.REPRODUCER, "semantics"),
               executorch_stale_copies.executorch_stale_copies: (executorch_stale_copies.REPRODUCER,
                                                                 "stale_copies"),
               executorch_precision.executorch_precision: (executorch_precision.REPRODUCER, "precision")}


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_follows_the_bug_template_and_names_nothing_of_this_project(render):
    report = render(executorch_matrix())
    assert report.startswith("# [OpenVINO] ")
    for heading in ("## 🐛 Describe the bug", "## To reproduce", "## Versions", "## Proposed fix"):
        assert heading in report
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b", report, re.IGNORECASE)


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_pastes_its_reproducer_and_its_output_on_both_releases(render):
    report = render(executorch_matrix())
    reproducer, field = REPRODUCERS[render]
    assert reproducer.read_text().rstrip() in report
    for release, runs in EXECUTORCH_ROWS.items():
        exit_code = 1 if "BUG" in runs[field] else 0
        assert f"OpenVINO {release} (exit {exit_code}):\n\n```\n{runs[field]}\n```" in report


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_environment_is_collect_env_trimmed_then_whole_collapsed(render):
    section = report_markdown_block(render(executorch_matrix()), "## Versions")
    versions = report_markdown.main_text(section)
    whole = section.split("<details>", 1)[1]
    assert "python -m torch.utils.collect_env, whole" in whole
    assert "[pip3] flake8==6.1.0" in whole, "ExecuTorch's template asks for all of it"
    assert "PyTorch version: 2.13.0+cpu" in versions
    assert "OS: Debian GNU/Linux 12 (bookworm) (x86_64)" in versions
    assert "Model name:                              AMD EPYC" in versions
    assert "CPU flags that decide OpenVINO's CPU precision: avx2 avx512f avx512_vnni avx512_bf16" in versions
    assert "[pip3] executorch==1.5.1" in versions
    assert "openvino==2026.4.1" in versions
    assert "nncf==3.1.0" in versions
    for left_out in ("flake8", "Vulnerability", "fpu"):
        assert left_out not in versions


def report_markdown_block(report, heading):
    return report[report.index(heading):].split("\n## ", 1)[0]


@pytest.mark.parametrize(("render", "patches"), [
    (executorch_frees_blob.executorch_frees_blob,
     executorch_patches.patch_files(executorch_patches.BLOB_LIFETIME)),
    (executorch_channels_last.executorch_channels_last,
     executorch_patches.patch_files(executorch_patches.CHANNELS_LAST)),
    (executorch_semantics.executorch_semantics, executorch_patches.patch_files(executorch_patches.SEMANTICS)),
    (executorch_precision.executorch_precision, executorch_patches.patch_files(executorch_patches.PRECISION))])
def test_executorch_report_carries_its_tracked_patches_inline(render, patches):
    fix = report_markdown_block(render(executorch_matrix()), "## Proposed fix")
    for patch in patches:
        diff = patch.read_text().split("\n---\n", 1)[1]
        assert diff.split("\n", 1)[1] in fix, f"{patch.name} is not inline as tracked"
        assert executorch_issue.patch_text(patch) in fix


def test_frees_blob_report_addresses_the_pin_and_cites_the_free_contract():
    report = executorch_frees_blob.executorch_frees_blob(executorch_matrix())
    assert "openvino>=2025.1.0,<2026.0.0" in report
    assert '"if the data is not needed after init()"' in report
    assert "runtime/backend/interface.h#L69-L70" in report
    assert "runtime/executor/method.cpp#L118-L120" in report
    backend = "backends/openvino/runtime/OpenvinoBackend.cpp"
    assert f"blob/{executorch_issue.EXECUTORCH_MAIN}/{backend}#L162-L175" in report


def test_frees_blob_report_shows_the_patched_run_or_says_it_was_not_run():
    report = executorch_frees_blob.executorch_frees_blob(executorch_matrix())
    fix = report_markdown_block(report, "## Proposed fix")
    assert "OpenVINO 2026.4.1 (exit 0):\n\n```\nOK: every run equals eager\n```" in fix
    assert md_block("\n".join(executorch_frees_blob.rebuild_lines()), "sh") in fix
    unpatched = executorch_frees_blob.executorch_frees_blob(executorch_matrix(patched_by_path=False))
    assert "OpenVINO 2026.4.1: not run in this matrix." in report_markdown_block(unpatched, "## Proposed fix")


def test_channels_last_report_has_the_dim_order_cases_and_the_op_test_results():
    report = executorch_channels_last.executorch_channels_last(executorch_matrix())
    assert "| Conv2d(3, 3, 1)(x), x channels-last | wrong | 1.31 |" in report
    assert "return x.clone()" not in report, "only the dim-order cases"
    assert "| `test_channels_last_input` | passed | failed |" in report
    assert "OpenvinoBackend::create_ov_tensor" in report


def test_semantics_report_states_the_cpu_facts_from_openvinos_docs_and_has_the_op_test_results():
    report = executorch_semantics.executorch_semantics(executorch_matrix())
    bug = report_markdown_block(report, "## 🐛 Describe the bug")
    assert f"[CPU device documentation]({executorch_semantics.CPU_DOCS})" in bug
    for fact in ("computed in 32 bits", "saturates", "float64 is computed in float32", "openvino#38166"):
        assert fact in bug
    assert "| `test_int64_square` | passed | failed |" in report


EMPTY_CONSTANTS_OUTPUT = "\n".join([
    "executorch 1.5.1, torch 2.13.0+cpu", "OnlyAnEmptyConstant, none partitioner, loaded from bytes: max |diff| 0",
    "OnlyAnEmptyConstant, none partitioner, loaded from path : [tensor_parser_portable.cpp:189] "
    "getTensorDataPtr() failed: 0x23", "BUG REPRODUCED"])


def test_empty_constants_is_a_comment_for_the_open_pull_request_not_a_new_issue():
    matrix = executorch_matrix()
    for row in matrix["rows"]:
        row["executorch_empty_constants"] = {"exit_code": 1, "output": EMPTY_CONSTANTS_OUTPUT}
        row["executorch_releases"] = {"1.5.1": {"executorch_empty_constants": row["executorch_empty_constants"]}}
    report = executorch_empty_constants.executorch_empty_constants(matrix)
    assert report.startswith("# Comment for pytorch/executorch#22788: ")
    for heading in ("## What we add", "## To reproduce", "## Versions"):
        assert heading in report
    for claim in ("**Delegation produces it.**", "**By path only.**", "**A check for files already shipped**",
                  "**A user-side fix until a release has the PR**",
                  "Does the PR fix these reproducers? Not tested"):
        assert claim in report
    assert "Proposed fix" not in report, "the PR has the fix"
    assert "Describe the bug" not in report, "not an issue template"
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b", report, re.IGNORECASE)
    assert executorch_empty_constants.EMPTY_CONSTANTS_REPRODUCER.read_text().rstrip() in report
    assert f"OpenVINO 2026.4.1 (exit 1):\n\n```\n{EMPTY_CONSTANTS_OUTPUT}\n```" in report
    assert "ExecuTorch releases measured: 1.5.1." in report
    main = f"blob/{executorch_issue.EXECUTORCH_MAIN}"
    for line in ("runtime/executor/program.cpp#L433", "extension/data_loader/mmap_data_loader.cpp#L187-L188",
                 "extension/data_loader/file_data_loader.cpp#L165-L166"):
        assert f"{main}/{line}" in report


@pytest.mark.parametrize("name", upstream_reports.REPORTS)
def test_each_reports_main_text_is_at_most_600_words_the_rest_collapsed(recorded_matrix, name):
    """What a maintainer reads to triage (summary, steps, expected and actual, releases, the cause in a
    paragraph); reproducers, logs, patches and per-release detail sit in <details> blocks."""
    for matrix in (recorded_matrix, executorch_matrix()):
        report = upstream_reports.REPORTS[name](matrix)
        assert report.count("<details>") == report.count("</details>")
        words = report_markdown.words(report_markdown.main_text(report))
        assert words <= MAIN_TEXT_WORDS, (name, words)


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_says_what_was_not_run(render):
    report = render(import_matrix(IMPORT_RECORDED))
    assert "OpenVINO 2026.4.1: not run in this matrix." in report
    assert "exit -11" not in report, "nothing measured is pasted by hand"


# Where an index in a printed line is not reachable (download.pytorch.org is not, here: torch's CPU wheel comes
# from the machine's own pip configuration), pip should not retry it for minutes.
NO_RETRIES = {**os.environ, "PIP_RETRIES": "0"}


@pytest.mark.parametrize("openvino", [executorch_issue.SUPPORTED_OPENVINO, executorch_issue.NEWEST_OPENVINO])
def test_executorch_install_lines_resolve_as_printed(tmp_path, openvino):
    """Each printed line, run by pip as a dry run into an empty environment: torch is the CPU build of the pinned
    release, and nothing pulls in CUDA."""
    resolved = {}
    for number, line in enumerate(executorch_issue.install_lines(openvino)):
        assert line.startswith("pip install ")
        report = tmp_path / f"{number}.json"
        result = run_cli("python", "-m", *shlex.split(line), "--dry-run", "--ignore-installed", "--quiet",
                         "--report", report, env=NO_RETRIES, timeout=900)
        assert result.returncode == 0, result.stderr[-3000:]
        resolved.update({item["metadata"]["name"].lower(): item["metadata"]["version"]
                         for item in json.loads(report.read_text())["install"]})
    pins = executorch_issue.pins()
    assert resolved["torch"].split("+")[0] == pins["torch"]
    assert resolved["executorch"] == pins["executorch"]
    assert (resolved["openvino"], resolved["nncf"]) == (openvino, pins["nncf"])
    assert not [name for name in resolved if name.startswith("nvidia")], resolved


def test_write_reports_writes_every_report(tmp_path):
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
    (["--versions", "2026.4.1", "--executorch-source", "/tmp"], "--executorch-source goes with --executorch"),
    (["--versions", "2026.4.1", "--executorch", "--executorch-source", "/proc"], "is not an ExecuTorch checkout"),
    (["--versions", "2026.4.1", "--executorch-versions", "1.5"], "not an ExecuTorch release like 1.5.1: ['1.5']"),
], ids=["jobs_0", "jobs_negative", "out", "reports", "cache", "unknown_release", "source_alone",
        "source_not_a_checkout", "executorch_series"])
def test_bad_input_is_one_line_and_exit_2_before_anything_is_written(tmp_path, arguments, message):
    out = tmp_path / "matrix"
    out.mkdir()
    (out / "matrix.json").write_text("earlier results")
    defaults = [] if "--out" in arguments else ["--out", str(out)]
    defaults += [] if "--cache" in arguments else ["--cache", str(tmp_path / "envs")]
    # $EXECUTORCH_SOURCE (a real checkout or not) is read only with --executorch: it changes none of these.
    env = {**os.environ, "EXECUTORCH_SOURCE": str(tmp_path)}
    result = run_cli("python", REPRO / "matrix.py", *arguments, *defaults, env=env, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert message in line
    assert (out / "matrix.json").read_text() == "earlier results"
    assert not (tmp_path / "envs").exists() or not any((tmp_path / "envs").iterdir())


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
