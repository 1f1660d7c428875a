"""An issue for ExecuTorch: ``export_llm``'s ``openvino_4wo`` compresses the transformer's matmuls to 4 bits but
leaves the output layer (and the embedding) at NNCF's 8-bit backup precision, where XNNPACK's ``8da4w`` compresses
it to 4 bits: a cost of the largest matmul a decode step reads, invisible to a user comparing backends. Built from
the matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/executorch_openvino_4wo_layers.py``, and
again with the ``openvino-4wo-all-layers`` series applied).
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

FIELD = "executorch_openvino_4wo_layers"
PATCHED_FIELD = "executorch_openvino_4wo_layers_patched"
REPRODUCER = md.attachment("executorch_openvino_4wo_layers.py")
# The lines, at ExecuTorch main (et.EXECUTORCH_MAIN), each with its function so that a moved line is findable.
GET_OV_QUANTIZER = (f"[`get_ov_quantizer`]({et.SOURCE_URL}/extension/llm/export/quantizer_lib.py#L219-L257) "
                    "(extension/llm/export/quantizer_lib.py)")
ALL_LAYERS_DOC = (f"[`OpenVINOQuantizer`'s own description of `all_layers`]({et.SOURCE_URL}/backends/openvino/"
                  "quantizer/quantizer.py#L156-L164)")


def executorch_openvino_4wo_layers(matrix: Matrix) -> str:
    rows = matrix["rows"]
    return md.render(
        "executorch_openvino_4wo_layers",
        get_ov_quantizer=GET_OV_QUANTIZER,
        all_layers_doc=ALL_LAYERS_DOC,
        newest_openvino=et.NEWEST_OPENVINO,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.SUPPORTED_OPENVINO),
        versions=et.environment_section(rows, FIELD),
        main=et.EXECUTORCH_MAIN[:7],
        series="\n\n".join(map(et.patch_block, patches.patch_files(patches.OPENVINO_4WO_ALL_LAYERS))),
        patched_run=et.outputs(rows, PATCHED_FIELD, (et.NEWEST_OPENVINO,)))
