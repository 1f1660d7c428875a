"""Sizes and positions read inside the delegate.

OpenVINO's PyTorch frontend converts ``aten.sym_size.int`` (a ShapeOf and a Gather), ``aten._local_scalar_dense``
(``tensor.item()``) and Python's arithmetic on them, and lists them as supported, but ExecuTorch's
``OpenvinoOperatorsSupport`` looks an op up as ``"torch.ops." + target.__name__``: these stay a plain
``OpOverload`` or a builtin in the edge dialect, whose ``__name__`` (``sym_size.int``, ``add``) has no namespace,
so they are never delegated. Each size or position a dynamic-shaped model reads then crosses into a partition
as a SymInt input, which lowering cannot take (``'SymInt' object has no attribute 'type'``) and the workaround
must hand back with everything it feeds. An LLM exported with ExecuTorch's pipeline default
(``enable_dynamic_shape=true``) lost 70 to 90 % of its nodes to ExecuTorch's kernels that way; with a KV cache,
whose position is read with ``.item()``, it then failed in the pipeline's ``ConvertToLinearPass``.

Enabled by name, through the stock partitioner's own ``_enabled_ops_by_name`` (which it fills for NNCF's patterns),
these symbolic nodes are computed inside the delegate from its tensor inputs, for the one partitioning call. That
includes the runtime assertions ``torch.export`` records on them (``_assert_scalar`` of a comparison): left
outside, they would read a SymInt out of the partition, which the runtime cannot pass
(``workaround.partitioner.rules.delegate_limits``). Inside, OpenVINO's frontend takes them (measured: the delegate
is right with them in it, and the preprocess passes' re-tracing needs them to know a position is not negative). The
upstream fix is the qualified name for OpOverloads, the module's name for Python's arithmetic, and the checks on
sizes let in (``repro/patches/executorch/symbolic-sizes``).
"""

import contextlib
import operator
from collections.abc import Iterator
from typing import Any

import torch
from torch.export import ExportedProgram

SIZE = torch.ops.aten.sym_size.int
ASSERTION = torch.ops.aten._assert_scalar.default
# Ops whose result is a number (SymInt, SymBool) or nothing: what a dynamic size or position is made of.
SYMBOLIC = frozenset({SIZE, torch.ops.aten._local_scalar_dense.default, ASSERTION,
                      operator.add, operator.sub, operator.mul, operator.floordiv, operator.mod, operator.neg,
                      operator.eq, operator.ne, operator.lt, operator.le, operator.gt, operator.ge})
_NUMBERS = (torch.SymInt, torch.SymBool, int, bool)


def is_symbolic(node: torch.fx.Node) -> bool:
    """A size, position or condition computed from them, or an assertion on one."""
    if node.op != "call_function" or node.target not in SYMBOLIC:
        return False
    return node.target is ASSERTION or isinstance(node.meta.get("val"), _NUMBERS)


def symbolic_nodes(exported_program: ExportedProgram) -> set[str]:
    return {node.name for node in exported_program.graph.nodes if is_symbolic(node)}


@contextlib.contextmanager
def sizes_read_in_the_delegate(stock: Any, exported_program: ExportedProgram) -> Iterator[None]:
    """While the stock ``partition`` of ``stock`` (an ``OpenvinoPartitioner``) runs: its support check takes
    ``exported_program``'s symbolic nodes."""
    enabled: set[str] = stock._enabled_ops_by_name
    added = symbolic_nodes(exported_program) - enabled
    enabled |= added
    try:
        yield
    finally:
        enabled -= added

