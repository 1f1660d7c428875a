"""The OpenVINO issue body for the stale copies, as a CPU-plugin maintainer acts on it in five minutes.

Laid out like OpenVINO's bug template: a ``[Bug]:`` title, the environment fields (CPU with its ISA
flags, ``OPTIMIZATION_CAPABILITIES``, ``INFERENCE_PRECISION_HINT``), the exact install and run lines,
the Python snippet and the C++ program (``attachments/openvino_stale_copies.{py,cpp}``) with
their output pasted verbatim, one release table (one column per API and call order, listing the
symptoms), where each symptom starts and ends (``repro/reports/release_boundaries.py``), then the cause with
pointers into OpenVINO's sources. Everything measured comes from the matrix's rows; what the rows do
not show is said, not guessed.
"""

import re
from collections.abc import Sequence

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_report import (
    COLUMNS,
    by_release,
    executorch_cell,
    label,
    neighbour_groups,
    symptom_cells,
    symptoms_text,
)
from repro.reports.matrix_row import Matrix, MatrixRow, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields

MINIMAL_REPRODUCER = md.attachment("openvino_stale_copies.py")
CPP_REPRODUCER = md.attachment("openvino_stale_copies.cpp")
# The signals this report states (the import's lifetime is the other OpenVINO report's).
SIGNALS = ["stale output", "outputs first wrong too", "input overwritten", "shared slot", "C API in the wheel",
           "C++ headers in the wheel"]
CPP_BUILD = commands.cpp_build(CPP_REPRODUCER.name)
REPOSITORY = "https://github.com/openvinotoolkit/openvino"
# (file, function, what it does here, where the quoted code was read): the 2026.4 sources were not
# readable here, so each line says which sources it was read in; the permalink goes to the build tested.
POINTERS = [
    ("src/core/src/op/result.cpp", "Result::validate_and_infer_types",
     "`descriptor::set_shared_tensor(get_output_descriptor(0), get_input_descriptor(0))`: a Result shares its "
     "input's tensor descriptor", "at 0810231, 2025; later sources pass a third argument"),
    ("src/inference/src/dev/icompiled_model.cpp", "ICompiledModel::ICompiledModel",
     "keeps that sharing in the compiled model's ports (`tensor_map`, `set_tensor_ptr`)", "in PR #18379's diff"),
    ("src/inference/src/dev/isync_infer_request.cpp", "ISyncInferRequest::set_tensor",
     "`m_tensors` is keyed by the port's `get_tensor_ptr()`, so setting output 0 replaces input 0's entry",
     "at 254d362, 2025"),
    ("src/plugins/intel_cpu/src/infer_request.cpp", "SyncInferRequest::change_default_ptr / push_input_data",
     "bind graph edges to the caller's memory, then push `get_tensor(input)`, now output 0's buffer; "
     "`Graph::PushInputData` (`graph.cpp`) copies when the pointers differ", "at c6e4de2, 2025"),
]
BUILD_COMMIT = re.compile(r"-([0-9a-f]{7,40})-")


def newest_bug_row(rows: list[MatrixRow]) -> MatrixRow | None:
    buggy = [row for row in by_release(rows) if row["status"] == "bug" and row.get("plain")]
    return buggy[-1] if buggy else None


def snippet_output(row: MatrixRow) -> str | None:
    """What the snippet printed where it ran to the end (exit 1: the bug shows, 0: it does not)."""
    snippet = row.get("snippet") or {}
    return snippet.get("output") if snippet.get("exit_code") in (0, 1) else None


def snippet_runs(measured: list[MatrixRow]) -> str:
    """A sentence: on which releases of the table the snippet ran unchanged, and where it did not."""
    ran = [row["release"] for row in by_release(measured) if snippet_output(row)]
    failed = [f"{row['release']} (exit {recorded(row, 'snippet')['exit_code']})" for row in by_release(measured)
              if row.get("snippet") and not snippet_output(row)]
    missing = [row["release"] for row in by_release(measured) if not row.get("snippet")]
    text = (f"It ran unchanged on every release in the table ({ran[0]} to {ran[-1]})." if ran and not (
        failed or missing) else f"It ran unchanged on {', '.join(ran) or 'no release'}.")
    text += f" It failed on {', '.join(failed)}." if failed else ""
    return text + (f" Not run on {', '.join(missing)}." if missing else "")


def same_on_every_device(row: MatrixRow) -> bool:
    """True when the snippet printed the same checks for CPU, AUTO:CPU and HETERO:CPU."""
    lines = (snippet_output(row) or "").splitlines()[1:]
    checks = {line.split(": ", 1)[1] for line in lines if ": " in line}
    return len(lines) == 3 and len(checks) == 1


