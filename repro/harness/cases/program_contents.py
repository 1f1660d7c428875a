"""What a lowered program contains: which ops went into OpenVINO delegates and which stayed outside."""

from typing import Any

import torch


def op_name(node: torch.fx.Node) -> str:
    return getattr(node.target, "__name__", str(node.target))


def is_delegate_call(node: torch.fx.Node) -> bool:
    return node.op == "call_function" and node.target is torch.ops.higher_order.executorch_call_delegate


def delegated_and_outside_ops(edge: Any) -> tuple[list[str], list[str]]:
    """Op names inside OpenVINO delegates, and op names left to ExecuTorch's kernels."""
    graph_module = edge.exported_program().graph_module
    inside, outside = [], []
    for node in graph_module.graph.nodes:
        if is_delegate_call(node):
            lowered = getattr(graph_module, node.args[0].target)
            inside += [op_name(n) for n in lowered.original_module.graph.nodes if n.op == "call_function"]
        elif node.op == "call_function" and op_name(node) != "getitem":
            outside.append(op_name(node))
    return sorted(inside), sorted(outside)
