"""A program's OpenVINO blobs re-stamped for another CPU class, through ExecuTorch's own serializer.

OpenVINO 2026.4 imports a blob only where the importing process builds the same compatibility text as the one
in its header (``workaround/compatibility_stamp.py``), and the IR after the header is the same whichever class
exported it (at one precision). So the program another class would have made is this one with each blob's text
replaced: the gate lowers a case once and runs it as every class the host reaches, instead of lowering it again
in a capped process per class (``tests/gate/test_cpu_classes.py`` holds the two equal).
"""

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from functools import cache

from workaround import compatibility_stamp

# A child that exports a one-op model and prints its blob's compatibility text (nothing before OpenVINO 2026.4).
_STAMP_PROBE = """
import json, openvino as ov, openvino.opset8 as ops
from workaround import compatibility_stamp
x = ops.parameter([1], ov.Type.f32)
compiled = ov.Core().compile_model(ov.Model([ops.sin(x)], [x]), "CPU")
stamp = compatibility_stamp.read(compiled.export_model().getvalue())
print(json.dumps(stamp and stamp.text))
"""


@cache
def importer_text(environment: tuple[tuple[str, str], ...]) -> str | None:
    """The compatibility text a process with ``environment`` on this host builds (and so requires of a blob)."""
    from repro.harness.program_runner import PROJECT

    found = subprocess.run([sys.executable, "-c", _STAMP_PROBE], env={**os.environ, **dict(environment)},
                           cwd=PROJECT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(found.stdout)


def text_for(environment: Mapping[str, str]) -> str | None:
    return importer_text(tuple(sorted(environment.items())))


def restamped(program: bytes, text: str) -> bytes:
    """``program`` with every stamped delegate blob's text replaced, laid out as it was (inline or in segments)."""
    from executorch.exir._serialize import _program

    from workaround import pte_reader

    in_segments = any(delegate.in_segment for delegate in pte_reader.delegates(program))
    pte = _program.deserialize_pte_binary(program)
    for data in pte.program.backend_delegate_data:
        if compatibility_stamp.read(data.data) is not None:
            data.data = compatibility_stamp.with_text(data.data, text)
    return bytes(_program.serialize_pte_binary(pte, extract_delegate_segments=in_segments))
