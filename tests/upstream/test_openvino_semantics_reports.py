"""The two plain-OpenVINO semantics reproducers (``attachments/openvino_constant_abs.{py,cpp}``,
``attachments/openvino_cpu_semantics.py``) and the reports built from their matrix rows.

On the installed release each reproducer prints exactly what the recorded matrix holds for it: an upstream fix
changes the output and turns this red, saying to retire the guard and the report. The "PyTorch" values the
reproducer compares with are PyTorch's own (computed here with torch), so a report never states a wrong
expectation. The reports are rendered from the recorded matrix (``tests/data/matrix-all-releases.json``).
"""

import math
import re
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from repro import attachment_commands as commands
from repro.reports import openvino_constant_abs, openvino_cpu_semantics, release_boundaries
from tests.support.helpers import ATTACHMENTS, run_cli
from tests.support.recorded_matrix import RECORDED
from tests.support.release_behaviour import installed_openvino

ROWS = {row["release"]: row for row in RECORDED["rows"]}
INF = math.inf
# PyTorch's result for each case of openvino_cpu_semantics.py, computed by PyTorch.
PYTORCH = {
    "ReduceMax of all -inf": lambda: torch.amax(torch.tensor([-INF, -INF]), 0, keepdim=True),
    "ReduceMin of all +inf": lambda: torch.amin(torch.tensor([INF, INF]), 0, keepdim=True),
    "MaxPool of an all -inf window": lambda: F.max_pool1d(torch.full((1, 1, 2), -INF), 2),
    "AvgPool's ceil window with padding counted":
        lambda: F.avg_pool1d(torch.ones(1, 1, 4), 3, 2, 1, ceil_mode=True),
    "trunc division through Convert(i32)": lambda: torch.div(torch.tensor([3e9, -7.5, INF]), 1.0,
                                                             rounding_mode="trunc"),
    "i32 floor division above 2**24": lambda: torch.tensor([123456789, -123456789], dtype=torch.int32) // 10,
    "float Mod of a large quotient": lambda: torch.fmod(torch.tensor([1e9, -1e9, 7.5]), 3.0),
    "i32 Equal above 2**24": lambda: torch.tensor([16777217, 16777216], dtype=torch.int32) == 16777216,
    "i32 ReduceMax above 2**24": lambda: torch.tensor([16777217, 16777216], dtype=torch.int32).amax(0, True),
    "i32 Power above 2**24": lambda: torch.tensor([40001, 3], dtype=torch.int32) ** 2,
    "f16 round trip folded": lambda: torch.tensor([3.1415927, 70000.0]).half().float(),
}
RETIRE = ("OpenVINO {release} changed what {name} prints: re-run the matrix (python repro/matrix.py --reports), "
          "and if a case is fixed, retire its guard in workaround/partitioner/rules/openvino_hand_back.py and its "
          "line in the report")


def recorded_row():
    release = str(installed_openvino())
    if release not in ROWS:
        pytest.skip(f"the recorded matrix has no row for OpenVINO {release}")
    return ROWS[release]


def printed_values(text):
    words = text.strip("[] ").replace("True", "1").replace("False", "0").split()
    return np.array(words, dtype=np.float64)


@pytest.mark.parametrize(("field", "name"), [("constant_abs", "openvino_constant_abs.py"),
                                         ("cpu_semantics", "openvino_cpu_semantics.py")])
def test_python_reproducer_prints_what_the_matrix_recorded_for_this_release(field, name):
    row = recorded_row()
    run = run_cli("python", str(ATTACHMENTS / name))
    assert (run.returncode, run.stdout.strip()) == (row[field]["exit_code"], row[field]["stdout"]), \
        RETIRE.format(release=row["release"], name=name)


def test_cpp_twin_builds_as_printed_and_prints_what_the_matrix_recorded():
    row = recorded_row()
    built = commands.run(commands.cpp_build(openvino_constant_abs.CPP_REPRODUCER.name), sys.executable,
                         [openvino_constant_abs.CPP_REPRODUCER.name])
    assert built["exit_code"] == row["constant_abs_cpp"]["exit_code"], built["output"]
    assert built["output"].endswith(row["constant_abs_cpp"]["output"].split("\n", 1)[1]), \
        RETIRE.format(release=row["release"], name="openvino_constant_abs.cpp")


def test_cpu_semantics_cases_are_the_ones_the_matrix_reads_and_expect_pytorchs_values():
    printed = recorded_row()["cpu_semantics"]["stdout"].splitlines()[1:-1]
    lines = {line.split(": ", 1)[0]: line for line in printed}
    assert tuple(lines) == release_boundaries.CPU_SEMANTICS_CASES == tuple(PYTORCH)
    for case, line in lines.items():
        expected = printed_values(re.search(r"\(PyTorch: (.*)\)$", line)[1])
        np.testing.assert_allclose(expected, PYTORCH[case]().double().ravel().numpy(), rtol=1e-6,
                                   err_msg=f"{case}: the reproducer's PyTorch value is not PyTorch's")


def test_constant_abs_comment_names_the_first_bad_release_from_the_rows():
    comment = openvino_constant_abs.openvino_constant_abs(RECORDED)
    assert comment.startswith("# Comment for openvinotoolkit/openvino#38166")
    assert "[Bug]" not in comment, "the issue exists: a comment, not a new issue"
    assert "First bad release: 2025.4.0; the release before it that was run, 2025.3.0, is fine." in comment
    assert "Abs of constants dropped (C++): no 2024.3.0 to 2025.3.0; **yes** 2025.4.0 to 2026.4.1" in comment
    for attachment in (openvino_constant_abs.REPRODUCER, openvino_constant_abs.CPP_REPRODUCER):
        assert attachment.read_text().rstrip() in comment
    assert "`AbsSinking`" in comment
    assert "simplify_shape_of_sub_graph.cpp" in comment


def test_constant_abs_comment_moves_with_the_rows():
    fixed = {**RECORDED, "rows": [{**row, "constant_abs": {**row["constant_abs"], "exit_code": 0}}
                                  if row["release"] == "2025.4.0" else row for row in RECORDED["rows"]]}
    assert "First bad release: 2025.4.1; the release before it that was run, 2025.4.0, is fine." in \
        openvino_constant_abs.openvino_constant_abs(fixed)


def test_cpu_semantics_report_is_an_issue_with_each_case_and_where_it_starts():
    report = openvino_cpu_semantics.openvino_cpu_semantics(RECORDED)
    assert report.startswith("# [Bug]: CPU: ")
    for heading in ("## Summary", "## Environment", "## Step-by-step reproduction", "## Relevant log output",
                    "## Releases", "## Where it comes from", "## Related", "## Issue submission checklist"):
        assert heading in report
    assert openvino_cpu_semantics.REPRODUCER.read_text().rstrip() in report
    for case in release_boundaries.CPU_SEMANTICS_CASES:
        assert f"| {case} | " in report
        assert f"- {case}: **yes** 2023.0.0 to 2026.4.1" in report
    assert report.count("| every release on the index |") == len(release_boundaries.CPU_SEMANTICS_CASES)
