"""The conformance sweep's recorded outcomes, torch-free: where they are kept, how a run is held to them, and
the per-op table (``repro/harness/conformance/per_op.py`` runs the sweep; the reports read the record).
"""

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from repro.harness.cases.outcomes import Outcome

LOWERINGS = ("stock", "workaround", "workaround-torch-special-values")
EXPECTED = Path(__file__).with_name("expected.json")
# The variants a whole sweep could not make, with the reason: the denominator's record (docs quote its count).
NOT_SWEPT = Path(__file__).with_name("not_swept.json")
# The "special values" variant refills a sample's float tensors with these, in turn.
SPECIAL_FLOATS = (math.nan, math.inf, -math.inf, -0.0, 1e30, -2.5, 0.5)
# A sweep outcome is a load's ``Outcome``, or this: the stock partitioner delegated nothing of the case.
NOT_DELEGATED = "not_delegated"


Outcomes = dict[str, dict[str, str]]  # {case id: {lowering: outcome}}


def recorded(release: str, cpu_class: str) -> Outcomes | None:
    """The outcomes recorded for an OpenVINO release on a CPU class (``repro.harness.cpu.classes``: OpenVINO's
    kernels compute some special values differently by class), or None if that pair was never swept."""
    if not EXPECTED.exists():
        return None
    table: dict[str, dict[str, Outcomes]] = json.loads(EXPECTED.read_text())
    return table.get(release, {}).get(cpu_class)


def recorded_classes(release: str) -> list[str]:
    """The CPU classes a release's sweep is recorded for."""
    return sorted(json.loads(EXPECTED.read_text()).get(release, {})) if EXPECTED.exists() else []


def record(release: str, cpu_class: str, outcomes: Outcomes, replace: bool) -> None:
    """Keep ``outcomes`` as the expectations of ``release`` on ``cpu_class``: all of them (``replace``), or merged
    into what is recorded (a shard of the sweep; shards may finish at once, hence the lock). Other releases' and
    classes' stay."""
    from filelock import FileLock

    with FileLock(str(EXPECTED) + ".lock"):
        table = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
        classes = table.setdefault(release, {})
        kept = classes.get(cpu_class, {})
        merged = outcomes if replace else {**kept, **{case_id: {**kept.get(case_id, {}), **found}
                                                      for case_id, found in outcomes.items()}}
        classes[cpu_class] = dict(sorted(merged.items()))
        table[release] = dict(sorted(classes.items()))
        EXPECTED.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")


def record_not_swept(lines: Sequence[str], torch_release: str) -> None:
    """Keep what a whole sweep could not make (it depends on torch's OpInfo database, not on OpenVINO)."""
    NOT_SWEPT.write_text(json.dumps({"torch": torch_release, "variants": list(lines)}, indent=1) + "\n")


def not_swept_recorded() -> list[str]:
    return list(json.loads(NOT_SWEPT.read_text())["variants"]) if NOT_SWEPT.exists() else []


def class_differences(release: str) -> dict[str, dict[str, dict[str, str]]]:
    """{case id: {class: outcomes}} for every case whose outcomes are not the same on every recorded class of
    ``release``: what OpenVINO computes differently by instruction set."""
    by_class = {cpu_class: recorded(release, cpu_class) or {} for cpu_class in recorded_classes(release)}
    cases = sorted({case_id for outcomes in by_class.values() for case_id in outcomes})
    found = {case_id: {cpu_class: outcomes.get(case_id, {}) for cpu_class, outcomes in by_class.items()}
             for case_id in cases}
    return {case_id: rows for case_id, rows in found.items()
            if len({json.dumps(row, sort_keys=True) for row in rows.values()}) > 1}


def differences(outcomes: Mapping[str, Mapping[str, str]], expected: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One line per case whose outcome is not the recorded one (or that was never recorded)."""
    lines = []
    for case_id, found in outcomes.items():
        want = {name: outcome for name, outcome in expected.get(case_id, {}).items() if name in found}
        if want != found:
            lines.append(f"{case_id}: {found} where {want or 'nothing'} was recorded")
    return lines


def not_correct(found: Mapping[str, str], lowering: str) -> bool:
    return found[lowering] not in (Outcome.CORRECT, NOT_DELEGATED)


def markdown(outcomes: Mapping[str, Mapping[str, str]], release: str, cpu_class: str,
             not_swept: Sequence[str] = ()) -> str:
    """A row per op: how many cases, what stock and the workaround (both modes) get wrong, by variant; then
    each variant the sweep could not make, and why (``not_swept``: one line each)."""
    by_op: dict[tuple[str, str], list[tuple[str, Mapping[str, str]]]] = {}
    for case_id, found in outcomes.items():
        op, opinfo, variant = case_id.split("/")
        by_op.setdefault((op, opinfo), []).append((variant, found))
    counts = {name: sum(not_correct(found, name) for found in outcomes.values()) for name in LOWERINGS}
    lines = [f"OpenVINO {release}, CPU class `{cpu_class}`, f32, {len({op for op, _ in by_op})} ops "
             f"({len(by_op)} OpInfo entries), {len(outcomes)} cases: stock "
             f"not correct in {counts['stock']}, the workaround in {counts['workaround']}, the workaround with "
             f"`special_values=\"torch\"` in {counts['workaround-torch-special-values']}. Each case is a sample "
             "call of PyTorch's OpInfo database; `not_delegated`: the stock partitioner made no delegate; "
             "`refused`: the workaround refused it at lowering, in one line (neither OpenVINO nor ExecuTorch's "
             "runtime computes it as PyTorch does).", "",
             "| op (OpInfo) | cases | stock not correct | workaround not correct | "
             "with `special_values=\"torch\"` |",
             "|---|---|---|---|---|"]
    for (op, opinfo), rows in sorted(by_op.items()):
        cells = [", ".join(f"{variant} ({found[name]})" for variant, found in rows if not_correct(found, name))
                 or "-"
                 for name in LOWERINGS]
        lines.append(f"| `{op}` ({opinfo}) | {len(rows)} | {' | '.join(cells)} |")
    if not_swept:
        why = "the OpInfo could not make the call here, or eager refuses it"
        lines += ["", f"Not swept ({len(not_swept)}: {why}):", "", *(f"- {line}" for line in not_swept)]
    return "\n".join(lines) + "\n"


def class_markdown(release: str) -> str:
    """A row per case whose outcomes differ between the recorded CPU classes of ``release``: what each lowering
    gives on each class (docs/conformance.md, "By CPU class")."""
    differing = class_differences(release)
    classes = recorded_classes(release)
    lines = [f"OpenVINO {release}: {len(differing)} of the sweep's cases differ between the classes "
             f"{', '.join(f'`{cpu_class}`' for cpu_class in classes)} (each cell: stock / workaround / "
             "`special_values=\"torch\"`).", "",
             "| case | " + " | ".join(classes) + " |", "|---|" + "---|" * len(classes)]
    for case_id, rows in differing.items():
        cells = [" / ".join(rows[cpu_class].get(name, "-") for name in LOWERINGS) for cpu_class in classes]
        lines.append(f"| `{case_id}` | {' | '.join(cells)} |")
    return "\n".join(lines) + "\n"
