"""The processes that test lower without torch 2.13's repeated materialization of the CIA registry.

Every ``run_decompositions()`` (three per ``to_edge_transform_and_lower``) collects torch's
CompositeImplicitAutograd ops, and that collection materializes the C++ dispatcher's whole CIA registry
once per op namespace, 40 of them in a process with ExecuTorch and its OpenVINO backend: our PyTorch
report (``repro/attachments/pytorch_cia_materialization.py``). Materialized once per collection, as the
report suggests, the same ops come back (``torch_materializes_per_namespace`` and the gate's test hold both
facts) and the lowerings are the same; lowering 13 catalogue cases twice with the workaround took 38.4 s as
torch does it and 25.6 s so, 1.50 times faster (``python -m benchmarks.cia_collection_cost``, machine A). The
gate's processes and the op tests' children run this way, since the gate runs hundreds of lowerings; the
workaround does not ship it, and the other benchmarks and the CLIs time and run torch as users get it.
"""

import contextlib
from collections.abc import Callable, Iterator

from torch._export import utils
from torch.export import decomp_utils, exported_program

_torch_collection = utils._collect_all_valid_cia_ops
# The modules that call the collection, each under the name it imported it by.
_CALLERS = (exported_program, decomp_utils)


@contextlib.contextmanager
def _materializing_with(function: Callable[[], None]) -> Iterator[Callable[[], None]]:
    """torch's materialization replaced by ``function`` for the block; yields torch's own."""
    materialize = utils._materialize_cpp_cia_ops
    utils._materialize_cpp_cia_ops = function
    try:
        yield materialize
    finally:
        utils._materialize_cpp_cia_ops = materialize


def collect_materializing_once() -> set[object]:
    """torch's own collection, the registry materialized once before it rather than once per namespace."""
    with _materializing_with(lambda: None) as materialize:
        materialize()
        return _torch_collection()


def torch_materializes_per_namespace() -> int:
    """How many times one collection as torch makes it materializes the registry (1 once torch is fixed)."""
    calls: list[None] = []
    materialize = utils._materialize_cpp_cia_ops
    with _materializing_with(lambda: calls.append(materialize())):
        _torch_collection()
    return len(calls)


def materialize_once_per_collection() -> None:
    """Every ``run_decompositions`` of this process collects with ``collect_materializing_once``."""
    for caller in _CALLERS:
        caller._collect_all_valid_cia_ops = collect_materializing_once


def as_torch_does() -> None:
    """Every ``run_decompositions`` of this process collects as torch makes it (``benchmarks.cia_collection_cost``
    times both ways)."""
    for caller in _CALLERS:
        caller._collect_all_valid_cia_ops = _torch_collection
