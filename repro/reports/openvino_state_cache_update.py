"""The OpenVINO issue body for a cost, not a wrong value: a fixed-size KV cache kept as a state (ReadValue /
Assign) and updated at one position is copied whole at every step by the CPU plugin, whichever of three ways
the update is written, so an LLM's decode step grows with its context by copies, not by reading. The fused
stateful attention (``StatefulSDPAFusion``) covers the other cache shape, one grown by Concat. Built from the
matrix's rows (``attachments/openvino_state_cache_update.py``, run in each release's venv).
"""

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_row import Matrix, own_output, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields

FIELD = "state_cache_update"
REPRODUCER = md.attachment("openvino_state_cache_update.py")
SIGNAL = "state cache copied each step"


def openvino_state_cache_update(matrix: Matrix) -> str:
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = boundaries.newest_with_verdict(rows, FIELD)
    if newest is None:
        return md.issue(f"{REPRODUCER.name} did not run on any release",
                        [("Releases", boundaries.describe(rows, SIGNAL, available))])
    fields = template_fields(newest, device_note="`INFERENCE_PRECISION_HINT` f32 set",
                             framework="PyTorch → ExecuTorch (OpenVINO delegate, `export_llm`'s static KV "
                                       "cache); the reproducer: OpenVINO alone",
                             model="synthetic: 32 states of [1, 8, 2048, 64] f32 (Llama-3.2-1B's KV cache), "
                                   "built in the reproducer")
    return md.render(
        "openvino_state_cache_update",
        release=newest["release"],
        releases=boundaries.describe(rows, SIGNAL, available),
        environment=fields.strip(),
        install=md.code_block(commands.install_line(newest["release"]), "sh"),
        reproducer=REPRODUCER.name,
        reproducer_source=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.code_block(own_output(recorded(newest, FIELD)), "text"),
        checklist=md.collapsed("Checked", CHECKLIST))
