"""Turning a case record from repro/executorch_path.py into an assertion.

The failure kinds are distinct exception types so that a strict xfail can name exactly
the failure it expects: a case known to give wrong values must not pass as "expected
failure" when it crashes instead, nor the other way round.
"""

import pytest

UPSTREAM_CHANGED = ("Upstream behaviour changed: this case now does better than the release table "
                    "(tests/release_behaviour.py) says. Re-check OpenVINO / ExecuTorch, update the table and "
                    "the upstream report, and consider retiring the workaround.")


class WrongValues(AssertionError):
    """The program ran but an output differs from eager PyTorch beyond its tolerance."""


class Crashed(AssertionError):
    """The process running the program died (e.g. SIGSEGV) or hung."""


class RuntimeFailed(AssertionError):
    """The program loaded but execute() returned an error."""


class LoweringFailed(AssertionError):
    """to_edge_transform_and_lower or to_executorch raised (or the workaround refused the model)."""


def assert_equals_eager(record, loads=None):
    """Every load of the record's program (or those named) ran and equals eager PyTorch."""
    if record["outcome"] in ("lowering_failed", "refused"):
        raise LoweringFailed(f"{record['outcome']}: {record['lowering_error']}")
    for load in loads or record["runs"]:
        run = record["runs"][load]
        where = f"{record['case']} ({record['partitioner']} partitioner, loaded from {load})"
        if run["outcome"] in ("crashed", "timed_out"):
            raise Crashed(f"{where}: {run['detail']}")
        if run["outcome"] == "runtime_failed":
            raise RuntimeFailed(f"{where}: {run['detail']}")
        if wrong := [row for row in run["outputs"] if not row["ok"]]:
            row = wrong[0]
            raise WrongValues(f"{where}: output {row['index']} differs from eager by {row['max_abs_diff']:.3g} "
                              f"(tolerance {row['tolerance']:.3g}; dim order {row['actual_dim_order']}, "
                              f"declared {row['dim_order']}); {len(wrong)} output(s) differ: {wrong}")


EXPECTED_RAISES = {"wrong": WrongValues, "lowering_failed": LoweringFailed, "runtime_failed": RuntimeFailed,
                   "crashed_or_wrong": (Crashed, WrongValues)}


def expected_failure(outcome, why):
    """A strict xfail for a case the table says fails, naming what is wrong and what a pass means."""
    return pytest.mark.xfail(raises=EXPECTED_RAISES[outcome], strict=True,
                             reason=f"{outcome}: {why}. {UPSTREAM_CHANGED}")
