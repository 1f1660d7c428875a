"""Counting a run's case outcomes (torch-free: the matrix's tables read them from recorded JSON)."""

from collections import Counter

# A case's outcome that is the bug: how it lowered, then how each load ran.
BUG_OUTCOMES = ("wrong", "crashed", "lowering_failed", "runtime_failed")


def overall_outcome(runs):
    """"correct" when every load is; otherwise the first load's failure (bytes before path)."""
    return next((run["outcome"] for run in runs.values() if run["outcome"] != "correct"), "correct")


def outcome_counts(records):
    """{"lowering": Counter, load: Counter} over the records, for the verdict and the matrix."""
    counts = {"lowering": Counter(r["outcome"] for r in records if r["outcome"] in ("lowering_failed", "refused"))}
    for record in records:
        for load, run in record["runs"].items():
            counts.setdefault(load, Counter())[run["outcome"]] += 1
    return counts


def describe_counts(counts):
    """\"bytes: 3 correct, 1 wrong; path: ...\" from outcome_counts (or the same read back from JSON)."""
    parts = [f"{load}: " + ", ".join(f"{n} {outcome}" for outcome, n in sorted(counter.items()))
             for load, counter in counts.items() if counter]
    return "; ".join(parts)
