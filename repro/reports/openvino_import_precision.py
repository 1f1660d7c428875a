"""The OpenVINO issue body: an exported compiled model does not keep the inference precision it was compiled
with, and the C API's ``ov_core_import_model`` cannot be given one, so on CPUs with AVX-512 BF16 or AMX every
C API caller (ExecuTorch's OpenVINO backend among them) runs f32 models in bf16. Built from the matrix's rows
(``attachments/openvino_import_precision.py``, run in each release's venv at the CPU's default precision).
"""

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_row import Matrix, own_output, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields

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


def openvino_import_precision(matrix: Matrix) -> str:
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = boundaries.newest_with_verdict(rows, "import_precision")
    if newest is None:
        return md.issue(f"{REPRODUCER.name} did not run on any release",
                        [("Releases", boundaries.describe(rows, SIGNAL, available))])
    fields = template_fields(newest, device_note="the CPU's default precision (no hint set)",
                             framework="OpenVINO's Python API; C API callers (ExecuTorch's OpenVINO backend)",
                             model="synthetic, one 256x256 f32 MatMul built in the reproducer")
    run = recorded(newest, "import_precision")
    shows = boundaries.program_verdict(run)
    return md.render(
        "openvino_import_precision",
        by_design=BY_DESIGN,
        release=newest["release"],
        verdict_here="bf16, the bug shows" if shows else "f32, the bug does not show on this CPU",
        releases=boundaries.describe(rows, SIGNAL, available),
        environment=fields.strip(),
        install=md.code_block(commands.install_line(newest["release"]), "sh"),
        reproducer=REPRODUCER.name,
        reproducer_source=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.code_block(own_output(run), "text"),
        checklist=md.collapsed("Checked", CHECKLIST))
