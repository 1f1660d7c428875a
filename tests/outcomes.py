"""Turning a case record from repro/executorch_path.py into an assertion.

The two failure kinds are distinct exception types so that a strict xfail can name
exactly the failure it expects: a case known to give wrong values must not pass as
"expected failure" when it crashes instead.
"""

import pytest

UPSTREAM_CHANGED = ("Upstream behaviour changed: this case now does better than the release table "
                    "(tests/release_behaviour.py) says. Re-check OpenVINO / ExecuTorch, update the table and "
                    "the upstream report, and consider retiring the workaround.")


class WrongValues(AssertionError):
    """The program ran but an output differs from eager PyTorch beyond its tolerance."""


class LoweringFailed(AssertionError):
    """to_edge_transform_and_lower or to_executorch raised (or the workaround refused the model)."""


def assert_equals_eager(record):
    if record["outcome"] in ("lowering_failed", "refused"):
        raise LoweringFailed(f"{record['outcome']}: {record['lowering_error']}")
    assert record["outcome"] != "runtime_failed", record["runtime_error"]
    wrong = [row for row in record["outputs"] if not row["ok"]]
    if wrong:
        raise WrongValues(f"{record['case']} ({record['partitioner']} partitioner): outputs differ from "
                          f"eager: {wrong}")


def expected_failure(outcome, why):
    """A strict xfail for a case the table says fails, naming what is wrong and what a pass means."""
    raises = {"wrong": WrongValues, "lowering_failed": LoweringFailed}[outcome]
    return pytest.mark.xfail(raises=raises, strict=True, reason=f"{outcome}: {why}. {UPSTREAM_CHANGED}")
