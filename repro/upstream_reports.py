"""The upstream issue bodies, each built from the matrix's rows (see ``repro/matrix.py --reports``).

- ``openvino-stale-copies.md``: the CPU plugin never writes an output fed by a Parameter when
  outputs are set after inputs (OpenVINO's bug; the ExecuTorch symptom is its symptom); built in
  ``repro/stale_copies_report.py``.
- ``openvino-import-lifetime.md``: since 2026.4.0 ``ov_core_import_model`` keeps reading the
  caller's buffer after it returns, and nothing says how long it must live.
- ``executorch-frees-blob.md``: ExecuTorch's OpenVINO backend frees the blob right after that
  import, so programs loaded by path crash on OpenVINO 2026.4.x.

And one built from an ExecuTorch-path run (``repro/executorch_path.py --report FILE``):

- ``executorch-channels-last.md``: ExecuTorch's OpenVINO backend hands OpenVINO every boundary
  tensor with its sizes only; with the proposed change to ``preprocess.py`` as a diff.

Each renders the same way (``repro/report_markdown.py``) and states evidence only from the rows
it was given, naming the releases that were and were not run.
"""

from pathlib import Path

from repro import proposed_preprocess
from repro import report_markdown as md
from repro.matrix_report import by_release, executorch_cell, import_reads_caller_buffer
from repro.stale_copies_report import openvino_stale_copies

HERE = Path(__file__).resolve().parent


# --- The blob's lifetime: OpenVINO's import and ExecuTorch's Free() --------------------------------

IMPORT_REPRODUCER = HERE / "import_lifetime.py"
EXECUTORCH_REPRODUCER = HERE / "executorch_by_path.py"
# Where the two sides of the use-after-free are, in sources a maintainer can open.
EXECUTORCH_SOURCE = ("`backends/openvino/runtime/OpenvinoBackend.cpp` on main (commit cff6f4d, 2026-08-22), "
                     "`OpenvinoBackend::init`")
OPENVINO_C_HEADER = "`include/openvino/c/ov_core.h` in the 2026.4.1 wheel, lines 398-409"


def import_verdicts(rows):
    return {row["release"]: bad for row in rows
            if (bad := import_reads_caller_buffer(row.get("import_lifetime"))) is not None}


def import_table(rows):
    measured = [row for row in by_release(rows) if row.get("import_lifetime")]
    return md.table(["release", "import_lifetime.py", "y[0] after the import returned and c was overwritten"],
                    [[row["release"], row["import_lifetime"].get("verdict", "").split(":")[0],
                      [round(v, 3) for v in row["import_lifetime"].get("actual", [])] or "-"] for row in measured])


def by_path_table(rows):
    """Per release with the ExecuTorch path run: how the stock programs fared by path and from bytes."""
    measured = [row for row in by_release(rows) if (row.get("executorch") or {}).get("counts")]
    return md.table(["release", "stock catalogue, per way of loading"],
                    [[row["release"], executorch_cell(row["executorch"])] for row in measured])


def newest_import_bug(rows):
    buggy = [row for row in by_release(rows) if import_reads_caller_buffer(row.get("import_lifetime"))]
    return buggy[-1] if buggy else None


