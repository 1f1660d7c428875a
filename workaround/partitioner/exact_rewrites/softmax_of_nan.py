"""Softmax and LogSoftmax whose row holds NaN or +inf are NaN, as PyTorch's are.

PyTorch subtracts the row's maximum first, so a NaN (and a +inf: inf - inf) makes every value of the row NaN;
OpenVINO's CPU plugin gives 0 (LogSoftmax -inf) beside the NaN (measured on 2026.4.1). Rewritten:
``Select(ReduceLogicalOr(IsNaN(x) or IsInf+(x), axis), NaN, op(x))``: every row without NaN or +inf keeps the
op's own value, exact; the others are NaN. A row of only -inf is NaN in both already (0 / 0).
"""

import torch

from workaround.contract.openvino_types import OpenvinoModel
from workaround.partitioner.exact_rewrites.graph_edits import float_nodes, redirect, scalar_like, users_of

aten = torch.ops.aten
MAKES_EXACT = (aten._softmax.default, aten._log_softmax.default)


def rewrite(model: OpenvinoModel) -> None:
    import openvino.opset1 as ops1
    import openvino.opset8 as ops
    import openvino.opset10 as ops10

    for node in float_nodes(model, "Softmax", "LogSoftmax"):
        source, value = node.input_value(0), node.output(0)
        users = users_of(value)
        poisoned = ops.logical_or(ops10.is_nan(source), ops10.is_inf(source, {"detect_negative": False}))
        row = ops1.reduce_logical_or(poisoned, [node.get_attributes()["axis"]], True)
        redirect(users, ops.select(row, scalar_like(value, float("nan")), value).output(0))
