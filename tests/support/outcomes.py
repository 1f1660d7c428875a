"""Turning a case record from repro/executorch_path.py into an assertion.

The failure kinds are distinct exception types so that a strict xfail can name exactly
the failure it expects: a case known to give wrong values must not pass as "expected
failure" when it crashes instead, nor the other way round.
"""

import pytest

from repro.harness.cases.outcomes import AT_EXPORT, Outcome

UPSTREAM_CHANGED = ("Upstream behaviour changed: this case now does better than the release table "
                    "(tests/support/release_behaviour.py) says. Re-check OpenVINO / ExecuTorch, update the table "
                    "and the upstream report, and consider retiring the workaround.")


class CaseFailure(AssertionError):
    """A case's program is not what eager PyTorch gives. ``by_path_only``: it is right loaded from bytes and
    wrong only loaded by path (the by-path capability of a candidate, whatever the case is about)."""

    def __init__(self, message, by_path_only=False):
        super().__init__(message)
        self.by_path_only = by_path_only


class WrongValues(CaseFailure):
    """The program ran but an output differs from eager PyTorch beyond its tolerance."""


class Crashed(CaseFailure):
    """The process running the program died (e.g. SIGSEGV) or hung."""


class RuntimeFailed(CaseFailure):
    """The program loaded but execute() returned an error."""


class LoweringFailed(CaseFailure):
    """to_edge_transform_and_lower or to_executorch raised (or the workaround refused the model)."""


# Findings about loading by path only: the program is right from bytes.
BY_PATH_FINDINGS = {"delegate_blob_in_segment", "empty_constant_segment"}


class CheckFindings(CaseFailure):
    """The post-lowering check found something; ``kinds`` says what
    (``workaround.checker.program_check.Finding.kind``)."""

    def __init__(self, findings):
        self.kinds = {finding.kind for finding in findings}
        super().__init__(f"post-lowering check findings: {findings}",
                         by_path_only=self.kinds <= BY_PATH_FINDINGS)


def assert_equals_eager(record, loads=None):
    """Every load of the record's program (or those named) ran and equals eager PyTorch; bytes are judged
    first, so that a failure by path alone says so."""
    if record["outcome"] in AT_EXPORT:
        raise LoweringFailed(f"{record['outcome']}: {record['lowering_error']}")
    for load in sorted(loads or record["runs"], key=lambda load: load != "bytes"):
        run = record["runs"][load]
        where = f"{record['case']} ({record['partitioner']} partitioner, loaded from {load})"
        by_path_only = load == "path" and "bytes" in record["runs"]
        if run["outcome"] in (Outcome.CRASHED, Outcome.TIMED_OUT):
            raise Crashed(f"{where}: {run['detail']}", by_path_only)
        if run["outcome"] == Outcome.RUNTIME_FAILED:
            raise RuntimeFailed(f"{where}: {run['detail']}", by_path_only)
        if wrong := [row for row in run["outputs"] if not row["ok"]]:
            row = wrong[0]
            raise WrongValues(f"{where}: output {row['index']} differs from eager by {row['max_abs_diff']:.3g} "
                              f"(tolerance {row['tolerance']:.3g}; dim order {row['actual_dim_order']}, "
                              f"declared {row['dim_order']}); {len(wrong)} output(s) differ: {wrong}",
                              by_path_only)


def assert_check_is_clean(findings):
    """The post-lowering check found nothing (``workaround.check_program``'s findings)."""
    if findings:
        raise CheckFindings(findings)


# What the release table expects of a case (``tests/support/release_behaviour.py``): an outcome, or this, where the
# by-path load of a freed blob either crashes or reads garbage.
CRASHED_OR_WRONG = "crashed_or_wrong"
EXPECTED_RAISES = {Outcome.WRONG: WrongValues, Outcome.LOWERING_FAILED: LoweringFailed,
                   Outcome.RUNTIME_FAILED: RuntimeFailed, CRASHED_OR_WRONG: (Crashed, WrongValues)}


def expected_failure(outcome, why):
    """A strict xfail for a case the table says fails, naming what is expected and why; should it pass, the
    report adds what that means (``tests/conftest.py`` appends UPSTREAM_CHANGED to an XPASS only)."""
    return pytest.mark.xfail(raises=EXPECTED_RAISES[outcome], strict=True, reason=f"expected {outcome}: {why}")