def openvino_import_lifetime(matrix):
    rows = matrix["rows"]
    newest = newest_import_bug(rows)
    verdicts = import_verdicts(rows)
    if newest is None:
        return md.issue("No release run reads the caller's buffer after ov_core_import_model",
                        [("Releases", import_table(rows))])
    observed = newest["import_lifetime"]
    return md.issue(
        "[C API] ov_core_import_model keeps reading the caller's content after it returns (since 2026.4.0)",
        [("Summary", f"""\
After `ov_core_import_model(core, content, size, "CPU", &compiled)` has returned, the compiled model
still reads `content`: a CPU constant overwritten in the caller's buffer after the call changes the
results; releases where the import copies the content are unaffected.
{md.first_bad_release(verdicts, matrix.get("available", ()))} Nothing in the C API's documentation
says the content must outlive the compiled model, and callers free it: ExecuTorch's OpenVINO backend
does, right after the call, so ExecuTorch programs loaded from a file crash or read freed memory."""),
         ("Environment", md.environment(observed)),
         ("Reproducer", f"""\
`pip install openvino numpy`, then `python import_lifetime.py`:

{md.code_block(IMPORT_REPRODUCER.read_text())}

Observed on {newest['release']}: expected `y[0] = {[round(v, 4) for v in observed['expected']]}`, got
`{[round(v, 4) for v in observed['actual']]}` — the -7 written into the caller's buffer after the call."""),
         ("Releases", import_table(rows)),
         ("Where", md.bullets([
             f"{OPENVINO_C_HEADER}: the documentation of `ov_core_import_model` says only \"A pointer to "
             "content of the exported model\"; nothing about how long it must stay valid.",
             "`src/bindings/c/src/ov_core.cpp`, `ov_core_import_model`: in the sources we could read "
             "(commit 00afc1f) it wraps the content in a `mem_istream` and calls "
             "`Core::import_model(std::istream&)`, which copies. The 2026.4 sources were not readable here; "
             "the measured behaviour fits the C API calling `Core::import_model(const ov::Tensor&)` over the "
             "caller's memory (declared in `include/openvino/runtime/core.hpp` in both the 2026.3.1 and "
             "2026.4.1 wheels, likewise silent on lifetime), with the CPU plugin keeping its constants there.",
             "Either copy in the C API as before (callers were written for that), or document that the content "
             "must outlive every compiled model imported from it, preferably with an opt-in for zero-copy."])),
         ("Impact", f"""\
ExecuTorch 1.5.1's OpenVINO backend (and main as of August 2026) frees the content right after the
import ({EXECUTORCH_SOURCE}), so every ExecuTorch program whose OpenVINO delegate has a bias or an
eltwise constant crashes (SIGSEGV) or reads freed memory when loaded from a file with 2026.4.x. We
report that side to ExecuTorch separately.""")])


def executorch_frees_blob(matrix):
    rows = matrix["rows"]
    verdicts = import_verdicts(rows)
    ran_executorch = any((row.get("executorch") or {}).get("counts") for row in rows)
    return md.issue(
        "[OpenVINO] Backend frees the delegate blob after ov_core_import_model: .pte loaded by path crashes "
        "with OpenVINO 2026.4",
        [("Summary", """\
`OpenvinoBackend::init` passes `processed->data()` to `ov_core_import_model` and then calls
`processed->Free()`. When the program was loaded from a file (`Runtime.load_program(path)`, the C++
`Module`), the delegate data sits in a segment and `Free()` unmaps it. From OpenVINO 2026.4.0 the
import no longer copies that content and the CPU plugin keeps reading constants (biases, eltwise
operands) from it: the first `execute` crashes with SIGSEGV, or, once the pages are reused, computes
on other data. Loading from Python bytes hides it (`Free()` is a no-op there)."""),
         ("Reproducer", f"""\
`pip install torch executorch openvino`, then `python executorch_by_path.py`:

{md.code_block(EXECUTORCH_REPRODUCER.read_text())}

Output with executorch 1.5.1 and OpenVINO 2026.4.1:

```
blob in segment, loaded from bytes: max |diff| 1.19e-07
blob in segment, loaded from path : exit -11
blob in inline , loaded from path : max |diff| 1.19e-07
BUG REPRODUCED
```"""),
         ("Releases", f"""\
OpenVINO's import, per release ({IMPORT_REPRODUCER.name}; a "BUG" row is a release whose import keeps
reading the caller's buffer): {md.first_bad_release(verdicts, matrix.get("available", ()))}

{import_table(rows)}
""" + (f"\nThe ExecuTorch path's stock catalogue, per release:\n\n{by_path_table(rows)}" if ran_executorch
        else "\n(The ExecuTorch path was not run in this matrix; run `repro/matrix.py --executorch`.)")),
         ("Where", md.bullets([
             f"{EXECUTORCH_SOURCE}: lines 162-163 `status = ov_.core_import_model(core, data_ptr, data_size, "
             "device.c_str(), &compiled_model);`, line 175 `processed->Free();`. gdb on 1.5.1 shows the "
             "`munmap` from there and the fault at the bias's offset in the `.pte`; skipping that one `munmap` "
             "removes the crash.",
             "Suggested change: keep `processed` alive in the delegate handle and `Free()` it in "
             "`OpenvinoBackend::destroy` (line 319), or copy the content before freeing it (costs the blob's size "
             "in memory). Until then, `ExecutorchBackendConfig(extract_delegate_segments=False)` keeps the blob "
             "inside the flatbuffer, which the program keeps alive: measured no slower to load or run.",
             "OpenVINO's side (the import stopped copying in 2026.4.0 without documenting the lifetime) is "
             "reported to OpenVINO separately."]))])


