"""Turning the matrix's rows into the release table and its summary (the upstream reports built
from the same rows are in ``repro/upstream_reports.py``).

Pure functions over rows (dicts written by ``repro/matrix.py``), so they are tested on
recorded results without installing anything. A row is::

    {"release", "requested", "status", "detail", "seconds",
     "plain": <plain_openvino.py --json report or None>,
     "import_lifetime": <import_lifetime.py --json report or None>,
     "executorch": <executorch_path.py --json report or None>}
"""

from collections import Counter

from packaging.version import Version

APIS = {"python": "Python", "c": "C"}
ORDERS = {"inputs_first": "inputs first", "outputs_first": "outputs first"}
SYMPTOMS = {"stale_output": "stale output", "wrong_downstream": "wrong sin",
            "input_overwritten": "input overwritten"}
COLUMNS = [(api, order, symptom) for api in APIS for order in ORDERS for symptom in SYMPTOMS]
STATUS_MEANING = {
    "bug": "bug reproduced", "ok": "behaves correctly", "untestable": "could not test (exit 125)",
    "install_failed": "could not install", "crashed": "crashed", "timeout": "timed out",
    "error": "script failed",
}


IMPORT_COLUMN = "C API import reads the caller's buffer after returning"


def label(column):
    api, order, symptom = column
    return f"{APIS[api]}, {ORDERS[order]}: {SYMPTOMS[symptom]}"


def symptom_cells(plain):
    """{column: True / False / None (not run)} over the plain reproducer's own models."""
    cells = dict.fromkeys(COLUMNS)
    for run in (plain or {}).get("runs", []):
        if run["model"].startswith("torch:") or not run["symptoms"]:
            continue
        for symptom, seen in run["symptoms"].items():
            column = (run["api"], run["order"], symptom)
            if seen is not None:
                cells[column] = bool(cells[column]) or seen
    return cells


def by_release(rows):
    return sorted(rows, key=lambda row: Version(row["release"]))


def summarize(rows):
    """First and last release showing each symptom column, releases whose control order is
    wrong too, and how many rows ended in each status."""
    ordered = [row for row in by_release(rows) if row.get("plain") or row.get("import_lifetime")]
    first_last = {}
    for column in COLUMNS:
        showing = [row["release"] for row in ordered if symptom_cells(row["plain"])[column]]
        first_last[label(column)] = [showing[0], showing[-1]] if showing else None
    importing = [row["release"] for row in ordered if import_reads_caller_buffer(row.get("import_lifetime"))]
    first_last[IMPORT_COLUMN] = [importing[0], importing[-1]] if importing else None
    control_wrong = [row["release"] for row in ordered
                     if any(symptom_cells(row["plain"])[c] for c in COLUMNS if c[1] == "outputs_first")]
    return {"first_last": first_last, "control_order_also_wrong": control_wrong,
            "statuses": dict(Counter(row["status"] for row in rows))}


def executorch_cell(report):
    """Outcome counts of the ExecuTorch path's cases, per way of loading (``counts`` in its JSON)."""
    if not report:
        return "-"
    if "counts" not in report:
        return report.get("verdict", "-")
    return "; ".join(f"{load}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counter.items()))
                     for load, counter in report["counts"].items() if counter)


def import_reads_caller_buffer(report):
    """True / False from import_lifetime.py's exit code; None where it could not test or did not run."""
    return {0: False, 1: True}.get((report or {}).get("exit_code"))


def cell(value):
    return {True: "**yes**", False: "no", None: "-"}[value]


def release_table(rows):
    with_executorch = any(row.get("executorch") for row in rows)
    header = ["release", "status"] + [label(c) for c in COLUMNS] + [IMPORT_COLUMN] + (
        ["ExecuTorch path (stock)"] if with_executorch else []) + ["note"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in by_release(rows):
        cells = symptom_cells(row.get("plain"))
        values = [row["release"], STATUS_MEANING.get(row["status"], row["status"])]
        values += [cell(cells[c]) for c in COLUMNS]
        values.append(cell(import_reads_caller_buffer(row.get("import_lifetime"))))
        values += [executorch_cell(row.get("executorch"))] if with_executorch else []
        values.append((row.get("detail") or "").replace("|", "/").replace("\n", " ")[:160])
        lines.append("| " + " | ".join(values) + " |")
    return "\n".join(lines)


def summary_lines(summary):
    lines = [f"- {name}: " + (f"first {span[0]}, last {span[1]}" if span else "never")
             for name, span in summary["first_last"].items()]
    control = summary["control_order_also_wrong"]
    lines.append("- control order (outputs first) also wrong in: " + (", ".join(control) if control else "none"))
    lines.append("- rows by status: " + ", ".join(f"{STATUS_MEANING.get(k, k)} {v}"
                                                 for k, v in sorted(summary["statuses"].items())))
    return "\n".join(lines)


def render_markdown(matrix):
    return (f"# OpenVINO release matrix\n\n{matrix['index_note']}\n\n"
            "Cells: **yes** = the symptom appeared in at least one of the plain reproducer's models, "
            "no = it did not, - = not run (e.g. no C API in that wheel).\n\n"
            f"{release_table(matrix['rows'])}\n\n## Summary\n\n{summary_lines(matrix['summary'])}\n")
