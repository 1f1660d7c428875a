"""The OpenVINO issue body for the stale copies, as a CPU-plugin maintainer acts on it in five minutes.

Laid out like OpenVINO's bug template: a ``[Bug]:`` title, the environment fields (CPU with its ISA
flags, ``OPTIMIZATION_CAPABILITIES``, ``INFERENCE_PRECISION_HINT``), the exact install and run lines,
the Python snippet and the C++ program (``attachments/openvino_stale_copies.{py,cpp}``) with
their output pasted verbatim, one release table (one column per API and call order, listing the
symptoms), where each symptom starts and ends (``repro/reports/release_boundaries.py``), then the cause with
pointers into OpenVINO's sources. Everything measured comes from the matrix's rows; what the rows do
not show is said, not guessed.
"""

from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_report import COLUMNS, by_release, executorch_cell, label, symptom_cells, symptoms_text

MINIMAL_REPRODUCER = md.attachment("openvino_stale_copies.py")
CPP_REPRODUCER = md.attachment("openvino_stale_copies.cpp")
# The signals this report states (the import's lifetime is the other OpenVINO report's).
SIGNALS = ["stale output", "outputs first wrong too", "input overwritten", "shared slot", "C API in the wheel",
           "C++ headers in the wheel"]
# The libstdc++ ABI comes from the wheel's OpenVINOConfig.cmake: 0 in 2024.3.0 to 2025.4.1, 1 from 2026.0.0.
CPP_BUILD = """\
OV=$(python -c "import openvino, os; print(os.path.dirname(openvino.__file__))")
ABI=$(grep -o 'CXX11_ABI "[01]"' "$OV/cmake/OpenVINOConfig.cmake" | tr -dc 01)
g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=$ABI openvino_stale_copies.cpp -I"$OV/include" \\
    "$OV"/libs/libopenvino.so.* -Wl,-rpath,"$OV/libs" -o openvino_stale_copies
./openvino_stale_copies"""
SOURCES = "read in openvino's sources on GitHub (master, 2025)"


def newest_bug_row(rows):
    buggy = [row for row in by_release(rows) if row["status"] == "bug" and row.get("plain")]
    return buggy[-1] if buggy else None


def newest_with(rows, output):
    """The newest row whose ``output(row)`` is not empty, and that output."""
    found = [(row, text) for row in by_release(rows) if (text := output(row))]
    return found[-1] if found else (None, None)


def snippet_output(row):
    snippet = row.get("snippet") or {}
    return snippet.get("output") if snippet.get("exit_code") == 0 else None


def snippet_runs(measured):
    """A sentence: on which releases of the table the snippet ran unchanged, and where it did not."""
    ran = [row["release"] for row in by_release(measured) if snippet_output(row)]
    failed = [f"{row['release']} (exit {row['snippet']['exit_code']})" for row in by_release(measured)
              if row.get("snippet") and not snippet_output(row)]
    missing = [row["release"] for row in by_release(measured) if not row.get("snippet")]
    text = (f"It ran unchanged on every release in the table ({ran[0]} to {ran[-1]})." if ran and not (
        failed or missing) else f"It ran unchanged on {', '.join(ran) or 'no release'}.")
    text += f" It failed on {', '.join(failed)}." if failed else ""
    return text + (f" Not run on {', '.join(missing)}." if missing else "")


def template_fields(env, release):
    flags = f"; ISA flags: {env['cpu_flags']}" if env.get("cpu_flags") else ""
    capabilities = f"; `OPTIMIZATION_CAPABILITIES`: {env['optimization_capabilities']}" if env.get(
        "optimization_capabilities") else ""
    precision = (f"; `INFERENCE_PRECISION_HINT`: {env['inference_precision_hint']} (the default here; an explicit "
                 "f32 hint gives the same)" if env.get("inference_precision_hint") else "")
    return md.bullets([
        f"**OpenVINO Version**: {env['openvino']} (pip wheel `openvino=={release}`)",
        f"**Operating System**: {env.get('os', 'not recorded')}",
        f"**Device used for inference**: CPU ({env.get('cpu', 'not recorded')}{flags}{capabilities}{precision}); "
        "`AUTO:CPU` and `HETERO:CPU` give the same wrong values",
        "**Framework**: PyTorch → `torch.export` → ExecuTorch (OpenVINO delegate); the reproducers below use "
        "OpenVINO alone",
        "**Model used**: synthetic opset graph, `x → Result` and `x → Sin → Result` (what OpenVINO's PyTorch "
        "frontend makes of `y = x.clone(); return y, torch.sin(y)`)",
        f"Python {env.get('python', '?')}, numpy {env.get('numpy', '?')}",
    ])


