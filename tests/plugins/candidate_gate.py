"""Run the gate against a candidate partitioner: ``pytest --partitioner module:Class [--transform-pass mod:Cls]``.

``--case NAME`` (repeatable, with or without ``--partitioner``) keeps only the tests of those catalogue cases.

Without the option the lowering under test is the workaround. With it, the candidate takes the
workaround's place in every test marked ``under_test`` (each holds that lowering to eager: the
catalogue, dim-order and guard cases, the property-based gate, the policy, by-path loading, the
post-lowering check); every other test (the stock-is-wrong expectations, the workaround's own
mechanics) is deselected. At the end a summary per capability says passed / failed and the first
failing case of each, with its error: what a reviewer pastes into a pull request.

A pytest plugin (``pytest_plugins`` in the conftest loads it).
"""

from dataclasses import dataclass
from enum import StrEnum

import pytest

from workaround.contract.differences import finding_kinds
from workaround.contract.finding_kinds import FindingKind


class Capability(StrEnum):
    """What a gated test checks, in the order the summary lists them."""

    COPIES = "copies"
    CHANNELS_LAST = "channels-last"
    BY_PATH = "by-path"
    GUARDS = "guards"
    SEMANTICS = "semantics"
    POLICY = "policy"
    PROPERTY_BASED = "property-based"


# What each kind of post-lowering check finding is about (``workaround.checker.program_check``).
FINDING_CAPABILITIES = {
    FindingKind.PASS_THROUGH_OUTPUT: Capability.COPIES,
    FindingKind.NON_DEFAULT_DIM_ORDER: Capability.CHANNELS_LAST,
    FindingKind.DELEGATE_BLOB_IN_SEGMENT: Capability.BY_PATH,
    FindingKind.EMPTY_CONSTANT_SEGMENT: Capability.BY_PATH,
    FindingKind.EMPTY_OR_0D_ARGUMENT: Capability.GUARDS, FindingKind.DYNAMIC_SHAPED_OUTPUT: Capability.GUARDS,
    **dict.fromkeys(finding_kinds(), Capability.SEMANTICS)}
# The capability a catalogue case checks, by its group (``repro.harness.models.catalogue.GROUPS``).
CASE_GROUP_CAPABILITIES = {"copies": Capability.COPIES, "dim order": Capability.CHANNELS_LAST,
                           "constants": Capability.BY_PATH, "guards": Capability.GUARDS,
                           "semantics": Capability.SEMANTICS}


@dataclass
class CapabilityResult:
    """One capability's line of the summary: its tests passed and failed, and the first failure with its error."""

    passed: int = 0
    failed: int = 0
    first_failure: str | None = None


_state = {"lowering": None, "spec": None, "results": {}}  # results: {capability: CapabilityResult}


def under_test():
    """The ``Lowering`` the ``under_test`` tests hold to eager: the workaround, or the candidate."""
    if _state["lowering"] is None:
        from repro.harness.lowering.named import WORKAROUND

        return WORKAROUND
    return _state["lowering"]


def pytest_addoption(parser):
    group = parser.getgroup("candidate", "gate a candidate partitioner")
    group.addoption("--partitioner", metavar="module:Class", default=None,
                    help="run the tests that hold the workaround to eager against this partitioner class "
                         "instead (constructed with [CompileSpec('device', b'CPU')]); deselects the rest")
    group.addoption("--transform-pass", metavar="module:Class", action="append", default=[],
                    help="with --partitioner: a transform pass class to lower with (repeatable)")
    group.addoption("--case", metavar="NAME", action="append", default=[], dest="catalogue_cases",
                    help="only the tests of this catalogue case (repeatable; repro/harness/models/catalogue.py)")