def environment_section(newest: MatrixRow) -> str:
    devices = ("`AUTO:CPU` and `HETERO:CPU` give the same wrong values (the snippet runs all three)"
               if same_on_every_device(newest) else "the snippet also runs `AUTO:CPU` and `HETERO:CPU`")
    return template_fields(
        newest, device_note=devices,
        framework="PyTorch → `torch.export` → ExecuTorch (OpenVINO delegate); the reproducers below use OpenVINO "
                  "alone",
        model="synthetic opset graph, `x → Result` and `x → Sin → Result` (what OpenVINO's PyTorch frontend makes "
              "of `y = x.clone(); return y, torch.sin(y)`)")


def first_bad(rows: list[MatrixRow], signal: str, available: Sequence[str]) -> str:
    """"present in every release on the index, oldest X" when the oldest release on the index shows it and
    no measured release is without it; else the first measured release that shows it."""
    first = boundaries.first_release_with(rows, signal)
    seen = [value for _, value in boundaries.measured(rows, signal)]
    if first and available and first == available[0] and all(seen):
        return f"present in every release on the index, oldest {first}"
    return f"from {first}" if first else "not seen"


def oldest_row(rows: list[MatrixRow]) -> MatrixRow | None:
    ran = [row for row in by_release(rows) if snippet_output(row)]
    return ran[0] if ran else None


def reproduction(rows: list[MatrixRow], newest: MatrixRow) -> str:
    release = newest["release"]
    oldest = oldest_row(rows)
    older = (f"\n\nOn the oldest release in the table (numpy 2 came with 2024.2.0):\n\n"
             f"{md.code_block(commands.install_line(oldest['release']), 'sh')}"
             if oldest and oldest["release"] != release else "")
    measured = [row for row in rows if row.get("plain")]
    headers_from = boundaries.first_release_with(rows, "C++ headers in the wheel")
    wheels = f"wheels from {headers_from} on" if headers_from else "wheels that ship `include/`"
    return f"""\
1. Install OpenVINO's wheel and numpy, nothing else:

{md.code_block(commands.install_line(release), 'sh')}{older}

2. Save as `{MINIMAL_REPRODUCER.name}` (below) and run it; it exits 1 when the bug shows, 0 when not
(`git bisect run`):

{md.details(MINIMAL_REPRODUCER.name, md.code_block(MINIMAL_REPRODUCER.read_text()))}

{md.code_block(f"python {MINIMAL_REPRODUCER.name}", 'sh')}

Expected: `True` for the three value checks, and `False` for the last (input 0 should stay the caller's
x). {snippet_runs(measured)}

3. The same in C++ (`{CPP_REPRODUCER.name}`; {wheels} ship the headers and
`cmake/OpenVINOConfig.cmake`), built and run against the wheel in the folder holding it:

{md.details(f"{CPP_REPRODUCER.name} and its build lines (the libstdc++ ABI is the wheel's, `0` for "
            "2024.3.0 to 2025.4.1, `1` from 2026.0.0)",
            md.code_block(CPP_REPRODUCER.read_text(), 'cpp') + chr(10) * 2 + md.code_block(CPP_BUILD, 'sh'))}"""


def cpp_rows(rows: list[MatrixRow]) -> list[MatrixRow]:
    return [row for row in by_release(rows) if (row.get("plain") or {}).get("cpp_output")]


def log_output(rows: list[MatrixRow], newest: MatrixRow) -> str:
    oldest = oldest_row(rows)
    shown = [oldest, newest] if oldest and oldest["release"] != newest["release"] else [newest]
    parts = [f"`python {MINIMAL_REPRODUCER.name}` on {row['release']}:\n\n"
             f"{md.code_block(output, 'text')}" for row in shown if (output := snippet_output(row))]
    built = cpp_rows(rows)
    parts += [f"The C++ program on {row['release']}:\n\n"
              f"{md.code_block(recorded(row, 'plain')['cpp_output'], 'text')}"
              for row in ([built[0], built[-1]] if len(built) > 1 else built)]
    if not built:
        parts.append("(The C++ program was not built in this run: no release with headers, or no compiler.)")
    return "\n\n".join(parts)
def grouped_table(measured: list[MatrixRow]) -> str:
    """One line per stretch of neighbouring releases that saw the same symptoms in every column."""
    def symptoms(row: MatrixRow) -> tuple[str, ...]:
        cells = symptom_cells(row["plain"])
        return tuple(symptoms_text(cells[column]) for column in COLUMNS)

    lines = [[stretch, *key] for key, stretch in neighbour_groups(measured, symptoms)]
    return md.table(["releases (count)", *(label(column) for column in COLUMNS)], lines)


def releases(rows: list[MatrixRow], available: Sequence[str]) -> str:
    measured = [row for row in rows if row.get("plain")]
    lines = [boundaries.describe(rows, signal, available) for signal in SIGNALS]
    return f"""\
Symptoms seen by `plain_openvino.py` (the two models above and a dynamic-batch one) per API and call
order; "-": that API was not run (no C API or C++ headers in the wheel).

{grouped_table(measured)}

Where each symptom starts and ends (releases measured; a change is located to neighbouring releases
on the index unless a gap is named):

{md.bullets(lines)}"""


