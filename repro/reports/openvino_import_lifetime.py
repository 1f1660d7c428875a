"""The OpenVINO C API issue body: since 2026.4.0 ``ov_core_import_model`` keeps reading the caller's
buffer after it returns, and nothing says how long it must live. Built from the matrix's rows
(``attachments/openvino_import_lifetime.py`` per release).
"""

from repro.reports import markdown as md
from repro.reports.matrix_report import by_release
from repro.reports.release_boundaries import import_reads_caller_buffer

IMPORT_REPRODUCER = md.attachment("openvino_import_lifetime.py")
# Where the two sides of the use-after-free are, in sources a maintainer can open.
EXECUTORCH_SOURCE = ("`backends/openvino/runtime/OpenvinoBackend.cpp` on main (commit cff6f4d, 2026-08-22), "
                     "`OpenvinoBackend::init`")
OPENVINO_C_HEADER = "`include/openvino/c/ov_core.h` in the 2026.4.1 wheel, lines 398-409"


def import_verdicts(rows):
    return {row["release"]: bad for row in rows
            if (bad := import_reads_caller_buffer(row.get("import_lifetime"))) is not None}


def import_table(rows):
    measured = [row for row in by_release(rows) if row.get("import_lifetime")]
    return md.table(["release", IMPORT_REPRODUCER.name, "y[0] after the import returned and c was overwritten"],
                    [[row["release"], row["import_lifetime"].get("verdict", "").split(":")[0],
                      [round(v, 3) for v in row["import_lifetime"].get("actual", [])] or "-"] for row in measured])


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
`pip install openvino numpy`, then `python {IMPORT_REPRODUCER.name}`:

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
