"""A program's OpenVINO blobs re-stamped for another CPU class, by the workaround's own rewriter
(``workaround.checker.restamping``, what ``openvino-pte-restamp`` runs).

OpenVINO 2026.4 imports a blob only where the importing process builds the same compatibility text as the one in
its header (``workaround/checker/compatibility_stamp.py``), and the IR after the header is the same whichever class
exported it (at one precision). So the program another class would have made is this one with each blob's text
replaced: the gate lowers a case once and runs it as every class the host reaches, instead of lowering it again in
a capped process per class (``tests/gate/test_cpu_classes.py`` holds the two equal).
"""

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from functools import cache

from workaround.checker import restamping

# A child that prints the compatibility text it builds (None before OpenVINO 2026.4).
_STAMP_PROBE = "import json; from workaround.checker import compatibility_stamp; " \
    "print(json.dumps(compatibility_stamp.this_process_text()))"


@cache
def importer_text(environment: tuple[tuple[str, str], ...]) -> str | None:
    """The compatibility text a process with ``environment`` on this host builds (and so requires of a blob)."""
    from repro.harness.runtime.program_runner import PROJECT

    found = subprocess.run([sys.executable, "-c", _STAMP_PROBE], env={**os.environ, **dict(environment)},
                           cwd=PROJECT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(found.stdout)


def text_for(environment: Mapping[str, str]) -> str | None:
    return importer_text(tuple(sorted(environment.items())))


def restamped(program: bytes, text: str) -> bytes:
    """``program`` with every stamped delegate blob's text replaced."""
    return restamping.restamp(program, lambda _: text)[0]
