"""What the cost reports share: for PyTorch's and ExecuTorch's, the output a cost reproducer printed in the
newest environment of the matrix that ran it (the costs do not depend on the OpenVINO release, so one run is the
evidence); for OpenVINO's, the issue body around one reproducer run in every release's venv, its newest run pasted.
"""

from pathlib import Path

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.executorch_issue import measured_rows
from repro.reports.matrix_row import Matrix, MatrixRow, own_output, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields


def newest_output(rows: list[MatrixRow], field: str) -> str:
    """The reproducer's own output (its stdout) and exit code in the newest release's environment that ran
    ``field``; a sentence saying how to record it where none did."""
    ran = measured_rows(rows, field)
    if not ran:
        return "(Not run in this matrix: `repro/matrix.py --executorch` records it.)"
    run = recorded(ran[-1], field)
    return f"Exit {run['exit_code']}:\n\n{md.code_block(own_output(run), '')}"


def openvino_cost_report(matrix: Matrix, *, template: str, field: str, reproducer: Path, signal: str,
                         framework: str, model: str) -> str:
    """An OpenVINO cost report (``template``.md beside its module) from the matrix's runs of ``reproducer``, kept
    under ``field`` of each row: the releases it showed ``signal`` on, the newest run's environment and output."""
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = boundaries.newest_with_verdict(rows, field)
    if newest is None:
        return md.issue(f"{reproducer.name} did not run on any release",
                        [("Releases", boundaries.describe(rows, signal, available))])
    fields = template_fields(newest, device_note="`INFERENCE_PRECISION_HINT` f32 set", framework=framework,
                             model=model)
    return md.render(
        template,
        release=newest["release"],
        releases=boundaries.describe(rows, signal, available),
        environment=fields.strip(),
        install=md.code_block(commands.install_line(newest["release"]), "sh"),
        reproducer=reproducer.name,
        reproducer_source=md.details(reproducer.name, md.code_block(reproducer.read_text())),
        output=md.code_block(own_output(recorded(newest, field)), "text"),
        checklist=md.collapsed("Checked", CHECKLIST))
