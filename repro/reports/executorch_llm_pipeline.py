"""An issue for ExecuTorch: its LLM pipeline (``export_llm``) with the OpenVINO backend fails to export without
weight compression (``IndexError`` at ``quantizers[0]``) and with dynamic shapes, its default (the partitioner
never matches the ops sizes are read with, so each enters a partition as a SymInt). With the ``llm-unquantized``
and ``symbolic-sizes`` series inline, their op tests' results, and the reproducer run with both. Built from the
matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/executorch_llm_pipeline.py``, and again with
both series applied).
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

FIELD = "executorch_llm_pipeline"
PATCHED_FIELD = "executorch_llm_pipeline_patched"
REPRODUCER = md.attachment("executorch_llm_pipeline.py")
OP_TESTS = "backends/openvino/tests/ops/test_dynamic_size.py"  # what symbolic-sizes adds
# The lines, at ExecuTorch main (et.EXECUTORCH_MAIN), each with its function so that a moved line is findable.
TO_EDGE_OPENVINO = (f"[`_to_edge_and_lower_llama_openvino`]({et.SOURCE_URL}/examples/models/llama/"
                    "export_llama_lib.py#L1218)")
FIRST_QUANTIZER = f"[`quantizers[0]`]({et.SOURCE_URL}/examples/models/llama/export_llama_lib.py#L1241-L1243)"
IS_NODE_SUPPORTED = (f"[`OpenvinoOperatorsSupport.is_node_supported`]({et.SOURCE_URL}/backends/openvino/"
                     "partitioner.py#L76-L93)")
START_POS = f"[`attention.py`]({et.SOURCE_URL}/examples/models/llama/attention.py#L129-L131)"


def executorch_llm_pipeline(matrix: Matrix) -> str:
    rows = matrix["rows"]
    unquantized_fix, unquantized_test = patches.patch_files(patches.LLM_UNQUANTIZED)
    pins = et.pins()
    return md.render(
        "executorch_llm_pipeline",
        executorch=pins["executorch"],
        nncf=pins["nncf"],
        supported_openvino=et.SUPPORTED_OPENVINO,
        newest_openvino=et.NEWEST_OPENVINO,
        main=et.EXECUTORCH_MAIN[:7],
        to_edge_openvino=TO_EDGE_OPENVINO,
        first_quantizer=FIRST_QUANTIZER,
        is_node_supported=IS_NODE_SUPPORTED,
        start_pos=START_POS,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.SUPPORTED_OPENVINO),
        versions=et.environment_section(rows, FIELD),
        unquantized_fix=et.patch_block(unquantized_fix),
        unquantized_test=et.patch_block(unquantized_test),
        sizes_patches="\n\n".join(map(et.patch_block, patches.patch_files(patches.SYMBOLIC_SIZES))),
        op_tests=et.op_test_results(rows, patches.SYMBOLIC_SIZES, OP_TESTS, "the series"),
        patched_run=et.outputs(rows, PATCHED_FIELD, (et.NEWEST_OPENVINO,)))
