"""An OpInfo's sample inputs without torch.testing's walk of the stack, where the walk finds nothing anyway.

``OpInfo.sample_inputs`` asks torch.testing's ``extract_test_fn``, twice per call, which unittest test it runs
in, so as to seed the samples with that test's name: ``inspect.stack()``, source lines and all, over every
frame, which with torch and ExecuTorch loaded costs each gate worker about 6 s while it merely collects the
exact-rewrite tests (machine A). Outside any ``unittest.TestCase`` the walk finds none, and the samples are seeded
with torch's ``SEED``; there the answer is given at once, and the samples are the same (the gate compares them).
Inside a TestCase the walk runs as torch wrote it.
"""

import contextlib
import sys
import unittest
from collections.abc import Iterator
from typing import Any

from torch.testing._internal import common_utils
from torch.testing._internal.opinfo import core

# The modules that call the walk, each under the name it imported it by.
_CALLERS = (common_utils, core)


def inside_a_unittest_test() -> bool:
    """Whether a frame below this one is a method of a ``unittest.TestCase`` (what the walk looks for)."""
    frame = sys._getframe(1)
    while frame is not None:
        if isinstance(frame.f_locals.get("self"), unittest.TestCase):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def _no_test_to_find() -> Iterator[None]:
    walks = [caller.extract_test_fn for caller in _CALLERS]
    for caller in _CALLERS:
        caller.extract_test_fn = lambda: None
    try:
        yield
    finally:
        for caller, walk in zip(_CALLERS, walks, strict=True):
            caller.extract_test_fn = walk


def sample_inputs(info: Any, device: str, dtype: Any) -> Iterator[Any]:
    """``info.sample_inputs(device, dtype)``: the walk answered at once outside a unittest test."""
    if inside_a_unittest_test():
        return info.sample_inputs(device, dtype)
    with _no_test_to_find():
        return info.sample_inputs(device, dtype)
