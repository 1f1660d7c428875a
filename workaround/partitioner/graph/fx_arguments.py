"""A node's arguments as what its op's schema says they are.

torch.fx types every argument as the union of all it could be (a node, a number, a list, a dtype, ...),
while the op's schema fixes each one: argument 0 of a copy or a pool is a tensor, a getitem's is the
multi-output op, a sum's dims are an ``int[]``. These name that for the type checker; nothing is checked
at run time, since the graphs come from torch.export, whose call sites match their ops' schemas.
"""

from typing import cast

import torch


def tensor_argument(node: torch.fx.Node, position: int) -> torch.fx.Node:
    """Argument ``position``, a tensor: a node of the graph."""
    return cast(torch.fx.Node, node.args[position])


def tensor_list_argument(node: torch.fx.Node, position: int) -> list[torch.fx.Node]:
    """Argument ``position``, a ``Tensor[]`` (what cat and stack join)."""
    return cast(list[torch.fx.Node], node.args[position])


def int_argument(node: torch.fx.Node, position: int) -> int:
    """Argument ``position``, an ``int`` (a dim)."""
    return cast(int, node.args[position])


def int_list_argument(node: torch.fx.Node, position: int) -> list[int]:
    """Argument ``position``, an ``int[]`` (sizes, dims, padding)."""
    return cast(list[int], node.args[position])
