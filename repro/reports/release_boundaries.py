"""Where each symptom starts and ends across releases, and which releases to run to know.

A *signal* is one yes/no fact per release (the stale output, the outputs-first order being wrong too,
the input overwritten, the shared slot, the C API and the C++ headers in the wheel, the import reading
the caller's buffer). Reading it from the rows of ``repro/matrix.py`` gives runs of releases with the
same answer; where two neighbouring runs disagree and releases on the index lie between them, the
boundary is not known yet. ``releases_to_run`` names the release in the middle of each such gap (and
the oldest and newest releases on the index, so "first bad" never means "first run"), and the matrix runs them
until no gap is left: a bisection per signal, assuming a signal changes once between two releases
that agree with their neighbours. ``describe`` states the result, naming any release that could not
be measured. The timed signals (``TIMED``) are described from the releases run, never bisected: a timing
against a threshold is not a fact that changes once.

Pure functions over rows (no installs), tested on recorded rows.
"""

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, cast

from packaging.version import Version

from repro.reports.matrix_row import CommandRun, MatrixRow

# One yes/no fact of a row, or None where the row cannot say (``SIGNALS``).
Reading = Callable[[MatrixRow], bool | None]

def own_cpu_runs(plain: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The runs that measured the reproducer's own models on the plain CPU device (every API and order):
    not the torch-converted models, not AUTO/HETERO/f32-hint, not the failed runs."""
    return [run for run in (plain or {}).get("runs", []) if run.get("device", "CPU") == "CPU"
            and not run["model"].startswith("torch:") and run["symptoms"]]


def cpu_runs(plain: dict[str, Any] | None, order: str) -> list[dict[str, Any]]:
    """The Python API's runs of ``own_cpu_runs`` in one order."""
    return [run for run in own_cpu_runs(plain) if run["api"] == "python" and run["order"] == order]


def symptom_signal(symptom: str, order: str = "inputs_first") -> Reading:
    def read(row: MatrixRow) -> bool | None:
        seen = [run["symptoms"].get(symptom) for run in cpu_runs(row.get("plain"), order)]
        seen = [value for value in seen if value is not None]
        return any(seen) if seen else None
    return read


def control_order_wrong(row: MatrixRow) -> bool | None:
    runs = cpu_runs(row.get("plain"), "outputs_first")
    value_symptoms = ("stale_output", "wrong_downstream", "input_overwritten")
    return any(run["symptoms"].get(s) for run in runs for s in value_symptoms) if runs else None


def part_shipped(part: str, rows_api: str, missing_phrase: str) -> Reading:
    """True if the part ran, False if it was skipped because the wheel lacks it, None otherwise."""
    def read(row: MatrixRow) -> bool | None:
        plain = row.get("plain")
        if not plain:
            return None
        if any(run["api"] == rows_api for run in plain.get("runs", [])):
            return True
        reasons = [skip["reason"] for skip in plain.get("skipped", []) if skip["part"] == part]
        return False if any(missing_phrase in reason for reason in reasons) else None
    return read


def program_verdict(report: CommandRun | None) -> bool | None:
    """True (bug) / False (fine) from an attachment's exit code, 1 or 0 as each prints it; None where it could not
    be built or run."""
    exit_code = (report or {}).get("exit_code")
    return None if exit_code is None else {0: False, 1: True}.get(exit_code)


def newest_with_verdict(rows: list[MatrixRow], field: str) -> MatrixRow | None:
    """The newest release's row whose attachment run ``field`` came to a verdict (exit 0 or 1), or None."""
    ran = [row for row in rows if program_verdict(cast(CommandRun | None, row.get(field))) is not None]
    return max(ran, key=lambda row: Version(row["release"])) if ran else None


# The cases of attachments/openvino_cpu_semantics.py, as it names them in its output (tests hold the two equal).
CPU_SEMANTICS_CASES = ("ReduceMax of all -inf", "ReduceMin of all +inf", "MaxPool of an all -inf window",
                       "AvgPool's ceil window with padding counted", "trunc division through Convert(i32)",
                       "i32 floor division above 2**24", "float Mod of a large quotient", "i32 Equal above 2**24",
                       "i32 ReduceMax above 2**24", "i32 Power above 2**24", "f16 round trip folded")


def cpu_semantics_line(row: MatrixRow, case: str) -> str | None:
    """What openvino_cpu_semantics.py printed for ``case`` after its name ("WRONG: ..." or "right: ..."), or None
    where it did not run to its verdict or printed no such line."""
    report = row.get("cpu_semantics") or {}
    if program_verdict(report) is None:
        return None
    lines = report.get("stdout", "").splitlines()
    return next((line[len(case) + 2:] for line in lines if line.startswith(f"{case}: ")), None)


def semantics_case_wrong(case: str) -> Reading:
    """True / False from the case's line (``cpu_semantics_line``); None where there is none."""
    def read(row: MatrixRow) -> bool | None:
        line = cpu_semantics_line(row, case)
        return None if line is None else line.startswith("WRONG")
    return read


# name -> (reader, what "yes" means for the report). Order: as a maintainer reads them.
SIGNALS = {
    "stale output": (symptom_signal("stale_output"), "output 0 keeps the sentinel (ExecuTorch's order)"),
    "outputs first wrong too": (control_order_wrong, "the control order (outputs first) is wrong as well"),
    "input overwritten": (symptom_signal("input_overwritten"), "the caller's x receives the stale contents"),
    "shared slot": (symptom_signal("input_slot_is_output_buffer"),
                    "before infer(), get_input_tensor(0) is output 0's buffer"),
    "C API in the wheel": (part_shipped("c_api", "c", "does not ship the C API"), "libopenvino_c ships"),
    "C++ headers in the wheel": (part_shipped("cpp", "cpp", "no C++ headers"), "include/ and libopenvino ship"),
    "import reads the caller's buffer": (lambda row: program_verdict(row.get("import_lifetime")),
                                         "ov_core_import_model keeps reading its content"),
    "Abs of constants dropped": (lambda row: program_verdict(row.get("constant_abs")),
                                 "Abs(Range(-2, 2)) + p comes back without the Abs (Python)"),
    "Abs of constants dropped (C++)": (lambda row: program_verdict(row.get("constant_abs_cpp")),
                                       "the same, from the C++ twin"),
    **{case: (semantics_case_wrong(case), "differs from PyTorch") for case in CPU_SEMANTICS_CASES},
    "import drops the precision": (lambda row: program_verdict(row.get("import_precision")),
                                   "compiled f32, exported, imported with nothing: not f32 (this CPU's default)"),
    "blob tied to the exporting CPU": (lambda row: program_verdict(row.get("cpu_stamp")),
                                       "a blob stamped for another CPU class is refused at import"),
    "blob tied to the exporting CPU (C API)": (lambda row: program_verdict(row.get("cpu_stamp_c")),
                                               "the same through ov_core_import_model, from the C twin"),
    "state cache copied each step": (lambda row: program_verdict(row.get("state_cache_update")),
                                     "every way of writing one row of a state copies the whole cache"),
    "4-bit matmul slower per byte": (lambda row: program_verdict(row.get("compressed_matmul")),
                                     "a 4-bit compressed MatMul takes more than 0.60 of the 8-bit time"),
}
# Verdicts of a timing against a threshold. Near it they flip between runs of one release (measured on one
# host, two fresh matrices from 2026.4: the state cache "no" at 2025.3.0 in one of them, the 4-bit matmul at
# 2025.0.0 0.58 against its 0.60): followed by the bisection, each flip ran two more releases and moved the
# "boundary" from run to run. The cost reports say where each release that ran measured.
TIMED = frozenset({"state cache copied each step", "4-bit matmul slower per byte"})


def measured(rows: list[MatrixRow], signal: str) -> list[tuple[str, bool]]:
    """[(release, True/False)] in release order, releases where the signal could not be read left out."""
    read = SIGNALS[signal][0]
    values = [(row["release"], read(row)) for row in rows if row.get("release")]
    return sorted([(release, value) for release, value in values if value is not None],
                  key=lambda pair: Version(pair[0]))


def stretches(rows: list[MatrixRow], signal: str) -> list[tuple[bool, str, str]]:
    """[(value, first release, last release)]: runs of neighbouring measured releases that agree."""
    found: list[list[Any]] = []  # [value, first, last], the last release extended in place
    for release, value in measured(rows, signal):
        if found and found[-1][0] == value:
            found[-1][2] = release
        else:
            found.append([value, release, release])
    return [(value, first, last) for value, first, last in found]


def unmeasured_between(available: Sequence[str], low: str, high: str, rows: list[MatrixRow],
                       signal: str) -> list[str]:
    known = {release for release, _ in measured(rows, signal)}
    return [r for r in available if Version(low) < Version(r) < Version(high) and r not in known]


def tried(rows: list[MatrixRow]) -> set[str]:
    return {row["release"] for row in rows if row.get("release")}


def releases_to_run(rows: list[MatrixRow], available: Sequence[str]) -> list[str]:
    """The releases that would narrow a boundary, none of which has a row yet: the oldest and newest
    on the index, and the middle unmeasured release of every gap between two stretches of a signal not
    ``TIMED``."""
    ran = tried(rows)
    wanted = {release for release in [*available[:1], *available[-1:]] if release not in ran}
    for signal in SIGNALS.keys() - TIMED:
        found = stretches(rows, signal)
        for before, after in pairwise(found):
            gap = [r for r in unmeasured_between(available, before[2], after[1], rows, signal) if r not in ran]
            if gap:
                wanted.add(gap[len(gap) // 2])
    return sorted(wanted, key=Version)


def span(first: str, last: str) -> str:
    return first if first == last else f"{first} to {last}"


def describe(rows: list[MatrixRow], signal: str, available: Sequence[str] = ()) -> str:
    """One line: where the signal is yes and no among the releases measured, and what is unknown."""
    found = stretches(rows, signal)
    if not found:
        return f"{signal}: not measured"
    parts = [f"{'**yes**' if value else 'no'} {span(first, last)}" for value, first, last in found]
    notes, ran = [], tried(rows)
    if older := [r for r in available if Version(r) < Version(found[0][1]) and r not in ran]:
        notes.append(f"not run before {found[0][1]}: {', '.join(older)}")
    if newer := [r for r in available if Version(r) > Version(found[-1][2]) and r not in ran]:
        notes.append(f"not run after {found[-1][2]}: {', '.join(newer)}")
    for before, after in pairwise(found):
        if gap := unmeasured_between(available, before[2], after[1], rows, signal):
            notes.append(f"not measured between {before[2]} and {after[1]}: {', '.join(gap)}")
    if signal in TIMED and (untimed := sorted(ran - {release for release, _ in measured(rows, signal)},
                                              key=Version)):
        notes.append(f"no timing on {', '.join(untimed)}: run for a boundary only, or not timeable there")
    return f"{signal}: {'; '.join(parts)}" + (f" ({'; '.join(notes)})" if notes else "")


def first_release_with(rows: list[MatrixRow], signal: str) -> str | None:
    """The first release of the first 'yes' stretch, or None."""
    return next((first for value, first, _ in stretches(rows, signal) if value), None)


def first_release_without(rows: list[MatrixRow], signal: str) -> str | None:
    """The first release of the first 'no' stretch after a 'yes' one (where a symptom went away), or None."""
    found = stretches(rows, signal)
    return next((first for (was, *_), (value, first, _) in pairwise(found)
                 if was and not value), None)
