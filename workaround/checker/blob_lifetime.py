"""Does a compiled model still read its blob after import?  Asked of OpenVINO itself, in a child process.

Why: ExecuTorch 1.5.1's OpenVINO backend frees a blob stored in a segment right after importing it, and from
OpenVINO 2026.4.0 the import (``ov_core_import_model``, which wraps the caller's memory in an ``ov::Tensor``)
copies only what the CPU plugin repacks: constants it reads in place (a bias, an eltwise operand, an axis) stay
pointers into the freed blob. So a segment blob crashes (or computes on freed memory) by path only if its compiled
model reads it after import, and which constants the plugin reads in place is its choice per release, ISA and
precision: no table of ops can say it, and comparing outputs cannot either (a comparison with a constant that no
input crosses gives the same output whatever the constant).

So the child does what the runtime does, made certain: it imports the blob from pages it owns, as the backend does
(``Core.import_model(Tensor)``, the overload behind the C API), takes every access away from those pages at once
(``mprotect``, where the runtime's ``munmap`` lets later allocations reuse them), and only then runs the model, at
both ends of each dynamic dimension's range where it has some. The first run must come after: the plugin prepares
some nodes then, and a bf16 convolution with a dynamic input copies its bias from the blob at that moment
(measured: a check that ran the model once before taking the pages away called that program safe, and by path
it crashed). A fault: the model reads its blob (``READS``). It runs: it keeps nothing of it (``KEEPS_NOTHING``).
A model that fails here on inputs of its own says nothing (``UNKNOWN``).

The child computes as this process would (its environment, hence its CPU class and precision, is the parent's):
the answer is for where the check runs, as the rest of the check is. The child is this file run by path (``python
blob_lifetime.py SIZE < BLOB`` prints what it did): it needs numpy and openvino only, wherever the package is.
"""

import contextlib
import io
import os
import signal
import subprocess
import sys
import tempfile
from enum import StrEnum
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:  # the child runs this file by path, where only what is installed imports
    from workaround.contract.openvino_types import CompiledModel, InferRequest, OpenvinoDimension

PROTECTED = "protected"  # the child's line once the pages are out of reach: a crash after it is a read of them
PROT_NONE = 0  # mprotect's "no access" (sys/mman.h)


class BlobUse(StrEnum):
    READS = "reads"  # the compiled model reads its blob after import: freed, it crashes or computes wrong
    KEEPS_NOTHING = "keeps_nothing"  # it runs with its blob out of reach
    UNKNOWN = "unknown"  # the model could not be run here on inputs of its own


# Seconds a probe may take: an import and a few runs of one blob, under a second here. A probe that outlives it is
# asked again, once, and then counts as not answering (UNKNOWN: still flagged).
PROBE_TIMEOUT = 120
PROBE_ATTEMPTS = 2


def ask(blob: bytes) -> tuple[int, str] | None:
    """(the child's exit status, what it printed), or None when it did not finish in time.

    What it prints goes to a file, not a pipe, and its process group is killed when it is done: ``import
    openvino`` sends telemetry from a thread that forks a process (openvino_telemetry's GA4 sender), and a process
    forked while the child's main thread reads its stdin deadlocks in multiprocessing's ``sys.stdin.close()``.
    Such a grandchild, left behind when the child crashes as a probe does, holds whatever the child inherited: on
    a pipe, the parent waited for an end of file that never came (CI, 2026-12-07: two probes "hung" for 300 s,
    and gdb found their telemetry grandchildren waiting on the stdin buffer's lock)."""
    with tempfile.TemporaryFile() as said:
        child = subprocess.Popen([sys.executable, __file__, str(len(blob))], stdin=subprocess.PIPE, stdout=said,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            child.communicate(blob, timeout=PROBE_TIMEOUT)
        except subprocess.TimeoutExpired:
            return None
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)  # the child, if it is alive, and whatever it left
            child.wait()
        said.seek(0)
        return child.returncode, said.read().decode(errors="replace")


def blob_use(blob: bytes) -> BlobUse:
    """Whether the compiled model ``blob`` reads it after import, asked of a child (which crashes if it does)."""
    for _ in range(PROBE_ATTEMPTS):
        if (answer := ask(blob)) is not None:
            break
    else:
        return BlobUse.UNKNOWN
    returncode, printed = answer
    said = printed.split()
    if returncode < 0 and said[-1:] == [PROTECTED]:  # killed by the fault, its pages out of reach
        return BlobUse.READS
    return BlobUse.KEEPS_NOTHING if said[-1:] == [BlobUse.KEEPS_NOTHING] else BlobUse.UNKNOWN


def _shapes(compiled: "CompiledModel") -> list[list[list[int]]]:
    """One or two shapes per input: where a dimension is dynamic, its smallest and its largest (or next) length."""
    def length(dim: "OpenvinoDimension", largest: bool) -> int:
        if dim.is_static:
            return int(dim.get_length())
        low = max(int(dim.get_min_length()), 1)
        high = int(dim.get_max_length())
        return (high if high > 0 else low + 1) if largest else low

    ports = [port.get_partial_shape() for port in compiled.inputs]
    sets = [[[length(dim, largest) for dim in shape] for shape in ports] for largest in (False, True)]
    return sets if any(shape.is_dynamic for shape in ports) else sets[:1]


def _run_every_shape(compiled: "CompiledModel", request: "InferRequest") -> None:
    import numpy as np

    generator = np.random.default_rng(0)
    for shapes in _shapes(compiled):
        inputs = []
        for port, shape in zip(compiled.inputs, shapes, strict=True):
            dtype = port.get_element_type().to_dtype()
            inputs.append(generator.standard_normal(shape).astype(dtype) if np.issubdtype(dtype, np.floating)
                          else generator.integers(0, 2, shape).astype(dtype))  # an index among them: >= 0
        request.infer(inputs)


def main(size: int) -> None:
    import ctypes
    import mmap

    import numpy as np
    import openvino as ov

    pages = mmap.mmap(-1, size)  # page-aligned, this process's own: the blob as the runtime maps it
    view, read = memoryview(pages), 0
    stdin = cast(io.BufferedReader, sys.stdin.buffer)
    while read < size and (got := stdin.readinto(view[read:])):
        read += got
    try:
        compiled = ov.Core().import_model(ov.Tensor(np.frombuffer(pages, dtype=np.uint8), shared_memory=True),
                                          "CPU")
    except RuntimeError:
        print(BlobUse.UNKNOWN)
        return
    address = ctypes.addressof(ctypes.c_char.from_buffer(pages))
    if ctypes.CDLL(None, use_errno=True).mprotect(ctypes.c_void_p(address), ctypes.c_size_t(size), PROT_NONE):
        print(BlobUse.UNKNOWN)
        return
    print(PROTECTED, flush=True)
    try:
        _run_every_shape(compiled, compiled.create_infer_request())
    except RuntimeError:
        print(BlobUse.UNKNOWN)
        return
    print(BlobUse.KEEPS_NOTHING)


if __name__ == "__main__":
    main(int(sys.argv[1]))
