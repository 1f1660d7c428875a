"""The ExecuTorch issue body for the stale copy: a partition output that copies a partition input comes back
as whatever its buffer held. Two fixes, each a tracked patch series: the runtime's (``output-order``, for the
programs already shipped) and the partitioner's (``copy-exclusion``, for the runtimes already deployed), when
each applies and what each costs. Built from the matrix's rows (``repro/matrix.py --executorch`` runs
``attachments/executorch_stale_copies.py``, with ``--executorch-source`` also with the ``output-order``
backend).
"""

from repro.harness.cases.outcomes import Outcome
from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_report import by_release
from repro.reports.matrix_row import Matrix, MatrixRow, recorded

REPRODUCER = md.attachment("executorch_stale_copies.py")
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
# At ExecuTorch main (et.EXECUTORCH_MAIN), by function so that a moved line is findable.
INPUTS_THEN_OUTPUTS = (f"[`OpenvinoBackend::execute`]({et.SOURCE_URL}/{BACKEND}#L241-L305) (every "
                       "`infer_request_set_input_tensor_by_index`, then every "
                       "`infer_request_set_output_tensor_by_index`)")
# benchmarks/output_order_cost.py, 2026-12-02, executorch 1.5.1, OpenVINO 2026.4.1, 2 cores (AMD EPYC): the
# upstream example (x.clone(), sin) on 1 M / 16 M float32, median of 5 interleaved rounds of 20.
COST = md.table(
    ["", "1 M float32", "16 M float32"],
    [["stock program, stock runtime (wrong)", "2.41 ms", "59.6 ms"],
     ["stock program, runtime with `output-order`", "5.22 ms", "80.5 ms"],
     ["program with the copy left to ExecuTorch, stock runtime", "5.27 ms", "83.9 ms"]])


def scope(rows: list[MatrixRow]) -> str:
    """A sentence: how many of the copy models the ExecuTorch path ran are wrong with the stock partitioner,
    on the newest release that ran them (empty where none did)."""
    measured = [row for row in by_release(rows) if (row.get("executorch") or {}).get("cases")]
    copies = [case for case in (recorded(measured[-1], "executorch")["cases"] if measured else [])
              if case.get("group") == "copies"]
    if not copies:
        return ""
    wrong = [case for case in copies if case.get("outcome") != Outcome.CORRECT]
    named = ", ".join(f"`{case['what']}`" for case in wrong[:5]) + (", ..." if len(wrong) > 5 else "")
    return (f"Of the {len(copies)} models returning copies that we ran on OpenVINO {measured[-1]['release']}, "
            f"{len(wrong)} are wrong with the stock partitioner ({named}).")


def executorch_stale_copies(matrix: Matrix) -> str:
    rows = matrix["rows"]
    fix, fix_test = patches.patch_files(patches.OUTPUT_ORDER)
    exclusion = patches.patch_files(patches.COPY_EXCLUSION)
    op_tests = et.op_test_results(rows, patches.COPY_EXCLUSION, "backends/openvino/tests/ops/test_copy.py",
                                  "the partitioner patches")
    return md.render(
        "executorch_stale_copies",
        inputs_then_outputs=INPUTS_THEN_OUTPUTS,
        scope=scope(rows),
        reproduction=et.reproduction(REPRODUCER, rows, "executorch_stale_copies", et.NEWEST_OPENVINO,
                                     (et.SUPPORTED_OPENVINO, et.NEWEST_OPENVINO)),
        versions=et.environment_section(rows, "executorch_stale_copies"),
        cost=COST,
        fix=et.patch_block(fix),
        fix_test=et.patch_block(fix_test),
        patched_run=md.details("The reproducer with the runtime rebuilt with these patches (against the "
                               "installed wheel)",
                               et.outputs(rows, "executorch_stale_copies_patched", (et.NEWEST_OPENVINO,))),
        exclusion_patches="\n\n".join(et.patch_block(patch) for patch in exclusion),
        op_tests=op_tests)
