"""The OpenVINO issue body: since 2026.4.0 an exported CPU blob imports only on the CPU class that exported it
(the compatibility header of openvino PR #36969), though the model after the header does not depend on the
class, so ahead-of-time export (ExecuTorch's OpenVINO backend, any model cache shipped to other machines) breaks
across CPUs. Built from the matrix's rows (``attachments/openvino_cpu_stamp.py``).
"""

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_row import Matrix, own_output, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields

REPRODUCER, C_REPRODUCER = md.attachment("openvino_cpu_stamp.py"), md.attachment("openvino_cpu_stamp.c")
SIGNAL, C_SIGNAL = "blob tied to the exporting CPU", "blob tied to the exporting CPU (C API)"
FIELD, C_FIELD = "cpu_stamp", "cpu_stamp_c"


def openvino_cpu_stamp(matrix: Matrix) -> str:
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = boundaries.newest_with_verdict(rows, FIELD)
    if newest is None:
        return md.issue(f"{REPRODUCER.name} did not run on any release",
                        [("Releases", boundaries.describe(rows, SIGNAL, available))])
    fields = template_fields(newest, device_note="f32 (`INFERENCE_PRECISION_HINT`)",
                             framework="OpenVINO's Python API; ahead-of-time exporters (ExecuTorch's OpenVINO "
                                       "backend imports through `ov_core_import_model`)",
                             model="synthetic, one 8x8 f32 MatMul and ReLU built in the reproducer")
    return md.render(
        "openvino_cpu_stamp",
        release=newest["release"],
        first_bad=boundaries.first_release_with(rows, SIGNAL) or "not measured",
        releases="\n\n".join(boundaries.describe(rows, signal, available) for signal in (SIGNAL, C_SIGNAL)),
        environment=fields.strip(),
        install=md.code_block(commands.install_line(newest["release"]), "sh"),
        reproducer=REPRODUCER.name,
        reproducer_source=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.code_block(own_output(recorded(newest, FIELD)), "text"),
        c_reproducer=md.details(f"{C_REPRODUCER.name} and its build lines",
                                md.code_block(C_REPRODUCER.read_text(), "c") + "\n\n"
                                + md.code_block(commands.c_build(C_REPRODUCER.name), "sh")),
        c_output=md.details(f"Its output on {newest['release']}",
                            md.code_block(own_output(recorded(newest, C_FIELD)), "text")),
        checklist=md.collapsed("Checked", CHECKLIST))
