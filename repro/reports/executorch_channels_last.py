"""The ExecuTorch issue body: the OpenVINO backend hands every boundary tensor to OpenVINO with its sizes
only, so channels-last tensors at a partition's edge give wrong values; with the two-step fix
(``repro/patches/executorch/channels-last``: fail loud at export, then convert inside the model
``openvino_compile`` converts) and each step's op-test result. Built from the matrix's rows
(``repro/matrix.py --executorch``).
"""

from repro.harness.cases.outcomes import Outcome
from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_report import by_release
from repro.reports.matrix_row import Matrix, MatrixRow, recorded

CHANNELS_LAST_REPRODUCER = md.attachment("executorch_channels_last.py")
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
CREATE_TENSOR = f"[`OpenvinoBackend::create_ov_tensor`]({et.SOURCE_URL}/{BACKEND}#L337-L378)"


def dim_order_table(rows: list[MatrixRow]) -> str:
    """The stock partitioner's dim-order cases on the newest release whose ExecuTorch path ran, from bytes."""
    ran = [row for row in by_release(rows) if (row.get("executorch") or {}).get("cases")]
    if not ran:
        return "(The ExecuTorch path was not run in this matrix.)"
    table = []
    for record in recorded(ran[-1], "executorch")["cases"]:
        if record.get("group") == "dim order":
            run = record["runs"].get("bytes") or {}
            diffs = ", ".join(f"{output['max_abs_diff']:.3g}" for output in run.get("outputs") or [])
            table.append([record["what"], run.get("outcome", record["outcome"]), diffs or "-"])
    wrong = sum(row[1] != Outcome.CORRECT for row in table)
    return md.details(f"Dim-order models on OpenVINO {ran[-1]['release']}, loaded from bytes, against eager "
                      f"PyTorch: {wrong} of {len(table)} wrong",
                      md.table(["model (inputs channels-last unless said)", "result", "max abs diff per output"],
                               table))




def executorch_channels_last(matrix: Matrix) -> str:
    rows = matrix["rows"]
    refuse, convert = patches.patch_files(patches.CHANNELS_LAST)
    op_tests = et.op_test_results(rows, patches.CHANNELS_LAST, "backends/openvino/tests/ops/test_dim_order.py",
                                  "both patches")
    return md.render(
        "executorch_channels_last",
        create_tensor=CREATE_TENSOR,
        supported_openvino=et.SUPPORTED_OPENVINO,
        newest_openvino=et.NEWEST_OPENVINO,
        reproduction=et.reproduction(CHANNELS_LAST_REPRODUCER, rows, "executorch_channels_last",
                                     et.SUPPORTED_OPENVINO),
        dim_order_table=dim_order_table(rows),
        versions=et.environment_section(rows, "executorch_channels_last"),
        refuse_patch=et.patch_block(refuse),
        convert_patch=et.patch_block(convert),
        op_tests=op_tests)
