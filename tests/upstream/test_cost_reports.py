"""The two cost reports (PyTorch: ``run_decompositions`` materializes the C++ CIA op registry once per op
namespace; ExecuTorch: ``import executorch.runtime`` imports all of ``executorch.exir``): their reproducers, run as
a maintainer runs them, show the cost on the installed releases and print the figures; the reports paste the
reproducer and its output from the newest row that ran it, and say so where none did."""

import re

import pytest

from repro.reports import executorch_runtime_import, pytorch_cia_materialization
from repro.reports import markdown as report_markdown
from tests.support.helpers import ATTACHMENTS, run_cli, skip_module_without_executorch_path
from tests.support.outcomes import UPSTREAM_CHANGED
from tests.support.recorded_matrix import executorch_matrix

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
REPORTS = {pytorch_cia_materialization.pytorch_cia_materialization: pytorch_cia_materialization,
           executorch_runtime_import.executorch_runtime_import: executorch_runtime_import}
OUTPUT = "figures\nCOST REPRODUCED: the figure"


def matrix_with(field, run):
    """The ExecuTorch matrix with ``run`` recorded under ``field`` in its newest row (None: nowhere)."""
    matrix = executorch_matrix()
    matrix["rows"][-1][field] = run
    return matrix


@pytest.mark.parametrize("render", REPORTS, ids=lambda render: render.__name__)
def test_a_cost_report_pastes_its_reproducer_and_the_newest_run_of_it(render):
    module = REPORTS[render]
    report = render(matrix_with(module.FIELD, {"exit_code": 1, "output": "chatter\n" + OUTPUT, "stdout": OUTPUT}))
    assert module.REPRODUCER.read_text().rstrip() in report
    assert f"Exit 1:\n\n```\n{OUTPUT}\n```" in report
    assert "chatter" not in report, "the reproducer's own output, not the import noise on its stderr"


@pytest.mark.parametrize("render", REPORTS, ids=lambda render: render.__name__)
def test_a_cost_report_without_a_run_says_how_to_record_one(render):
    report = render(matrix_with(REPORTS[render].FIELD, None))
    assert "(Not run in this matrix: `repro/matrix.py --executorch` records it.)" in report


@pytest.mark.parametrize("render", REPORTS, ids=lambda render: render.__name__)
def test_a_cost_report_names_nothing_of_this_project(render):
    ran = {"exit_code": 1, "output": OUTPUT, "stdout": OUTPUT}
    report = report_markdown.main_text(render(matrix_with(REPORTS[render].FIELD, ran)))
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b", report, re.IGNORECASE), report


def test_the_executorch_cost_report_follows_executorchs_bug_template():
    report = executorch_runtime_import.executorch_runtime_import(
        matrix_with(executorch_runtime_import.FIELD, {"exit_code": 1, "output": OUTPUT}))
    headings = re.findall(r"^## (.*)", report, re.M)
    assert headings == ["🐛 Describe the bug", "To reproduce", "Proposed fix", "Versions"]


def test_the_pytorch_reproducer_counts_a_materialization_per_namespace():
    """Each op library registered adds one materialization per call; with one per call the same ops come back."""
    result = run_cli("python", ATTACHMENTS / "pytorch_cia_materialization.py", "--namespaces", "5", "--calls", "1")
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    namespaces = int(re.search(r"op namespaces in torch.ops: (\d+) \(5 registered here\)", result.stdout)[1])
    per_call = int(re.search(r"in one _collect_all_valid_cia_ops\(\): (\d+)", result.stdout)[1])
    assert per_call == namespaces - 1, "every namespace but the cached aten one"
    assert re.search(r"the same \d+ CIA ops either way: True", result.stdout)
    assert result.stdout.splitlines()[-1].startswith(f"COST REPRODUCED: {per_call} materializations per call")


def test_the_executorch_reproducer_shows_the_runtime_import_loading_the_compiler():
    result = run_cli("python", ATTACHMENTS / "executorch_runtime_import.py", "--repeat", "1")
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines()[1:4])
    modules = {what: int(re.search(r"(\d+) executorch.exir modules loaded", text)[1])
               for what, text in lines.items()}
    assert modules == {"import torch": 0, "import executorch.runtime": modules["import executorch.runtime"],
                       "what the runtime needs (torch and the extension)": 0}
    assert modules["import executorch.runtime"] > 100
    assert result.stdout.splitlines()[-1].startswith("COST REPRODUCED: import executorch.runtime loads"), \
        f"retire repro/harness/runtime/child_import.py, the runtime children's way around it: {UPSTREAM_CHANGED}"


@pytest.mark.parametrize(("reproducer", "arguments"), [("pytorch_cia_materialization.py", ["--calls", "0"]),
                                                       ("executorch_runtime_import.py", ["--repeat", "0"]),
                                                       ("executorch_runtime_import.py", ["--frobnicate"])])
def test_a_cost_reproducer_answers_bad_arguments_with_one_line_and_exit_2(reproducer, arguments):
    result = run_cli("python", ATTACHMENTS / reproducer, *arguments)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith(f"{reproducer}: error: ")
