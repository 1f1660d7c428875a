"""pytest plugin for the peer-suite comparison: writes every test and subtest outcome as JSON.

Loaded with ``-p tests.peer_outcomes`` into a run of ExecuTorch's own OpenVINO op tests.
PEER_OUTCOMES names the output file; PEER_WITH_WORKAROUND=1 installs the workaround first,
exactly as a user's unchanged script would get it.
"""

import json
import os
import re

_outcomes = {}


def pytest_configure(config):
    if os.environ.get("PEER_WITH_WORKAROUND") == "1":
        import workaround

        workaround.install()


def pytest_runtest_logreport(report):
    context = getattr(report, "context", None)  # a subtest's report carries its parameters
    key = report.nodeid + (f" {sorted(context.kwargs.items())}" if context is not None else "")
    key = re.sub(r" at 0x[0-9a-f]+", "", key)  # parameters printed as objects carry their address
    if report.when == "call" or report.outcome != "passed":
        _outcomes[key] = report.outcome if report.when == "call" else f"{report.when} {report.outcome}"


def pytest_sessionfinish(session):
    with open(os.environ["PEER_OUTCOMES"], "w") as file:
        json.dump(_outcomes, file, indent=1, sort_keys=True)
