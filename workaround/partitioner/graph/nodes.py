"""A node's op, tensors and dtype, as every part of the partitioner reads them."""

import torch
from executorch.exir.dialects.edge._ops import EdgeOpOverload


def aten_op(node: torch.fx.Node) -> object:
    """The ATen overload of a call_function node, seen through the edge dialect's wrapper."""
    return node.target._op if isinstance(node.target, EdgeOpOverload) else node.target


def tensors(value: object) -> list[torch.Tensor]:
    return [leaf for leaf in torch.utils._pytree.tree_leaves(value) if isinstance(leaf, torch.Tensor)]


def is_integral(dtype: torch.dtype) -> bool:
    return dtype is torch.bool or not (dtype.is_floating_point or dtype.is_complex)


def fake_tensor(node: torch.fx.Node) -> torch.Tensor | None:
    value = node.meta.get("val")
    return value if isinstance(value, torch.Tensor) else None


def integral_dtype(node: torch.fx.Node) -> torch.dtype | None:
    value = fake_tensor(node)
    return value.dtype if value is not None and is_integral(value.dtype) else None
