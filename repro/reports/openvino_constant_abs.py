"""A comment for openvino#38166 ("Rank-1 Abs is silently removed on CPU when its input is derived from
constants"), not a new issue: the PyTorch path into it, a plain-OpenVINO reproducer and its C++ twin
(``attachments/openvino_constant_abs.{py,cpp}``) with their output pasted, the first bad release from the
matrix's rows, and the transformation read in OpenVINO's sources.
"""

from collections.abc import Sequence

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_report import by_release
from repro.reports.matrix_row import Matrix, MatrixRow, recorded

ISSUE = "openvinotoolkit/openvino#38166"
REPRODUCER = md.attachment("openvino_constant_abs.py")
CPP_REPRODUCER = md.attachment("openvino_constant_abs.cpp")
SIGNAL, CPP_SIGNAL = "Abs of constants dropped", "Abs of constants dropped (C++)"


def verdicts(rows: list[MatrixRow]) -> dict[str, bool]:
    """{release: Abs dropped?} of the Python reproducer, for the releases it ran on."""
    return dict(boundaries.measured(rows, SIGNAL))


def newest_bad(rows: list[MatrixRow]) -> MatrixRow | None:
    bad = [row for row in by_release(rows) if boundaries.program_verdict(row.get("constant_abs"))]
    return bad[-1] if bad else None


def releases(rows: list[MatrixRow], available: Sequence[str]) -> str:
    lines = [boundaries.describe(rows, SIGNAL, available), boundaries.describe(rows, CPP_SIGNAL, available)]
    return md.bullets(lines) + "\n\n" + md.first_bad_release(verdicts(rows), available)


def comment(rows: list[MatrixRow], available: Sequence[str]) -> str:
    newest = newest_bad(rows)
    if newest is None:
        return md.issue(f"Comment for {ISSUE}: not reproduced", [("Releases", releases(rows, available))])
    cpp = newest.get("constant_abs_cpp") or {}
    cpp_output = (md.code_block(cpp["output"], "text") if boundaries.program_verdict(cpp) is not None
                  else f"Not built on {newest['release']}: {(cpp.get('output') or 'not run').splitlines()[-1]}")
    return md.render(
        "openvino_constant_abs",
        issue=ISSUE,
        release=newest["release"],
        reproducer=REPRODUCER.name,
        reproducer_source=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        output=md.code_block(recorded(newest, "constant_abs")["stdout"], "text"),
        cpp_reproducer=CPP_REPRODUCER.name,
        cpp_source=md.code_block(CPP_REPRODUCER.read_text(), "cpp"),
        cpp_build=md.code_block(commands.cpp_build(CPP_REPRODUCER.name), "sh"),
        cpp_output=cpp_output,
        releases=releases(rows, available))


def openvino_constant_abs(matrix: Matrix) -> str:
    return comment(matrix["rows"], matrix.get("available", ()))
