"""The ExecuTorch issue body: the OpenVINO backend frees the delegate's blob right after
``ov_core_import_model``, so a ``.pte`` loaded by path crashes on OpenVINO 2026.4.x. Built from the
matrix's rows (the import per release, and with ``--executorch`` the stock catalogue by path).
"""

from repro.reports import markdown as md
from repro.reports.matrix_report import by_release, executorch_cell
from repro.reports.openvino_import_lifetime import (
    EXECUTORCH_SOURCE,
    IMPORT_REPRODUCER,
    import_table,
    import_verdicts,
)

EXECUTORCH_REPRODUCER = md.attachment("executorch_frees_blob.py")


def by_path_table(rows):
    """Per release with the ExecuTorch path run: how the stock programs fared by path and from bytes."""
    measured = [row for row in by_release(rows) if (row.get("executorch") or {}).get("counts")]
    return md.table(["release", "stock catalogue, per way of loading"],
                    [[row["release"], executorch_cell(row["executorch"])] for row in measured])


def reproducer_output(rows):
    """What the embedded reproducer printed on the newest release the matrix ran it on, verbatim, or a
    sentence saying it was not run."""
    ran = [row for row in by_release(rows) if (row.get("executorch_by_path") or {}).get("output")]
    if not ran:
        return "(Not run in this matrix: `repro/matrix.py --executorch` runs it on every release.)"
    newest, run = ran[-1], ran[-1]["executorch_by_path"]
    versions = (newest.get("executorch") or {}).get("environment") or {}
    with_what = f"executorch {versions['executorch']} and " if versions.get("executorch") else ""
    return (f"Output with {with_what}OpenVINO {newest['release']} (exit {run['exit_code']}):\n\n"
            f"{md.code_block(run['output'], '')}")


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
`pip install torch executorch openvino`, then `python {EXECUTORCH_REPRODUCER.name}`:

{md.code_block(EXECUTORCH_REPRODUCER.read_text())}

{reproducer_output(rows)}"""),
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
