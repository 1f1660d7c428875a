"""Hide what torch, torchao, tokenizers and ExecuTorch's runtime print while they load, unless asked.

None of it is about the bugs (deprecation warnings, "Failed to load ... _C_mxfp8.so", pytree and
cpuinfo logs), and much of it is written by C++ straight to the file descriptors, so Python's own
warning filters cannot reach it: the descriptors are pointed at a scratch file while the stack loads.
"""

import contextlib
import importlib
import os
import sys
import tempfile
import warnings
from collections.abc import Iterator

# Raised by torch.export on every export; not ours.
EXPORT_WARNING = r"`isinstance\(treespec, LeafSpec\)` is deprecated"


@contextlib.contextmanager
def chatter_hidden(show: bool) -> Iterator[None]:
    """Within the block, stdout and stderr (file descriptors 1 and 2) go to a scratch file, unless ``show``."""
    if show:
        yield
        return
    warnings.filterwarnings("ignore", message=EXPORT_WARNING)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with tempfile.TemporaryFile() as scratch:
        os.dup2(scratch.fileno(), 1)
        os.dup2(scratch.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for descriptor in saved:
                os.close(descriptor)


# What lowering and running a program import: loaded (and talking) once, inside chatter_hidden.
EXPORT_STACK = ("executorch.exir", "executorch.backends.openvino.partitioner", "executorch.runtime")


def load_the_export_stack() -> None:
    for module in EXPORT_STACK:
        importlib.import_module(module)