def summary(rows):
    stale = boundaries.first_release_with(rows, "stale output")
    overwritten = boundaries.first_release_with(rows, "input overwritten")
    fixed = boundaries.first_release_without(rows, "outputs first wrong too")
    return f"""\
When a compiled model has a Result fed directly by a Parameter, and the caller sets the input tensor
before the output tensor (both over its own memory, the order ExecuTorch's OpenVINO runtime uses),
the CPU plugin never writes that output: it keeps whatever the buffer held. An output computed from
the same Parameter (Sin) is computed from that stale buffer, and the caller's input is overwritten
with it. Setting the output first gives the right values{f" from {fixed} on" if fixed else ""}.
First bad release: stale output {stale or "not seen"}, input overwritten {overwritten or "not seen"}
(see Releases for which releases were measured)."""


def reproduction(rows, newest):
    release, python_output = newest["release"], snippet_output(newest)
    cpp_row, cpp_output = newest_with(rows, lambda row: (row.get("plain") or {}).get("cpp_output"))
    python_part = (f"Output on {release}, verbatim:\n\n{md.code_block(python_output, 'text')}" if python_output
                   else "(The snippet was not run on this release.)")
    cpp_part = (f"Output on {cpp_row['release']}, verbatim:\n\n{md.code_block(cpp_output, 'text')}" if cpp_output
                else "(The C++ program was not built in this run: no release with headers, or no compiler.)")
    measured = [row for row in rows if row.get("plain")]
    headers_from = boundaries.first_release_with(rows, "C++ headers in the wheel")
    wheels = f"wheels from {headers_from} on" if headers_from else "wheels that ship `include/`"
    return f"""\
1. `pip install openvino=={release} numpy` (with `numpy<2` for 2023.0 to 2024.1)
2. Save as `{MINIMAL_REPRODUCER.name}` and run `python {MINIMAL_REPRODUCER.name}`:

{md.code_block(MINIMAL_REPRODUCER.read_text())}

Expected: `True` for the three value checks, and `False` for the last (input 0 should stay the caller's
x). {snippet_runs(measured)}

{python_part}

The same in C++ (`{CPP_REPRODUCER.name}`; {wheels} ship the headers and
`cmake/OpenVINOConfig.cmake`), built against the wheel:

{md.code_block(CPP_REPRODUCER.read_text(), 'cpp')}

{md.code_block(CPP_BUILD, 'sh')}

{cpp_part}"""


def grouped_table(measured):
    """One line per stretch of neighbouring releases that saw the same symptoms in every column."""
    groups = []
    for row in by_release(measured):
        cells = symptom_cells(row["plain"])
        key = tuple(symptoms_text(cells[column]) for column in COLUMNS)
        if groups and groups[-1][0] == key:
            groups[-1][2].append(row["release"])
        else:
            groups.append((key, row["release"], [row["release"]]))
    lines = [[first if len(group) == 1 else f"{first} to {group[-1]} ({len(group)})", *key]
             for key, first, group in groups]
    return md.table(["releases (count)", *(label(column) for column in COLUMNS)], lines)


def releases(rows, available):
    measured = [row for row in rows if row.get("plain")]
    lines = [boundaries.describe(rows, signal, available) for signal in SIGNALS]
    return f"""\
Symptoms seen by `plain_openvino.py` (the two models above and a dynamic-batch one) per API and call
order; "-": that API was not run (no C API or C++ headers in the wheel).

{grouped_table(measured)}

Where each symptom starts and ends (releases measured; a change is located to neighbouring releases
on the index unless a gap is named):

{md.bullets(lines)}"""