# --- Channels-last at partition boundaries (ExecuTorch) -------------------------------------------

CHANNELS_LAST_REPRODUCER = HERE / "executorch_channels_last.py"
CREATE_TENSOR_SOURCE = ("`backends/openvino/runtime/OpenvinoBackend.cpp` on main (commit cff6f4d, 2026-08-22), "
                        "`OpenvinoBackend::create_ov_tensor`, lines 337-378")


def channels_last_table(report, case_names):
    rows = []
    for record in report["cases"]:
        if record["case"] not in case_names:
            continue
        run = record["runs"].get("bytes") or {}
        diffs = ", ".join(f"{row['max_abs_diff']:.3g}" for row in run.get("outputs") or [])
        rows.append([f"`{record['case']}`", record["what"], run.get("outcome", record["outcome"]), diffs or "-"])
    return md.table(["case", "model", "stock, from bytes", "max abs diff per output"], rows)


def executorch_channels_last(report, case_names):
    """The ExecuTorch issue body, from an executorch_path.py run with the stock partitioner."""
    env = report["environment"]
    diff = proposed_preprocess.proposed_diff()
    return md.issue(
        "[OpenVINO] Channels-last tensors at a delegate's boundary are handed over as contiguous: wrong values",
        [("Summary", f"""\
`OpenvinoBackend` wraps every delegate input and output with `tensor.sizes()` and its data pointer
only ({CREATE_TENSOR_SOURCE}: `ov_.shape_create(rank, dims, &shape)` from the sizes, then
`ov_.tensor_create_from_host_ptr(ov_type, shape, tensor.mutable_data_ptr(), ...)`), never with its
dim order. A channels-last tensor entering a partition (a camera frame fed to a conv) is read as if
it were contiguous, and a channels-last result is written as if it were: wrong values, no error.
Elementwise-only partitions happen to be right."""),
         ("Environment", md.bullets([f"executorch {env['executorch']}, torch {env['torch']}, OpenVINO "
                                     f"{env['openvino']}, Python {env['python']}", env["os"]])),
         ("Reproducer", f"""\
`pip install torch executorch openvino`, then `python executorch_channels_last.py`:

{md.code_block(CHANNELS_LAST_REPRODUCER.read_text())}"""),
         ("Measured", f"""\
The catalogue's dim-order cases with the stock `OpenvinoPartitioner` (ExecuTorch runtime, compared
with eager PyTorch; the bug shows as differences of the size of the values):

{channels_last_table(report, case_names)}"""),
         ("Proposed change", f"""\
Convert inside the compiled model, where it costs almost nothing: in `preprocess`, read each
boundary tensor's dim order before `DimOrderOpsRevertPass`, and after converting the partition give
each input in dim order `d` `Parameter(sizes) -> Reshape(ShapeOf[d]) -> Transpose(inverse of d)` and
each such output `Transpose(d) -> Reshape(ShapeOf)`. Partitions whose boundaries are all in the
default dim order compile exactly as before. Measured with a two-conv stack on a channels-last frame:
faster than the same model exported on a contiguous frame (OpenVINO's CPU plugin prefers
channels-last), where converting in ExecuTorch's portable kernels cost about 3x. We apply this diff
to executorch {env['executorch']}'s file in our tests and run every case above through it with the
stock partitioner: all equal eager. `openvino_compile` is replaced by its conversion and
`compile_model`: its cache is unused here (no model hash) and its `config` option reaches
`compile_model` as a string, which fails.

{md.code_block(diff, "diff")}""")])


REPORTS = {"openvino-stale-copies.md": openvino_stale_copies,
           "openvino-import-lifetime.md": openvino_import_lifetime,
           "executorch-frees-blob.md": executorch_frees_blob}


def write_reports(matrix, directory):
    """Write every report into ``directory``; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, render in REPORTS.items():
        (directory / name).write_text(render(matrix))
        written.append(directory / name)
    return written
