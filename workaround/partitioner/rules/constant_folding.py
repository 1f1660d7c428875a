"""Which nodes OpenVINO folds into constants before compiling, and what the folded constants hold.

Why: a node no runtime input flows into (``arange`` of a static length, a relative-position table, anything
computed from parameters) is computed once, when OpenVINO folds constants, by its reference kernels: int64 in
64 bits, integer comparisons exactly (measured on 2026.4.1: ``Range(0, 4) * 2**40 / 2**38`` folds to
``[0, 4, 8, 12]``). The CPU plugin's own kernels, whose int64 is 32 bits and whose integer comparisons go
through float32, never see it. Only what a runtime op reads from it stays a tensor, converted to the plugin's
precisions. So the integer guards need not hand back a constant node whose every user is constant too
(``interior``); where a constant reaches a runtime op, its actual values, evaluated here with PyTorch, are its
range (``ValueRanges`` reads them through ``value``).

The Abs of a constant is the exception: OpenVINO drops a rank-1 one while folding, which
``workaround.partitioner.exact_rewrites.constant_abs`` prevents by rewriting it as ``Maximum(x, -x)`` first.
"""

from collections.abc import Callable
from typing import cast

import torch
from torch._subclasses.fake_tensor import FakeTensor
from torch.export import ExportedProgram

# Evaluating a constant larger than this is not worth its cost (its range stays what the rules prove).
MAX_ELEMENTS = 1 << 20


class ConstantFolding:
    """The program's constant nodes (no runtime input flows into them) and, on demand, their values."""

    def __init__(self, exported_program: ExportedProgram) -> None:
        self.program = exported_program
        runtime_inputs = set(exported_program.graph_signature.user_inputs)
        self.constant: set[torch.fx.Node] = set()
        for node in exported_program.graph.nodes:
            parameter = node.op == "placeholder" and node.name not in runtime_inputs
            computed = node.op == "call_function" and set(node.all_input_nodes) <= self.constant
            if parameter or computed:
                self.constant.add(node)
        self.values: dict[torch.fx.Node, torch.Tensor | None] = {}

    def interior(self, node: torch.fx.Node) -> bool:
        """A constant node read only by constant nodes: folded away, computed by OpenVINO's reference kernels."""
        return node in self.constant and node.op == "call_function" and all(
            user in self.constant for user in node.users)

    def value(self, node: torch.fx.Node) -> torch.Tensor | None:
        """The constant's actual value, computed with PyTorch (None: not a constant, or not computable here)."""
        if node not in self.constant:
            return None
        if node not in self.values:
            self.values[node] = self._evaluate(node)
        return self.values[node]

    def _evaluate(self, node: torch.fx.Node) -> torch.Tensor | None:
        if node.op == "placeholder":
            return self._parameter(node)
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor) or value.numel() > MAX_ELEMENTS:
            return None
        arguments = {argument: self.value(argument) for argument in node.all_input_nodes}
        if any(found is None for found in arguments.values()):
            return None
        try:
            op = cast(Callable[..., object], node.target)  # a call_function node's target is its op
            result = op(*torch.fx.node.map_arg(node.args, arguments.__getitem__),
                        **torch.fx.node.map_arg(node.kwargs, arguments.__getitem__))
        except Exception:  # an op that will not run on plain tensors here: its range stays unknown
            return None
        return result if isinstance(result, torch.Tensor) and not isinstance(result, FakeTensor) else None

    def _parameter(self, node: torch.fx.Node) -> torch.Tensor | None:
        from executorch.backends.transforms.utils import get_param_tensor, is_param_node

        if not is_param_node(self.program, node):
            return None
        tensor = get_param_tensor(self.program, node)
        if isinstance(tensor, FakeTensor):  # lowering holds constants as fake tensors; small ones keep values
            tensor = tensor.constant
        return tensor if isinstance(tensor, torch.Tensor) and tensor.numel() <= MAX_ELEMENTS else None
