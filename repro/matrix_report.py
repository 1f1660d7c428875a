"""Turning the matrix's rows into the release table, its summary and the upstream report.

Pure functions over rows (dicts written by ``repro/matrix.py``), so they are tested on
recorded results without installing anything. A row is::

    {"release", "requested", "status", "detail", "seconds",
     "plain": <plain_openvino.py --json report or None>,
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
    "error": "script failed", "not_on_index": "not on the index",
}


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
    return sorted(rows, key=lambda row: Version(row["release"]) if row.get("release") else Version("0"))


def summarize(rows):
    """First and last release showing each symptom column, releases whose control order is
    wrong too, and how many rows ended in each status."""
    ordered = [row for row in by_release(rows) if row.get("plain")]
    first_last = {}
    for column in COLUMNS:
        showing = [row["release"] for row in ordered if symptom_cells(row["plain"])[column]]
        first_last[label(column)] = [showing[0], showing[-1]] if showing else None
    control_wrong = [row["release"] for row in ordered
                     if any(symptom_cells(row["plain"])[c] for c in COLUMNS if c[1] == "outputs_first")]
    return {"first_last": first_last, "control_order_also_wrong": control_wrong,
            "statuses": dict(Counter(row["status"] for row in rows))}


def executorch_cell(report):
    if not report:
        return "-"
    if "cases" not in report:
        return report.get("verdict", "-")
    counts = Counter(case["outcome"] for case in report["cases"])
    return ", ".join(f"{outcome} {count}" for outcome, count in sorted(counts.items()))


def cell(value):
    return {True: "**yes**", False: "no", None: "-"}[value]


def release_table(rows):
    with_executorch = any(row.get("executorch") for row in rows)
    header = ["release", "status"] + [label(c) for c in COLUMNS] + (["ExecuTorch path (stock)"] if with_executorch
                                                                     else []) + ["note"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in by_release(rows):
        cells = symptom_cells(row.get("plain"))
        values = [row.get("release") or row["requested"], STATUS_MEANING.get(row["status"], row["status"])]
        values += [cell(cells[c]) for c in COLUMNS]
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


MINIMAL_REPRODUCER = '''\
import numpy as np, openvino as ov, openvino.opset8 as ops

x = ops.parameter([2, 3], np.float32, name="x")
model = ov.Model([ops.result(x), ops.result(ops.sin(x))], [x], "param_result_and_sin")
request = ov.Core().compile_model(model, "CPU").create_infer_request()

data = np.random.default_rng(0).uniform(0.5, 1.5, (2, 3)).astype(np.float32)
original = data.copy()
copy_out, sin_out = np.full((2, 3), -7.0, np.float32), np.full((2, 3), -7.0, np.float32)
request.set_input_tensor(0, ov.Tensor(data, shared_memory=True))  # inputs first, as ExecuTorch does
request.set_output_tensor(0, ov.Tensor(copy_out, shared_memory=True))
request.set_output_tensor(1, ov.Tensor(sin_out, shared_memory=True))
request.infer()

print("output 0 == x:     ", np.array_equal(copy_out, original), copy_out[0])
print("output 1 == sin(x):", np.allclose(sin_out, np.sin(original), atol=1e-3), sin_out[0])
print("x left intact:     ", np.array_equal(data, original), data[0])
'''


def newest_bug_row(rows):
    buggy = [row for row in by_release(rows) if row["status"] == "bug" and row.get("plain")]
    return buggy[-1] if buggy else None


def diff_text(max_abs_diff):
    names = {"copy": "output 0", "downstream": "sin", "input": "x"}
    return ", ".join(f"{names[k]} {v:.3g}" for k, v in max_abs_diff.items() if v is not None)


def observed_lines(plain):
    lines = []
    for run in plain["runs"]:
        if run["api"] == "python" and run["model"] == "param_result_and_sin":
            seen = [SYMPTOMS[s] for s, v in run["symptoms"].items() if v] or ["nothing wrong"]
            expected, actual = ([round(v, 4) for v in run[key]] for key in ("expected", "actual"))
            lines.append(f"- {ORDERS[run['order']]}: expected output 0 = {expected}, got {actual}; "
                         f"{', '.join(seen)} (max |diff|: {diff_text(run['max_abs_diff'])})")
    return "\n".join(lines)


def also_reproduced(plain):
    """What else showed the bug in ExecuTorch's order on this release, from its own runs."""
    buggy = [r for r in plain["runs"] if r["order"] == "inputs_first" and any((r["symptoms"] or {}).values())]
    found = []
    if any(r["api"] == "c" for r in buggy):
        found.append("through the C API (`ov_core_import_model` of the exported blob, "
                     "`ov_tensor_create_from_host_ptr`, `ov_infer_request_set_input_tensor_by_index`, "
                     "`..._set_output_tensor_by_index`, `ov_infer_request_infer`)")
    if any(r["model"] == "param_result_and_sin_dynamic" for r in buggy):
        found.append("with a dynamic batch dimension")
    if any(r["model"] == "param_result_only" for r in buggy):
        found.append("when the Parameter feeds only the Result (output stale, input intact)")
    torch_models = [r["model"].removeprefix("torch:") for r in buggy if r["model"].startswith("torch:")]
    if torch_models:
        found.append("on models converted from `torch.export` programs of " + ", ".join(torch_models))
    return ("The same happens " + "; ".join(found) + ".") if found else ""


