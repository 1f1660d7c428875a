"""The conformance sweep's recorded outcomes, torch-free: where they are kept, how a run is held to them, and
the per-op table (``repro/harness/conformance.py`` runs the sweep; the reports read the record).
"""

import json
import math
from collections.abc import Mapping
from pathlib import Path

from repro.harness.outcomes import Outcome

LOWERINGS = ("stock", "workaround", "workaround-torch-special-values")
EXPECTED = Path(__file__).with_name("conformance_expected.json")
# The "special values" variant refills a sample's float tensors with these, in turn.
SPECIAL_FLOATS = (math.nan, math.inf, -math.inf, -0.0, 1e30, -2.5, 0.5)
# A sweep outcome is a load's ``Outcome``, or this: the stock partitioner delegated nothing of the case.
NOT_DELEGATED = "not_delegated"


def recorded(release: str) -> dict[str, dict[str, str]] | None:
    """The outcomes recorded for an OpenVINO release, or None if it was never swept."""
    if not EXPECTED.exists():
        return None
    table: dict[str, dict[str, dict[str, str]]] = json.loads(EXPECTED.read_text())
    return table.get(release)


def record(release: str, outcomes: dict[str, dict[str, str]], replace: bool) -> None:
    """Keep ``outcomes`` as the expectations of ``release``: all of them (``replace``), or merged into what is
    recorded (a shard of the sweep; shards may finish at once, hence the lock). Other releases' stay."""
    from filelock import FileLock

    with FileLock(str(EXPECTED) + ".lock"):
        table = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
        merged = outcomes if replace else {**table.get(release, {}), **outcomes}
        table[release] = dict(sorted(merged.items()))
        EXPECTED.write_text(json.dumps(dict(sorted(table.items())), indent=1) + "\n")


def differences(outcomes: Mapping[str, Mapping[str, str]], expected: Mapping[str, Mapping[str, str]]) -> list[str]:
    """One line per case whose outcome is not the recorded one (or that was never recorded)."""
    lines = []
    for case_id, found in outcomes.items():
        if (want := expected.get(case_id)) != found:
            lines.append(f"{case_id}: {found} where {want or 'nothing'} was recorded")
    return lines


def not_correct(found: Mapping[str, str], lowering: str) -> bool:
    return found[lowering] not in (Outcome.CORRECT, NOT_DELEGATED)


def markdown(outcomes: Mapping[str, Mapping[str, str]], release: str) -> str:
    """A row per op: how many cases, what stock and the workaround (both modes) get wrong, by variant."""
    by_op: dict[tuple[str, str], list[tuple[str, Mapping[str, str]]]] = {}
    for case_id, found in outcomes.items():
        op, opinfo, variant = case_id.split("/")
        by_op.setdefault((op, opinfo), []).append((variant, found))
    counts = {name: sum(not_correct(found, name) for found in outcomes.values()) for name in LOWERINGS}
    lines = [f"OpenVINO {release}, f32 (`OV_CPU_MAX_ISA` capped), {len({op for op, _ in by_op})} ops "
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
    return "\n".join(lines) + "\n"
