"""An issue for PyTorch: every ``run_decompositions`` materializes the C++ dispatcher's CompositeImplicitAutograd
ops once per op namespace, not once, so export's cost grows with the libraries a process has imported (about 40
namespaces with ExecuTorch and its OpenVINO backend; 28 % of an op-test run's time here, in a profile). Built from
the matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/pytorch_cia_materialization.py`` in each
ExecuTorch environment).
"""

from repro.dependencies import dependency_group
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix
from repro.reports.upstream_costs import newest_output

FIELD = "pytorch_cia_materialization"
REPRODUCER = md.attachment("pytorch_cia_materialization.py")


def torch_release() -> str:
    """The torch release the project runs with (its ``executorch_stack`` group's pin)."""
    return next(pin.split("==")[1] for pin in dependency_group("executorch_stack") if pin.startswith("torch=="))


def pytorch_cia_materialization(matrix: Matrix) -> str:
    torch = torch_release()
    source = f"https://github.com/pytorch/pytorch/blob/v{torch}/torch/_export/utils.py"
    return md.render(
        "pytorch_cia_materialization",
        torch=torch,
        # The lines in torch 2.13.0's file; the function names find them in another release.
        collect=f"[`_collect_all_valid_cia_ops`]({source}#L1381-L1409)",
        per_namespace=f"[`_collect_all_valid_cia_ops_for_namespace`]({source}#L1365-L1378)",
        install=md.code_block(f"pip install torch=={torch} --index-url {et.TORCH_CPU_INDEX}", "sh"),
        reproducer_name=REPRODUCER.name,
        reproducer=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.details("Its output", newest_output(matrix["rows"], FIELD)))
