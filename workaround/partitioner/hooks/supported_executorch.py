"""The ExecuTorch releases the workaround is proven on, and the check that refuses any other.

The workaround replaces entry points of ExecuTorch (``OpenvinoPartitioner.partition`` and
``.ops_to_not_decompose``, ``OpenvinoBackend.preprocess``, ``EdgeProgramManager.to_executorch``) and
relies on what they do in these releases; the gate runs green on each of them (tox:
``ov2026.4-et1.4``, ``ov2026.4-et1.5.0``, ``ov2026.4``). On any other release the workaround stops where
it installs those replacements, with one line naming the range, rather than failing deep in an export.
``pip install "<repo>[partitioner]"`` asks for the same range (``pyproject.toml``; a test keeps the two
equal).
"""

import functools
import re
from importlib.metadata import PackageNotFoundError, version
from typing import Any

OLDEST, NEWEST = "1.4.1", "1.5.1"
RANGE = f"executorch {OLDEST} to {NEWEST}"
# 1.3.1 ships the OpenVINO backend too, but is built for torch 2.12: see README ("ExecuTorch releases").


class UnsupportedExecutorch(ImportError):
    """The installed ExecuTorch is outside the range, or lacks an entry point the workaround replaces."""


def release(text: str) -> tuple[int, ...]:
    """(major, minor, patch) of a version string ("1.5.1", "1.6.0.dev20260301+cpu")."""
    found = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    if not found:
        raise UnsupportedExecutorch(f"cannot read the executorch version {text!r}; "
                                    f"the workaround supports {RANGE}")
    return tuple(int(part or 0) for part in found.groups())


@functools.cache
def installed_release() -> str:
    try:
        return version("executorch")
    except PackageNotFoundError:
        raise UnsupportedExecutorch(f"executorch is not installed; the workaround supports {RANGE}: "
                                    f'pip install "<this repo>[partitioner]"') from None


def require(found: str | None = None) -> None:
    """Raise UnsupportedExecutorch unless ``found`` (default: the installed release) is in the range."""
    found = found or installed_release()
    if not release(OLDEST) <= release(found) <= release(NEWEST):
        raise UnsupportedExecutorch(f"the workaround supports {RANGE} (the releases its gate runs green); "
                                    f"this environment has executorch {found}")


def entry_point(owner: type, name: str) -> Any:
    """``owner.__dict__[name]``, the stock entry point the workaround replaces, or one line saying it is
    missing from the installed release."""
    require()
    if name not in owner.__dict__:
        raise UnsupportedExecutorch(f"executorch {installed_release()} has no {owner.__name__}.{name}, which the "
                                    f"workaround replaces; it supports {RANGE}")
    return owner.__dict__[name]
