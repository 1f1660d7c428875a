"""repro/matrix_runs.py, the matrix's runner: a release whose run fails becomes a row saying how, each
ExecuTorch release gets an environment of its own, a built C/C++ attachment is kept, and one real run over
the installed series bisects to every boundary (marked ``matrix``)."""

import json
import re
import sys

import pytest

from repro import attachment_commands as commands
from repro import dependencies, matrix_runs, releases
from repro.reports import upstream as upstream_reports
from repro.reports.matrix_row import MatrixRow
from tests.support.helpers import PROJECT, REPRO, run_cli, table_line


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


def test_a_release_that_cannot_install_leaves_no_environment_and_says_which_step_failed(tmp_path):
    # uv where it is on the PATH (the test envs install it), this interpreter's pip otherwise
    with pytest.raises(matrix_runs.InstallFailed, match=r"^(uv pip|python\S* -m pip) failed: .*openvino==1\.0\.0"):
        matrix_runs.prepare_environment(tmp_path, "1.0.0", None, timeout=300)
    assert not list(tmp_path.iterdir())


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
    # The releases the bisection added ran no timed reproducer (no boundary is bisected on them): the cost
    # reports name them.
    timed = [row["release"] for row in rows if row["compressed_matmul"] or row["state_cache_update"]]
    assert timed == ["2026.4.1"], timed
    cost = (tmp_path / "reports" / "openvino-compressed-matmul.md").read_text()
    assert re.search(r"4-bit matmul slower per byte: (\*\*yes\*\*|no) 2026\.4\.1 \(.*; no timing on 2023\.0\.0, "
                     r"2023\.2\.0, .*2026\.4\.0: run for a boundary only", cost), cost
    constant_abs = (tmp_path / "reports" / "openvino-constant-abs.md").read_text()
    assert "First bad release: 2025.4.0; the release before it that was run, 2025.3.0, is fine." in constant_abs
    # A second run over one of those releases (the oldest, the quickest to run) reuses its environment.
    again = run_cli("python", REPRO / "matrix.py", "--versions", "2023.0.0", "--out", tmp_path / "again",
                    "--cache", PROJECT / ".matrix" / "envs", timeout=1800)
    assert "2023.0.0: running the plain reproducer (environment: cached)" in again.stderr, again.stderr


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
