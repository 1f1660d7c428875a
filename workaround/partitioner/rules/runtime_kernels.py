"""Whether an ExecuTorch runtime has a kernel for a node the partitioner would hand back to it.

Why: every node the workaround takes out of an OpenVINO partition is run by ExecuTorch's own kernels, and a
runtime loads a program only if it registers a kernel for every operator the program calls: otherwise
``load_method`` fails with ``0x14`` (OperatorMissing), from bytes and by path alike. The pip wheel's portable
runtime (executorch 1.5.1: 240 operators) lacks ``sort``, ``avg_pool3d``, ``max_pool3d_with_indices``,
``_embedding_bag``, ``logsumexp``, ... which OpenVINO supports, so a node the stock partitioner delegated may
have nowhere to go.

A program calls each operator by the name of its out variant (``aten::sort.values`` for ``aten.sort.default``,
``aten::eq.Tensor_out`` for ``aten.eq.Tensor``): what ``to_executorch`` emits, and what the runtime's
registry lists (``portable_lib._get_operator_names()``).
"""

import functools
from collections.abc import Collection
from typing import cast

import torch

from workaround.partitioner.graph.nodes import aten_op


@functools.cache
def installed_operators() -> frozenset[str]:
    """The operators the installed ExecuTorch runtime (the pip wheel's pybindings) registers kernels for."""
    from executorch.extension.pybindings import portable_lib

    return frozenset(portable_lib._get_operator_names())


def qualified_name(op: torch._ops.OpOverload) -> str:
    """``aten::sort.values``: the name a program calls an operator by."""
    name, overload = op._schema.name, op._schema.overload_name
    return f"{name}.{overload}" if overload else name


def out_variant(op: torch._ops.OpOverload) -> torch._ops.OpOverload | None:
    """The out variant ``to_executorch`` replaces a functional op with, or None where it has none (ExecuTorch's
    ``to_out_variant`` first; it gives up on packets with an ambiguous schema, such as ``pow``, where the
    out variant is the overload named after the functional one)."""
    from executorch.exir.operator.convert import to_out_variant

    try:
        return cast(torch._ops.OpOverload, to_out_variant(op)[0])
    except Exception:  # ExecuTorch raises bare RuntimeErrors and AssertionErrors here
        packet = op.overloadpacket
        overload = op._overloadname
        for name in (f"{overload}_out", "out") if overload != "default" else ("out",):
            if name in packet.overloads():
                return cast(torch._ops.OpOverload, getattr(packet, name))
    return None


def kernel_name(node: torch.fx.Node) -> str | None:
    """The operator a program calls to run ``node`` in ExecuTorch, or None where it calls none
    (``getitem``, and Python-level operators the emitter evaluates itself)."""
    op = aten_op(node)
    if node.op != "call_function" or not isinstance(op, torch._ops.OpOverload):
        return None
    out = out_variant(op) if not op._schema.is_mutable else op
    return qualified_name(out) if out is not None else qualified_name(op)


class ExecutorchRuntime:
    """The operators a deployment runtime registers: the installed one by default, or the names given
    (``aten::sort.values``, ...: what its ``_get_operator_names()`` lists)."""

    def __init__(self, operators: Collection[str] | None = None) -> None:
        self.operators = frozenset(operators) if operators is not None else None

    def registered(self) -> frozenset[str]:
        return self.operators if self.operators is not None else installed_operators()

    def lacks(self, node: torch.fx.Node) -> str | None:
        """The operator ``node`` would call that this runtime has no kernel for, or None."""
        name = kernel_name(node)
        return name if name is not None and name not in self.registered() else None
