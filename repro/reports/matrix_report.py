"""Turning the matrix's rows into the release table and its summary (the upstream reports built
from the same rows are listed in ``repro/reports/upstream.py``).

Pure functions over rows (``repro/reports/matrix_row.py``'s ``MatrixRow``, as ``repro/matrix.py`` writes
them), so they are tested on recorded results without installing anything.
"""

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from packaging.version import Version

from repro.harness.cases.outcomes import describe_counts
from repro.reports import markdown as md
from repro.reports import release_boundaries
from repro.reports.matrix_row import CommandRun, Matrix, MatrixRow, RowStatus, Summary
from repro.reports.release_boundaries import own_cpu_runs, program_verdict

APIS = {"python": "Python", "c": "C", "cpp": "C++"}
ORDERS = {"inputs_first": "inputs first", "outputs_first": "outputs first"}
SYMPTOMS = {"stale_output": "stale output", "wrong_downstream": "wrong sin",
            "input_overwritten": "input overwritten", "input_slot_is_output_buffer": "shared slot"}
COLUMNS = [(api, order) for api in APIS for order in ORDERS]
STATUS_MEANING: dict[str, str] = {
    RowStatus.BUG: "bug reproduced", RowStatus.OK: "behaves correctly",
    RowStatus.UNTESTABLE: "could not test (exit 125)", RowStatus.INSTALL_FAILED: "could not install",
    RowStatus.CRASHED: "crashed", RowStatus.TIMEOUT: "timed out", RowStatus.ERROR: "script failed",
}


IMPORT_COLUMN = "C API import reads the caller's buffer after returning"

T = TypeVar("T")

def label(column: tuple[str, str]) -> str:
    api, order = column
    return f"{APIS[api]}, {ORDERS[order]}"


def symptom_cells(plain: dict[str, Any] | None) -> dict[tuple[str, str], set[str] | None]:
    """{(api, order): set of symptoms seen over the plain reproducer's own models on the CPU device, or None
    where that API did not run}."""
    cells = dict.fromkeys(COLUMNS)
    for run in own_cpu_runs(plain):
        seen = cells[(run["api"], run["order"])] or set()
        cells[(run["api"], run["order"])] = seen | {name for name, value in run["symptoms"].items() if value}
    return cells


def symptoms_text(seen: set[str] | None) -> str:
    if seen is None:
        return "-"
    return ", ".join(SYMPTOMS[name] for name in SYMPTOMS if name in seen) or "correct"


def by_release(rows: Iterable[MatrixRow]) -> list[MatrixRow]:
    return sorted(rows, key=lambda row: Version(row["release"]))


def summarize(rows: list[MatrixRow], available: Sequence[str] = ()) -> Summary:
    """Where each signal (``repro/reports/release_boundaries.py``) is yes and no, and how many rows ended in each
    status."""
    return {"boundaries": [release_boundaries.describe(rows, signal, available)
                           for signal in release_boundaries.SIGNALS],
            "statuses": dict(Counter(str(row["status"]) for row in rows))}


def executorch_cell(report: dict[str, Any] | None) -> str:
    """Outcome counts of the ExecuTorch path's cases, per way of loading (``counts`` in its JSON)."""
    if not report:
        return "-"
    if "counts" not in report:
        return str(report.get("verdict", "-"))
    return str(describe_counts(report["counts"]))


def neighbour_groups(rows: Iterable[MatrixRow], key: Callable[[MatrixRow], T]) -> list[tuple[T, str]]:
    """[(key, "2024.3.0 to 2025.2.0 (7)")] for each run of neighbouring rows (release order) whose key(row) is
    the same: how the reports collapse a release table."""
    groups: list[tuple[T, list[str]]] = []
    for row in by_release(rows):
        if groups and groups[-1][0] == key(row):
            groups[-1][1].append(row["release"])
        else:
            groups.append((key(row), [row["release"]]))
    return [(value, releases[0] if len(releases) == 1 else f"{releases[0]} to {releases[-1]} ({len(releases)})")
            for value, releases in groups]


def cell(value: bool | None) -> str:
    return {True: "**yes**", False: "no", None: "-"}[value]


def release_table(rows: list[MatrixRow]) -> str:
    """One row per release: its status, one column per API and call order listing the symptoms seen, the
    import column, the ExecuTorch path (when run) and the note."""
    with_executorch = any(row.get("executorch") for row in rows)
    header = ["release", "status", *(label(c) for c in COLUMNS), IMPORT_COLUMN]
    header += (["ExecuTorch path (stock)"] if with_executorch else []) + ["note"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in by_release(rows):
        cells = symptom_cells(row.get("plain"))
        status = row["status"] or ""
        values = [row["release"], STATUS_MEANING.get(status, status)]
        values += [symptoms_text(cells[c]) for c in COLUMNS]
        values.append(cell(program_verdict(row.get("import_lifetime"))))
        values += [executorch_cell(row.get("executorch"))] if with_executorch else []
        values.append((row.get("detail") or "").replace("|", "/").replace("\n", " ")[:160])
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines)


def last_line(run: CommandRun | None) -> str:
    """The last line a reproducer printed itself (its verdict), or "-" where it did not run."""
    output = (run or {}).get("stdout") or (run or {}).get("output") or ""
    return output.strip().splitlines()[-1] if output.strip() else "-"


def executorch_release_table(rows: list[MatrixRow]) -> str:
    """One line per OpenVINO release and ExecuTorch release run (``--executorch-versions``): the stock path's
    counts and the verdicts of the two ExecuTorch reproducers; empty when one ExecuTorch release was run."""
    runs = [(row["release"], executorch, result) for row in by_release(rows)
            for executorch, result in sorted((row.get("executorch_releases") or {}).items(),
                                             key=lambda item: Version(item[0]))]
    if len({executorch for _, executorch, _ in runs}) < 2:
        return ""
    reproducers = ("executorch_by_path", "executorch_channels_last", "executorch_empty_constants",
                   "executorch_semantics")
    lines = [[openvino, executorch, f"could not install: {result['install_failed'][:120]}", "-", "-", "-", "-"]
             if "install_failed" in result else
             [openvino, executorch, executorch_cell(result.get("executorch")),
              *(last_line(result.get(field)) for field in reproducers)]
             for openvino, executorch, result in runs]
    return md.table(["OpenVINO", "executorch", "ExecuTorch path (stock)", "executorch_frees_blob.py",
                     "executorch_channels_last.py", "executorch_empty_constants.py", "executorch_semantics.py"],
                    lines)


def summary_lines(summary: Summary) -> str:
    lines = [f"- {line}" for line in summary["boundaries"]]
    lines.append("- rows by status: " + ", ".join(f"{STATUS_MEANING.get(k, k)} {v}"
                                                 for k, v in sorted(summary["statuses"].items())))
    return "\n".join(lines)


def render_markdown(matrix: Matrix) -> str:
    return (f"# OpenVINO release matrix\n\n{matrix['index_note']}\n\n"
            "Cells: the symptoms `plain_openvino.py` saw in that API and call order over its own models on the "
            "CPU device (\"correct\" = none), - = not run (e.g. no C API in that wheel).\n\n"
            f"{release_table(matrix['rows'])}\n\n" + (f"## ExecuTorch releases\n\n{table}\n\n" if (
                table := executorch_release_table(matrix["rows"])) else "")
            + f"## Where each symptom starts and ends\n\n{summary_lines(matrix['summary'])}\n")
