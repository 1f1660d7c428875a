"""What the two cost reports share: the output a cost reproducer printed in the newest environment of the matrix
that ran it. The costs do not depend on the OpenVINO release, so one run is the evidence.
"""

from repro.reports import markdown as md
from repro.reports.executorch_issue import measured_rows
from repro.reports.matrix_row import MatrixRow, own_output, recorded


def newest_output(rows: list[MatrixRow], field: str) -> str:
    """The reproducer's own output (its stdout) and exit code in the newest release's environment that ran
    ``field``; a sentence saying how to record it where none did."""
    ran = measured_rows(rows, field)
    if not ran:
        return "(Not run in this matrix: `repro/matrix.py --executorch` records it.)"
    run = recorded(ran[-1], field)
    return f"Exit {run['exit_code']}:\n\n{md.code_block(own_output(run), '')}"