def mechanism(rows: list[MatrixRow]) -> str:
    """At most four bullets, each saying whether it was measured here or read in OpenVINO's sources."""
    shared_from = boundaries.first_release_with(rows, "shared slot")
    fixed = boundaries.first_release_without(rows, "outputs first wrong too")
    together = (f"; {shared_from} is also where the outputs-first order became right" if shared_from and
                shared_from == fixed else "")
    overwritten = boundaries.first_release_with(rows, "input overwritten")
    return md.bullets([
        "**Measured**: after `set_output_tensor(0, t)`, `get_input_tensor(0)` returns `t`'s buffer (the snippet's "
        f"last check) from {shared_from or 'no release measured'} on{together}: the request keeps one tensor for "
        "a Parameter and the Result it feeds, so the last `set_*_tensor` wins.",
        "**Read in source**: a Result shares its input's tensor descriptor, the compiled model keeps that sharing "
        "in its ports, and the request keys its tensors by that shared descriptor (first three pointers below).",
        "**Read in source**: the CPU plugin binds the Parameter's edges to the caller's memory, then pushes the "
        "input port's tensor — now output 0's buffer. With Sin as a second consumer the edge stays on x, so "
        "output 0's old contents are copied into x (input overwritten, Sin wrong); with `x → Result` alone the "
        "edge is rebound to output 0's buffer and nothing is written (output stale, input intact).",
        f"**Measured**: the input is overwritten from {overwritten or 'no release measured'} on. Read in source: "
        "the plugin keys the caller's tensors by index there, not by name (`m_external_ptr` at 004ee67, "
        "`m_input_external_ptr` / `m_output_external_ptr` at c6e4de2), likely from PR #23035 \"[CPU Plugin] "
        "Clean legacy name\" (likely, not proven). PR #23564 (\"Add test case for parameter->result tensor "
        "sharing\", merged 2024-03, between 2024.0.0 and 2024.1.0) sits at the same boundary: a Parameter and "
        "a Result sharing one tensor is tested, so the sharing is intended; we read its title only, so we "
        "cannot say whether it covers a caller's output set after the input, the order that goes wrong here.",
    ])


def build_commit(rows: list[MatrixRow], newest: MatrixRow) -> str | None:
    """The commit in the tested wheel's build number (``2026.4.1-22982-e213a147257-releases/2026/4``)."""
    found = BUILD_COMMIT.search(recorded(newest, "plain")["environment"].get("openvino", ""))
    return found[1] if found else newest["release"]


def pointers(rows: list[MatrixRow], newest: MatrixRow) -> str:
    commit = build_commit(rows, newest)
    lines = [f"[`{path}`]({REPOSITORY}/blob/{commit}/{path}), `{function}`: {what} (read {read_at})"
             for path, function, what, read_at in POINTERS]
    return (f"Permalinks at {commit}, the commit of the {newest['release']} wheel tested (its build number); "
            "the 2026.4 sources were not readable where this was written, so each line says which sources "
            "its quote was read in: find it by the function's name.\n\n" + md.bullets(lines))


def openvino_stale_copies(matrix: Matrix) -> str:
    """The issue body, from the matrix's rows (and the index's releases, to name what was not run)."""
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = newest_bug_row(rows)
    if newest is None:
        return md.issue("No release run reproduces the stale copies", [("Releases", releases(rows, available))])
    fixed = boundaries.first_release_without(rows, "outputs first wrong too")
    overwritten = boundaries.first_release_with(rows, "input overwritten")
    executorch = [row for row in by_release(rows) if (row.get("executorch") or {}).get("counts")]
    return md.render(
        "openvino_stale_copies",
        outputs_first_from=f" from {fixed} on" if fixed else "",
        stale_output=first_bad(rows, "stale output", available),
        input_overwritten=first_bad(rows, "input overwritten", available),
        environment=md.collapsed("OpenVINO, OS, CPU, build", environment_section(newest)),
        reproduction=reproduction(rows, newest),
        log_output=md.collapsed("What the reproducers print, verbatim", log_output(rows, newest)),
        releases=md.collapsed("Per release", releases(rows, available)),
        mechanism=md.collapsed("What each boundary changed, measured and read in source", mechanism(rows)),
        pointers=md.collapsed("Links", pointers(rows, newest)),
        outputs_first_right=f", from {fixed} on" if fixed else "",
        overwritten_from=f"from {overwritten} on" if overwritten else "not seen in this run",
        executorch_measured=(f" On {executorch[-1]['release']} the ExecuTorch path gives: "
                             f"{executorch_cell(executorch[-1]['executorch'])} (catalogue cases with the stock "
                             "OpenvinoPartitioner, compared with eager PyTorch)." if executorch else ""),
        checklist=md.collapsed("Checked", CHECKLIST))
