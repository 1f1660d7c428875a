"""The OpenVINO issue body for the results the CPU plugin (and the PyTorch frontend, for trunc division)
computes differently from the framework semantics they are converted from: a max / min over ∓inf gives
∓FLT_MAX, AvgPool's extra ceil window is divided by the whole kernel, float trunc division goes through an
i32 Convert, i32 floor division, comparisons, ReduceMax and Power lose integers above 2**24, an f16 round
trip is folded away, and a float Mod of a large quotient is 0.

OpenVINO's tracker was searched first (``docs/upstream.md``, "Semantics"): none of these cases is reported; the
open issues of the same families (int64 Add, Equal, Div, Mod, int32 MatMul, float → int64 Cast, NaN in Minimum)
are cited instead of re-reported. Everything measured comes from the matrix's rows
(``attachments/openvino_cpu_semantics.py`` run in every release's venv).
"""

from collections.abc import Sequence

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_row import Matrix, MatrixRow, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields
from workaround.contract import differences

REPRODUCER = md.attachment("openvino_cpu_semantics.py")


def summary_table(rows: list[MatrixRow], newest: MatrixRow, available: Sequence[str]) -> str:
    cells = []
    for case in boundaries.CPU_SEMANTICS_CASES:
        got = (boundaries.cpu_semantics_line(newest, case) or "not measured").split(": ", 1)[-1]
        first = boundaries.first_release_with(rows, case)
        oldest = first is not None and available and first == available[0]
        since = "every release on the index" if oldest else first or "not seen"
        cells.append([case, got, since])
    return md.table(["case", f"{newest['release']} (got, and PyTorch's)", "wrong since"], cells)


def located() -> str:
    """Where in OpenVINO's source each difference comes from, as the registry of differences says (entries that
    share a reading, the integer kernels through float32, share one line)."""
    return md.bullets(dict.fromkeys(difference.located for difference in differences.DIFFERENCES
                                    if difference.owner is differences.Owner.OPENVINO and difference.located))


def openvino_cpu_semantics(matrix: Matrix) -> str:
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = boundaries.newest_with_verdict(rows, "cpu_semantics")
    if newest is None:
        return md.issue("openvino_cpu_semantics.py did not run on any release", [
            ("Releases", md.bullets(boundaries.describe(rows, case, available)
                                    for case in boundaries.CPU_SEMANTICS_CASES))])
    fields = template_fields(newest, device_note="`INFERENCE_PRECISION_HINT` f32 set",
                             framework="PyTorch → ExecuTorch (OpenVINO delegate); the reproducer: OpenVINO alone",
                             model="one synthetic two-node model per case, built in the reproducer")
    return md.render(
        "openvino_cpu_semantics",
        summary_table=summary_table(rows, newest, available),
        environment=fields.strip(),
        install=md.code_block(commands.install_line(newest["release"]), "sh"),
        reproducer=REPRODUCER.name,
        reproducer_source=md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text())),
        release=newest["release"],
        output=md.code_block(recorded(newest, "cpu_semantics")["stdout"], "text"),
        located=located(),
        per_case=md.collapsed("Per case", md.bullets(boundaries.describe(rows, case, available)
                                                     for case in boundaries.CPU_SEMANTICS_CASES)),
        checklist=md.collapsed("Checked", CHECKLIST))
