"""With dim order off, refuse any tensor that would cross an OpenVINO partition boundary in a non-default
dim order, rather than give wrong values.

With dim order off (``EdgeCompileConfig(_skip_dim_order=True)``) ExecuTorch cannot hold a channels-last
tensor at all, yet the exported graph can still produce one; with dim order on the partitions honour
their boundary dim orders and there is nothing to refuse.
"""

from collections.abc import Callable

import torch

from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.layouts.dim_order import is_default, node_dim_order


class DimOrderError(ValueError):
    """A tensor would cross an OpenVINO partition boundary in a non-default dim order."""


# The partition a node is in (its tag), or None outside every partition.
PartitionOf = Callable[[torch.fx.Node], str | None]
# (node, its dim order, "enters" or "leaves", the partition's tag)
Crossing = tuple[torch.fx.Node, tuple[int, ...], str, str]
MEMORY_FORMAT_OPS = {torch.ops.aten.clone.default, torch.ops.aten._to_copy.default}


def lowered_without_dim_order(graph: torch.fx.Graph) -> bool:
    """With dim order off, layout changes stay aten ops with a memory_format argument."""
    return any(node.op == "call_function" and aten_op(node) in MEMORY_FORMAT_OPS and "memory_format" in node.kwargs
               for node in graph.nodes)


def non_default_boundary_tensors(graph: torch.fx.Graph, partition_of: PartitionOf) -> list[Crossing]:
    """(node, dim order, "enters"/"leaves", tag) for each tensor crossing a partition boundary
    in a non-default dim order."""
    found: list[Crossing] = []
    for node in graph.nodes:
        tag = partition_of(node)
        order = node_dim_order(node)
        if order is None or is_default(order):
            continue
        users = {partition_of(user) for user in node.users}
        if tag is not None and any(user != tag for user in users):
            found.append((node, order, "leaves", tag))
        for user_tag in sorted(t for t in users if t is not None and t != tag):
            found.append((node, order, "enters", user_tag))
    return found


def refuse_non_default_boundaries(graph: torch.fx.Graph, partition_of: PartitionOf) -> None:
    """With dim order off, refuse any tensor that would cross a partition boundary in a non-default
    dim order (with dim order on, the partitions honour them and there is nothing to refuse)."""
    if not lowered_without_dim_order(graph):
        return
    found = non_default_boundary_tensors(graph, partition_of)
    if found:
        node, order, direction, tag = found[0]
        what = aten_op(node) if node.op == "call_function" else node.op
        raise DimOrderError(
            f"node '{node.name}' ({what}) {direction} OpenVINO partition {tag} in dim order {list(order)}, but "
            "the program was lowered with dim order off, so ExecuTorch would hand it over as contiguous and the "
            "values would be wrong. Keep dim order on (do not pass EdgeCompileConfig(_skip_dim_order=True)): "
            f"the partitions then read and write it in its own dim order. ({len(found)} such crossing(s).)")
