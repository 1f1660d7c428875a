"""An issue for ExecuTorch: ``import executorch.runtime`` imports all of ``executorch.exir`` (the compiler)
through ``portable_lib``'s warnings import, so a process that only runs programs pays for export's Python at every
start (nearly all of the 5 to 7 s each of our program-runner children spends before its first program). Built from
the matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/executorch_runtime_import.py``).
"""

from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix
from repro.reports.upstream_costs import newest_output

FIELD = "executorch_runtime_import"
REPRODUCER = md.attachment("executorch_runtime_import.py")


def executorch_runtime_import(matrix: Matrix) -> str:
    rows = matrix["rows"]
    return md.render(
        "executorch_runtime_import",
        executorch=et.pins()["executorch"],
        portable_lib=f"[`extension/pybindings/portable_lib.py`]({et.SOURCE_URL}/extension/pybindings/"
                     "portable_lib.py#L21)",
        exir_init=f"[`exir/__init__.py`]({et.SOURCE_URL}/exir/__init__.py)",
        install=et.install_block(et.NEWEST_OPENVINO),
        reproducer_name=REPRODUCER.name,
        reproducer=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.details("Its output", newest_output(rows, FIELD)),
        versions=et.environment_section(rows, FIELD))