def cause(rows):
    shared_from = boundaries.first_release_with(rows, "shared slot")
    fixed = boundaries.first_release_without(rows, "outputs first wrong too")
    together = (f"{shared_from} is where the slot became shared and where the outputs-first order became "
                "right; before it both orders left output 0 stale, with the slots apart." if shared_from and
                shared_from == fixed else "")
    return md.bullets([
        "After `set_output_tensor(0, t)`, `get_input_tensor(0)` returns `t`'s buffer (the last check of the "
        f"snippet, `input_slot_is_output_buffer` in our rows; seen from {shared_from or 'no release measured'} "
        "in this call order): the request keeps one tensor for a Parameter and the Result it feeds, so the last "
        "`set_*_tensor` wins.",
        together,
        "`src/core/src/op/result.cpp`, `Result::validate_and_infer_types`: "
        "`descriptor::set_shared_tensor(get_output_descriptor(0), get_input_descriptor(0));` — a Result "
        "shares its input's tensor descriptor.",
        "`src/inference/src/dev/icompiled_model.cpp`, the `ICompiledModel` constructor keeps that sharing in "
        "the compiled model's ports (`tensor_map`, then `new_result->output(0).set_tensor_ptr(...)`), from "
        "openvino PR #18379.",
        "`src/inference/src/dev/isync_infer_request.cpp`, `ISyncInferRequest::set_tensor`: `m_tensors` is keyed "
        "by the port's `get_tensor_ptr()`, so setting output 0 replaces input 0's entry.",
        "`src/plugins/intel_cpu/src/infer_request.cpp`: `SyncInferRequest::set_tensor` keeps the caller's "
        "tensors per index (`m_input_external_ptr`, `m_output_external_ptr`), but `push_input_data` pushes "
        "`get_tensor(input.second)`, which is now output 0's buffer; `change_default_ptr` binds graph edges to "
        "the caller's memory; `Graph::PushInputData` (`graph.cpp`) copies when `ext_data_ptr != "
        "inter_data_ptr`. With Sin as a second consumer the Parameter's edge stays on x, so output 0's old "
        "contents are copied into x (input overwritten, Sin wrong); with `x → Result` only, the edge is "
        "rebound to output 0's buffer and nothing is read or written (output stale, input intact).",
        "2024.0.0 → 2024.1.0 (input overwritten appears): the plugin moved from one name-keyed "
        "`m_external_ptr` (message \"Cannot find input/output blob: \") to index-keyed input and output maps "
        "(\"Cannot find input tensor with index: \"), likely openvino PR #23035 \"[CPU Plugin] Clean legacy "
        "name\"; likely, not proven.",
        f"These pointers were {SOURCES}. Related: PRs #18379, #19309 (closed: \"Copy Result tensor for "
        "Param->Result subgraph\"), #19589, #25954, #28945, #11893; issue #19743. We found no issue that "
        "reports this bug.",
    ])


def impact(rows):
    executorch = [row for row in by_release(rows) if (row.get("executorch") or {}).get("counts")]
    measured = (f" On {executorch[-1]['release']} the ExecuTorch path gives: "
                f"{executorch_cell(executorch[-1]['executorch'])} (catalogue cases with the stock "
                "OpenvinoPartitioner, compared with eager PyTorch)." if executorch else "")
    return f"""\
ExecuTorch's OpenVINO runtime sets every input tensor, then every output tensor, then infers, so an
exported model that returns a copy of an input (`x.clone()`, `x.detach()`, `x[:, :]`) returns stale
memory (a robot policy exported with LeRobot returned wrong actions).{measured} Until this is fixed,
ExecuTorch users keep such copies out of the OpenVINO partition, so ExecuTorch's own kernel makes them."""


def openvino_stale_copies(matrix):
    """The issue body, from the matrix's rows (and the index's releases, to name what was not run)."""
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = newest_bug_row(rows)
    if newest is None:
        return md.issue("No release run reproduces the stale copies", [("Releases", releases(rows, available))])
    return md.issue(
        "[Bug]: [CPU] Output fed directly by a Parameter is never written when set_output_tensor follows "
        "set_input_tensor",
        [("Summary", summary(rows)),
         ("Environment", template_fields(newest["plain"]["environment"], newest["release"])),
         ("Step-by-step reproduction", reproduction(rows, newest)),
         ("Releases", releases(rows, available)),
         ("Cause", cause(rows)),
         ("Impact", impact(rows))])
