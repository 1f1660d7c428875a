"""The OpenVINO issue body for five results the CPU plugin (and the PyTorch frontend, for trunc division)
computes differently from the framework semantics they are converted from: a max / min over ∓inf gives
∓FLT_MAX, AvgPool's extra ceil window is divided by the whole kernel, float trunc division goes through an
i32 Convert, i32 floor division loses the quotient above 2**24, and a float Mod of a large quotient is 0.

OpenVINO's tracker was searched first (``docs/upstream.md``, "Semantics"): none of the five is reported, so
this is a new issue; the related threads are cited. Everything measured comes from the matrix's rows
(``attachments/openvino_cpu_semantics.py`` run in every release's venv).
"""

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports import release_boundaries as boundaries
from repro.reports.matrix_report import by_release
from repro.reports.openvino_stale_copies import CHECKLIST, template_fields

REPRODUCER = md.attachment("openvino_cpu_semantics.py")
SOURCES = md.bullets([
    "ReduceMax / ReduceMin: PR #5494 (2021) set the CPU Reduce's initial value for max to `-FLT_MAX` (it was "
    "`FLT_MIN`); the identity of max over floats is `-inf`, so a window of all `-inf` cannot come back as "
    "itself (read in the PR's diff; MaxPool's initial value not located).",
    "Trunc division: `src/frontends/pytorch/src/op/div.cpp`, `translate_div_common`, translates "
    "`rounding_mode=\"trunc\"` as `Divide` → `Convert(i32)` → `ConvertLike`: every quotient of magnitude "
    "≥ 2**31, and ±inf and NaN, comes back as -2147483648 (read in source; the reproducer builds that graph). "
    "`Floor` of the sign-folded quotient, or `Sign(q) * Floor(Abs(q))`, stays in the float type.",
    "AvgPool: PyTorch (and ONNX) divide the extra window that `ceil_mode` adds by the part of it inside the "
    "padded input; the CPU plugin divides by the whole kernel. Where in the CPU kernel is not located.",
    "i32 `Divide` (floor, \"python division\"): 123456789 // 10 gives 12345679, the quotient of the nearest "
    "float32; exact integer division is what the element type promises. Not located in source.",
    "f32 `Mod`: 1e9 mod 3 gives 0 (PyTorch's `fmod`, exact, gives 1), as `x - trunc(x / y) * y` would beyond "
    "float32's integers (our reading of the values; not located in source).",
])
RELATED = md.bullets([
    "#35935 (open): MaxPool of an all-NaN window gives -FLT_MAX — NaN, not ±inf",
    "#33369 (open): AvgPool's output *shape* with `ceil_mode` (ONNX); PR #36714 maps ONNX `ceil_mode` to "
    "`CEIL_TORCH` — neither is the divisor",
    "the same AvgPool divisor was fixed elsewhere: tract #2851, rten #1456, coremltools #2844, torch-mlir #4144",
])


def newest_measured(rows):
    ran = [row for row in by_release(rows) if boundaries.program_verdict(row.get("cpu_semantics")) is not None]
    return ran[-1] if ran else None


def summary_table(rows, newest, available):
    cells = []
    for case in boundaries.CPU_SEMANTICS_CASES:
        got = (boundaries.cpu_semantics_line(newest, case) or "not measured").split(": ", 1)[-1]
        first = boundaries.first_release_with(rows, case)
        oldest = first is not None and available and first == available[0]
        since = "every release on the index" if oldest else first or "not seen"
        cells.append([case, got, since])
    return md.table(["case", f"{newest['release']} (got, and PyTorch's)", "wrong since"], cells)


def openvino_cpu_semantics(matrix):
    rows, available = matrix["rows"], matrix.get("available", ())
    newest = newest_measured(rows)
    if newest is None:
        return md.issue("openvino_cpu_semantics.py did not run on any release", [
            ("Releases", md.bullets(boundaries.describe(rows, case, available)
                                    for case in boundaries.CPU_SEMANTICS_CASES))])
    fields = template_fields(newest, device_note="`INFERENCE_PRECISION_HINT` f32 set",
                             framework="PyTorch → ExecuTorch (OpenVINO delegate); the reproducer: OpenVINO alone",
                             model="one synthetic two-node model per case, built in the reproducer")
    return md.issue(
        "[Bug]: CPU: max/min over ∓inf give ∓FLT_MAX, AvgPool's ceil window divisor, trunc division through i32, "
        "i32 floor division through f32, float Mod", [
            ("Summary", "Seven small models, each the OpenVINO graph a PyTorch op converts to, give values "
             "PyTorch does not; ExecuTorch programs with an OpenVINO delegate return them silently.\n\n"
             + summary_table(rows, newest, available)),
            ("Environment", fields, "OpenVINO, OS, CPU, build"),
            ("Step-by-step reproduction", md.code_block(commands.install_line(newest["release"]), "sh") + "\n\n"
             + f"then `python {REPRODUCER.name}` (exits 1 when a case differs from PyTorch, 0 when none does):"
             + "\n\n" + md.details(REPRODUCER.name, md.code_block(REPRODUCER.read_text()))),
            ("Relevant log output", f"On {newest['release']}:\n\n"
             + md.code_block(newest["cpu_semantics"]["stdout"], "text"), "What the reproducer prints, verbatim"),
            ("Releases (each run in its own venv from PyPI)",
             md.bullets(boundaries.describe(rows, case, available) for case in boundaries.CPU_SEMANTICS_CASES),
             "Per case"),
            ("Where it comes from", SOURCES, "Read in source"),
            ("Related", RELATED),
            ("Issue submission checklist", CHECKLIST, "Checked"),
        ])
