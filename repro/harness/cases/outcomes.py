"""A case's outcomes and their counts (torch-free: the matrix's tables read them from recorded JSON)."""

from collections import Counter
from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    """How a case ended, or one load of it. A str: the JSON records hold the values, and compare equal."""

    CORRECT = "correct"  # every output equals eager (values, dtype, shape, dim order)
    WRONG = "wrong"
    CRASHED = "crashed"  # the process running the program died (a signal, or an exit)
    TIMED_OUT = "timed_out"
    LOWERING_FAILED = "lowering_failed"
    RUNTIME_FAILED = "runtime_failed"  # the runtime raised (load, init or execute)
    REFUSED = "refused"  # the workaround refused, at export, what it cannot make correct: not the bug


# A case's outcome that is the bug: how it lowered, then how each load ran.
BUG_OUTCOMES = (Outcome.WRONG, Outcome.CRASHED, Outcome.LOWERING_FAILED, Outcome.RUNTIME_FAILED)
# Outcomes decided at export, before any load.
AT_EXPORT = (Outcome.LOWERING_FAILED, Outcome.REFUSED)


def overall_outcome(runs: Mapping[str, Mapping[str, Any]]) -> Outcome:
    """CORRECT when every load is; otherwise the first load's failure (bytes before path)."""
    return next((run["outcome"] for run in runs.values() if run["outcome"] != Outcome.CORRECT), Outcome.CORRECT)


def outcome_counts(records: Iterable[Mapping[str, Any]]) -> dict[str, Counter[str]]:
    """{"lowering": Counter, load: Counter} over the records, for the verdict and the matrix."""
    counts = {"lowering": Counter(r["outcome"] for r in records if r["outcome"] in AT_EXPORT)}
    for record in records:
        for load, run in record["runs"].items():
            counts.setdefault(load, Counter())[run["outcome"]] += 1
    return counts


def describe_counts(counts: Mapping[str, Mapping[str, int]]) -> str:
    """\"bytes: 3 correct, 1 wrong; path: ...\" from outcome_counts (or the same read back from JSON)."""
    parts = [f"{load}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counter.items()))
             for load, counter in counts.items() if counter]
    return "; ".join(parts)
