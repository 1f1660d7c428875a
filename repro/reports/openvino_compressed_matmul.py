"""The OpenVINO issue body for a cost, not a wrong value: the CPU plugin's 4-bit weight-compressed MatMul reads its
weights more slowly than its 8-bit one, so a 4-bit LLM's decode step, which is bound by reading the weights, takes
more than half the 8-bit step. Built from the matrix's rows (``attachments/openvino_compressed_matmul.py``, run in
each release's venv).
"""

from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix
from repro.reports.upstream_costs import openvino_cost_report

FIELD = "compressed_matmul"
REPRODUCER = md.attachment("openvino_compressed_matmul.py")
SIGNAL = "4-bit matmul slower per byte"


def openvino_compressed_matmul(matrix: Matrix) -> str:
    return openvino_cost_report(
        matrix, template="openvino_compressed_matmul", field=FIELD, reproducer=REPRODUCER, signal=SIGNAL,
        framework="PyTorch → ExecuTorch (OpenVINO delegate, `export_llm` with `openvino_4wo`); the reproducer: "
                  "OpenVINO alone",
        model="synthetic: one [2048, 32768] projection (a quarter of Llama-3.2-1B's output layer) at 8 and 4 "
              "bits, built in the reproducer")
