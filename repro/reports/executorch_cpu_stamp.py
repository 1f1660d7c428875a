"""An issue for ExecuTorch: with OpenVINO 2026.4, every OpenVINO-delegated ``.pte`` loads only on the CPU class of
the machine that exported it (``load_method`` 0x1 elsewhere, logged as "failed to import model"). The cause is
OpenVINO's (``openvino-cpu-stamp.md``); what ExecuTorch can do is say why (the ``import-reason`` series: log
OpenVINO's own message) and tell users how to export for the device. Built from the matrix's rows
(``repro/matrix.py --executorch`` runs ``attachments/executorch_cpu_stamp.py``).
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

FIELD = "executorch_cpu_stamp"
REPRODUCER = md.attachment("executorch_cpu_stamp.py")


def executorch_cpu_stamp(matrix: Matrix) -> str:
    rows = matrix["rows"]
    runtime, test = patches.patch_files(patches.IMPORT_REASON)
    return md.render(
        "executorch_cpu_stamp",
        executorch=et.pins()["executorch"],
        newest_openvino=et.NEWEST_OPENVINO,
        backend_init=f"[`OpenvinoBackend::init`]({et.SOURCE_URL}/backends/openvino/runtime/OpenvinoBackend.cpp#L162)",
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.NEWEST_OPENVINO),
        runtime_patch=et.patch_block(runtime),
        test_patch=et.patch_block(test),
        op_tests=et.op_test_results(rows, patches.IMPORT_REASON, "test_import_error.py", "both patches"),
        versions=et.environment_section(rows, FIELD))
