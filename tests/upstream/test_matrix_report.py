"""repro/reports/matrix_report.py: the release tables of matrix.md (one column per API and order, failures
as rows, the import column, ExecuTorch releases side by side)."""

from repro.reports import matrix_report
from tests.support.recorded_matrix import executorch_releases_row, failure_row, recorded_rows


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


def test_release_table_has_the_import_column(recorded_matrix):
    table = matrix_report.release_table(recorded_matrix["rows"]).splitlines()
    column = table[0].split("|").index(f" {matrix_report.IMPORT_COLUMN} ")
    cells = {line.split("|")[1].strip(): line.split("|")[column].strip() for line in table[2:]}
    assert cells["2026.4.1"] == "**yes**"
    assert cells["2025.2.0"] == "no"
    assert cells["2024.0.0"] == "-", "2024.0.0 has no C API: could not test, not 'no'"


def test_matrix_shows_each_executorch_release_side_by_side():
    table = matrix_report.executorch_release_table([executorch_releases_row()]).splitlines()
    assert table[0].startswith("| OpenVINO | executorch | ExecuTorch path (stock) |")
    assert [line.split(" | ")[1] for line in table[2:]] == ["1.3.1", "1.4.1", "1.5.1"]
    assert "could not install: pip install failed" in table[2]
    assert table[3].endswith("| BUG REPRODUCED | BUG REPRODUCED | - | - |"), "no empty-constants, semantics runs"
    assert matrix_report.executorch_release_table([failure_row("bug", "")]) == "", "one release: no table"
