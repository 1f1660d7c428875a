"""pytest plugin for runs of ExecuTorch's own OpenVINO op tests: writes every test and subtest outcome as JSON.

Loaded with ``-p repro.harness.conformance.op_test_outcomes`` (``repro.harness.conformance.op_tests`` does).
PEER_OUTCOMES names the output file; PEER_WITH_WORKAROUND=1 installs the workaround first,
exactly as a user's unchanged script would get it, and counts how often its rule ran on a
partitioned program and how many nodes it handed back (the file's "workaround" entry), so that
an install() that does nothing cannot pass for one that changes nothing.
"""

import json
import os
import re
from pathlib import Path

import pytest

_outcomes = {}
_workaround = {"rule_ran": 0, "nodes_handed_back": 0}


def pytest_configure(config: pytest.Config) -> None:
    from repro.harness.lowering.cia_collection import materialize_once_per_collection

    materialize_once_per_collection()  # every way alike: the op tests lower about 150 times
    if os.environ.get("PEER_WITH_WORKAROUND") == "1":
        import workaround
        from workaround.partitioner import copy_safe_partitioner
        from workaround.partitioner.rules import exclusion

        workaround.install()
        rule = exclusion.hand_back_unsafe_nodes
        find = exclusion.nodes_to_hand_back

        def counted_rule(*args, **kwargs):
            _workaround["rule_ran"] += 1
            return rule(*args, **kwargs)

        def counted_find(*args, **kwargs):
            found = find(*args, **kwargs)
            _workaround["nodes_handed_back"] += len(found)
            return found

        copy_safe_partitioner.hand_back_unsafe_nodes = counted_rule
        exclusion.nodes_to_hand_back = counted_find


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    context = getattr(report, "context", None)  # a subtest's report carries its parameters
    # The file's name only, whatever the node id's folder (or none, for a single file run outside the
    # rootdir): the same tests run from the wheel or a copy.
    key = f"{Path(report.location[0]).name}::{report.nodeid.split('::', 1)[1]}"
    key += f" {sorted(context.kwargs.items())}" if context is not None else ""
    key = re.sub(r" at 0x[0-9a-f]+", "", key)  # parameters printed as objects carry their address
    if report.when == "call" or report.outcome != "passed":
        _outcomes[key] = report.outcome if report.when == "call" else f"{report.when} {report.outcome}"


def pytest_sessionfinish(session: pytest.Session) -> None:
    with open(os.environ["PEER_OUTCOMES"], "w") as file:
        json.dump({"outcomes": _outcomes, "workaround": _workaround}, file, indent=1, sort_keys=True)
