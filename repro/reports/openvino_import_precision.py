"""The OpenVINO issue body: an exported compiled model does not keep the inference precision it was compiled
with, and the C API's ``ov_core_import_model`` cannot be given one, so on CPUs with AVX-512 BF16 or AMX every
C API caller (ExecuTorch's OpenVINO backend among them) runs f32 models in bf16. Built from the matrix's rows
(``attachments/openvino_import_precision.py``, run in each release's venv at the CPU's default precision).
"""

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_report import by_release
from repro.reports.openvino_stale_copies import CHECKLIST, template_fields

REPRODUCER = md.attachment("openvino_import_precision.py")
SIGNAL = "import drops the precision"
HEADERS = "`include/openvino/c/ov_core.h` and `include/openvino/runtime/core.hpp`"
BY_DESIGN = f"""\
Read in the wheel's headers ({HEADERS}): the C++ `Core::import_model` takes properties "relevant only for this
load operation", so a C++ caller can ask for f32 at import (the third line above: 2.2e-5); the C API's
`ov_core_import_model(core, content, size, device, &compiled)` has no such argument. The export, in turn, does
not carry `INFERENCE_PRECISION_HINT`: the import compiles again with the importer's properties (measured: a
blob compiled at the default and imported on a core with `set_property("CPU", {{"INFERENCE_PRECISION_HINT":
"f32"}})` runs f32 too). So the precision is the importing process's, not the exporter's: a model compiled
and checked at f32 on one machine runs bf16 on another, and a C API caller can only reach f32 through
`ov_core_set_property` on the core before importing, which the documentation does not connect to imports."""
RELATED = md.bullets([
    "PRs #22995 / #22994 (2024-02, bf16 MatMul precision) and the CPU-device docs on `INFERENCE_PRECISION_HINT`: "
    "the default itself is documented and intended; this is about the export dropping an explicit f32.",
    "Downstream projects pin f32 at compile because the default is host-dependent (e.g. WasmEdge PR #5348); none "
    "reports the pin lost across export and import.",
])


def newest_measured(rows):
    measured = [row for row in by_release(rows) if boundaries.program_verdict(row.get("import_precision"))
                is not None]
    return measured[-1] if measured else None


def openvino_import_precision(matrix):
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = newest_measured(rows)
    if newest is None:
        return md.issue(f"{REPRODUCER.name} did not run on any release",
                        [("Releases", boundaries.describe(rows, SIGNAL, available))])
    fields = template_fields(newest, device_note="the CPU's default precision (no hint set)",
                             framework="OpenVINO's Python API; C API callers (ExecuTorch's OpenVINO backend)",
                             model="synthetic, one 256x256 f32 MatMul built in the reproducer")
    shows = boundaries.program_verdict(newest["import_precision"])
    return md.issue(
        "[Bug]: an exported compiled model does not keep its INFERENCE_PRECISION_HINT, and the C API's import "
        "cannot be given one", [
            ("Summary", f"""\
A model compiled with `INFERENCE_PRECISION_HINT=f32`, exported with `export_model` and imported with no
properties runs at the importing CPU's default, bf16 on CPUs with AVX-512 BF16 or AMX: a 256-wide f32 matmul
is 0.097 off float64 instead of 2.2e-5. Imported with the hint it is f32 again, but
`ov_core_import_model` has no properties argument, so every C API caller gets the CPU's default (on
{newest['release']} here: {'bf16, the bug shows' if shows else 'f32, the bug does not show on this CPU'}).

{boundaries.describe(rows, SIGNAL, available)}"""),
            ("Environment", fields, "OpenVINO, OS, CPU, build"),
            ("Step-by-step reproduction", md.code_block(commands.install_line(newest["release"]), "sh")
             + f"\n\nthen `python {REPRODUCER.name}` (exits 1 when the import drops f32, 0 when it keeps it):\n\n"
             + md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text()))),
            ("Relevant log output", f"On {newest['release']}:\n\n"
             + md.code_block(newest["import_precision"].get("stdout") or newest["import_precision"]["output"],
                             "text")),
            ("Is this by design?", BY_DESIGN),
            ("Related threads (searched 2026-12-02)", RELATED),
            ("Issue submission checklist", CHECKLIST, "Checked"),
        ])
