"""The OpenVINO issue body for a cost, not a wrong value: a fixed-size KV cache kept as a state (ReadValue /
Assign) and updated at one position is copied whole at every step by the CPU plugin, whichever of three ways
the update is written, so an LLM's decode step grows with its context by copies, not by reading. The fused
stateful attention (``StatefulSDPAFusion``) covers the other cache shape, one grown by Concat. Built from the
matrix's rows (``attachments/openvino_state_cache_update.py``, run in each release's venv).
"""

from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix
from repro.reports.upstream_costs import openvino_cost_report

FIELD = "state_cache_update"
REPRODUCER = md.attachment("openvino_state_cache_update.py")
SIGNAL = "state cache copied each step"


def openvino_state_cache_update(matrix: Matrix) -> str:
    return openvino_cost_report(
        matrix, template="openvino_state_cache_update", field=FIELD, reproducer=REPRODUCER, signal=SIGNAL,
        framework="PyTorch → ExecuTorch (OpenVINO delegate, `export_llm`'s static KV cache); the reproducer: "
                  "OpenVINO alone",
        model="synthetic: 32 states of [1, 8, 2048, 64] f32 (Llama-3.2-1B's KV cache), built in the reproducer")