def pytest_configure(config):
    cases = config.getoption("catalogue_cases")
    unknown = sorted(set(cases) - set(catalogue_case_names())) if cases else []
    if unknown:
        raise pytest.UsageError(f"--case: not a catalogue case: {', '.join(unknown)}")
    spec, passes = config.getoption("--partitioner"), config.getoption("--transform-pass")
    if passes and not spec:
        raise pytest.UsageError("--transform-pass goes with --partitioner module:Class")
    if not spec:
        return
    from repro.harness.lowering import candidates

    try:
        _state["lowering"] = candidates.candidate_lowering(spec, passes)
    except candidates.CandidateError as error:
        raise pytest.UsageError(str(error)) from None
    _state["spec"] = " ".join([spec, *(f"--transform-pass {p}" for p in passes)])


def catalogue_case_names():
    from repro.harness.models.catalogue import CASES

    return CASES.keys()


def case_of(item):
    """The catalogue case a test is parametrized with, or None."""
    callspec = getattr(item, "callspec", None)
    return callspec.params.get("case") if callspec else None


def pytest_collection_modifyitems(config, items):
    cases = set(config.getoption("catalogue_cases"))
    if not (_state["spec"] or cases):
        return
    kept = [item for item in items if (not _state["spec"] or item.get_closest_marker("under_test"))
            and (not cases or case_of(item) in cases)]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept


def capability(item, error=None):
    """Which capability a test checks: from its catalogue case's group, else from the test itself. A failure
    that only loading by path shows (``error.by_path_only``: right from bytes, or only the delegate blob in a
    segment) counts against by-path, and check findings against what they are about (the blob in a segment
    aside, when there is more), whatever the case is about."""
    from repro.harness.models import catalogue

    if getattr(error, "by_path_only", False):
        return Capability.BY_PATH
    about = {FINDING_CAPABILITIES.get(kind) for kind in getattr(error, "kinds", ())} - {Capability.BY_PATH}
    if len(about) == 1 and None not in about:
        return about.pop()
    if "fuzz" in item.module.__name__:
        return Capability.PROPERTY_BASED
    if "by_path" in item.module.__name__:
        return Capability.BY_PATH
    if "policy" in item.name:
        return Capability.POLICY
    return CASE_GROUP_CAPABILITIES.get(catalogue.group_of(case_of(item)), Capability.COPIES)


CAPABILITY = "candidate_capability"  # the report's user property naming the capability a test checks


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Label the report with its capability where the test runs (an xdist worker, or this process): the
    report travels to the process that prints the summary, the item does not."""
    outcome = yield
    if _state["spec"] and item.get_closest_marker("under_test"):
        error = call.excinfo.value if call.excinfo else None
        # as its plain string: xdist sends reports to the controller with execnet, which takes only builtin types
        outcome.get_result().user_properties.append((CAPABILITY, str(capability(item, error))))


def pytest_runtest_logreport(report):
    """Count each labelled report where the summary is printed (with xdist the controller sees every worker's
    reports; a worker counts its own too, but prints no summary)."""
    labels = dict(report.user_properties)
    if CAPABILITY not in labels or report.when not in ("setup", "call"):
        return
    results = _state["results"].setdefault(labels[CAPABILITY], CapabilityResult())
    if report.failed:
        results.failed += 1
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash else str(report.longrepr)
        name = report.nodeid.split("::")[-1]
        results.first_failure = results.first_failure or f"{name}: {message.splitlines()[0][:300]}"
    elif report.when == "call" and report.passed:
        results.passed += 1


@pytest.hookimpl(hookwrapper=True)
def pytest_terminal_summary(terminalreporter):
    yield  # after pytest's own summary of failures: the last thing before the counts
    for line in summary_lines():
        terminalreporter.write_line(line)


def summary_lines():
    if not _state["results"]:
        return []
    lines = [f"candidate partitioner {_state['spec']}: per capability"]
    for name in Capability:
        results = _state["results"].get(name)
        if results:
            verdict = "PASSED" if not results.failed else "FAILED"
            lines.append(f"  {name:15} {verdict}: {results.passed} passed, {results.failed} failed")
            if results.first_failure:
                lines.append(f"  {'':15} first failure: {results.first_failure}")
    return lines
