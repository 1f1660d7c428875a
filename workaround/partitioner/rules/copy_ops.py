"""The ops OpenVINO compiles into nothing: a Result fed straight by its input.

Matched by op identity (the ATen overload under an edge op), never by node names.
Evidence for each entry: the stock OpenvinoPartitioner delegates the op, and with
OpenVINO 2026.4.1 the delegate's runtime graph then has a Result fed by a
Parameter and the ExecuTorch program returns stale memory (docs/design.md, the op set's table).
"""

import torch

from workaround.partitioner.graph.nodes import aten_op

PASS_THROUGH_COPY_OPS = {
    # Frontend maps it to skip_node. Reaches the partitioner as itself with dim order off
    # (x.clone(), eval dropout, contiguous() of a channels-last tensor).
    torch.ops.aten.clone.default,
    # ExecuTorch's OpenVINO preprocess reverts it to aten.clone before conversion. With dim order
    # on (the default) it is what x.clone(), clone(memory_format=...), eval-mode dropout,
    # lift_fresh_copy and contiguous() of a channels-last tensor become.
    torch.ops.dim_order_ops._clone_dim_order.default,
    # Frontend returns its input. What x.detach(), x[:, :], x[:, 0:3], x.transpose(0, 0) and
    # aten.alias(x) become in the edge dialect; delegated from OpenVINO 2025.4 on.
    torch.ops.aten.alias_copy.default,
    # Frontend maps these to skip_node too. The edge dialect rewrites them into the ops above,
    # so they only reach a partitioner in graphs that skipped functionalization.
    torch.ops.aten.alias.default,
    torch.ops.aten.detach.default,
    torch.ops.aten.lift_fresh_copy.default,
}

# clone's memory formats that keep the input's layout; any other one changes the layout.
LAYOUT_PRESERVING_FORMATS = (None, torch.preserve_format, torch.contiguous_format)



def is_pass_through_copy(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and aten_op(node) in PASS_THROUGH_COPY_OPS


def is_layout_changing_aten_clone(node: torch.fx.Node) -> bool:
    """aten.clone to another memory format: how a layout change looks with dim order off."""
    return aten_op(node) is torch.ops.aten.clone.default and \
        node.kwargs.get("memory_format") not in LAYOUT_PRESERVING_FORMATS
