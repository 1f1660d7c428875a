"""Tensors ExecuTorch's OpenVINO delegate cannot pass across a partition boundary.

Measured with ExecuTorch 1.5.1 and OpenVINO 2026.4.1, stock partitioner and real runtime:

- a 0-d tensor or a tensor with a zero-size dimension, in or out: the delegate fails at run
  time (``execute()`` error 0x1), ``sin(x)`` alone included;
- a dynamic-shaped output: the runtime never resizes a delegate's outputs, so ``sin(x)`` with a
  dynamic batch returns the upper bound's shape, (16, 3) for a (4, 3) input, silently. Dynamic
  inputs are fine (``sin(x).sum(0)`` is right for every batch), so only outputs count;
- a size used as a value (``x * x.shape[0]`` with a dynamic batch): the partition would take a SymInt
  input, and lowering fails (``'SymInt' object has no attribute 'type'``);
- a size or condition computed inside a partition (``workaround.partitioner.rules.symbolic_sizes``) and used
  outside it: the partition would return a SymInt (or SymBool), and the delegate fails at run time ("expected
  tensor for output 0", error 0x12).

Such tensors are still fine *inside* a partition; only the boundary is kept clear of them.
"""

import torch

from workaround.partitioner.graph.nodes import tensors


def empty_or_scalar(tensor: torch.Tensor) -> str | None:
    """'0-d' or '0-size' for what the delegate cannot take at all, else None."""
    if tensor.dim() == 0:
        return "0-d"
    if any(isinstance(size, int) and size == 0 for size in tensor.shape):
        return "0-size"
    return None


def is_dynamic(tensor: torch.Tensor) -> bool:
    return any(not isinstance(size, int) for size in tensor.shape)


def output_limit(node: torch.fx.Node) -> str | None:
    """Why ``node``'s result cannot leave a partition, or None."""
    if isinstance(node.meta.get("val"), torch.SymInt | torch.SymBool):
        return f"a number ({type(node.meta['val']).__name__}) returned"
    for tensor in tensors(node.meta.get("val")):
        if is_dynamic(tensor):
            return "dynamic-shaped output"
        if empty_or_scalar(tensor):
            return f"{empty_or_scalar(tensor)} tensor"
    return None


def may_cross_a_boundary_it_cannot(node: torch.fx.Node) -> bool:
    """Whether any tensor ``node`` reads or makes is dynamic-shaped, 0-d or 0-size: such a node may be
    handed back to ExecuTorch, so it must not be kept undecomposed for the delegate (ExecuTorch refuses
    a kept op that ends up outside every delegate)."""
    values = [node.meta.get("val"), *(arg.meta.get("val") for arg in node.all_input_nodes)]
    return any(is_dynamic(tensor) or empty_or_scalar(tensor) for tensor in tensors(values))


def input_limit(node: torch.fx.Node) -> str | None:
    """Why ``node``'s result cannot enter a partition, or None."""
    if isinstance(node.meta.get("val"), torch.SymInt | torch.SymBool):
        return f"a number ({type(node.meta['val']).__name__}) used as a value"
    for tensor in tensors(node.meta.get("val")):
        if empty_or_scalar(tensor):
            return f"{empty_or_scalar(tensor)} tensor"
    return None