def first_to_last(summary, column):
    span = summary["first_last"][label(column)]
    return f"{span[0]} to {span[1]}" if span else "no release"


def render_report(matrix):
    """The upstream issue body: reads on its own, built from the matrix's measurements."""
    rows, summary = matrix["rows"], matrix["summary"]
    newest = newest_bug_row(rows)
    if newest is None:
        return "# No release reproduced the bug\n\n" + render_markdown(matrix)
    env, release = newest["plain"]["environment"], newest["release"]
    measured = [row for row in rows if row.get("plain")]
    buggy = [row for row in measured if row["status"] == "bug"]
    control = summary["control_order_also_wrong"]
    control_text = (f" (in {', '.join(control)} the outputs-first order is wrong too)" if control else "")
    executorch = [row for row in by_release(rows) if row.get("executorch", {}) and "cases" in row["executorch"]]
    impact = (f"On {executorch[-1]['release']} the ExecuTorch path gives: "
              f"{executorch_cell(executorch[-1]['executorch'])} (catalogue cases with the stock "
              "OpenvinoPartitioner, compared with eager PyTorch)." if executorch else "")
    return f"""\
# [CPU] Output fed directly by a Parameter is never written when set_output_tensor follows set_input_tensor

## Summary

When a compiled model has a Result fed directly by a Parameter — what the PyTorch frontend makes of
`x.clone()`, `x.detach()` or `x[:, :]` — and the caller sets the input tensor before the output
tensor (both wrapping user memory), the CPU plugin never writes that output: it keeps whatever the
buffer held. Outputs computed from the same input are computed from that stale buffer, and the
caller's input buffer can be overwritten with it. Setting the output tensor first avoids it{control_text}.
Reproduced in {len(buggy)} of the {len(measured)} releases we ran (stale output: {first_to_last(
        summary, ("python", "inputs_first", "stale_output"))}; input overwritten: {first_to_last(
        summary, ("python", "inputs_first", "input_overwritten"))}).

## Environment

- OpenVINO {env['openvino']} (pip wheel), numpy {env['numpy']}, Python {env['python']}
- {env['os']}
- CPU: {env['cpu']}

## Reproducer

```python
{MINIMAL_REPRODUCER}```

Expected: `True` three times. Observed on {release}:

{observed_lines(newest['plain'])}

{also_reproduced(newest['plain'])}

## Releases

{release_table(measured)}

{summary_lines(summarize(measured))}

## What we observed about the cause

- A Result shares its input's tensor descriptor, and for a Parameter→Result model the infer
  request appears to keep one slot for that input and that output: the last `set_*_tensor` call wins.
- The plugin then binds the graph edge to the user's output buffer and, at `infer()`, reads "the
  input" from it: the input is never read and the output never written. With other consumers of
  the Parameter, the edge stays bound to the input buffer and the stale output contents are copied
  into it.
- Related history: openvino PR #18379 (shared tensor for same-named ports), #19309 (closed, "Copy
  Result tensor for Param->Result subgraph"), #25954, #28945; issue #19743.

## Impact

ExecuTorch's OpenVINO runtime sets every input tensor, then every output tensor, then infers, so an
exported model that returns a copy of an input returns stale memory (a robot policy exported with
LeRobot returned wrong actions). {impact} Until this is fixed, ExecuTorch users can keep such copies
out of the OpenVINO partition (a partitioner rule: ExecuTorch's own kernel then makes the copy), and
check exported `.pte` files for delegate outputs fed by a Parameter.
"""
