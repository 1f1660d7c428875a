"""ReLU, Clamp, Maximum and Minimum that propagate NaN, as PyTorch's do.

OpenVINO's CPU plugin drops NaN in them (``relu(nan)`` is 0, ``clamp(nan, 0, 1)`` 0, ``maximum(nan, 1)`` 1;
measured on 2026.4.1). Rewritten: ``Select(IsNaN(x), x, op(x))``, and for two operands
``Select(IsNaN(a), a, Select(IsNaN(b), b, op(a, b)))``: where no operand is NaN the op's own value, exact;
where one is, that NaN. Infinities need nothing: OpenVINO clamps and compares them as PyTorch does.
"""

import torch

from workaround.exact_rewrites.graph_edits import float_nodes, redirect, users_of
from workaround.openvino_types import OpenvinoModel

aten = torch.ops.aten
MAKES_EXACT = (aten.relu.default, aten.clamp.default, aten.clamp.Tensor, aten.hardtanh.default,
               aten.maximum.default, aten.minimum.default)
TYPES = ("Relu", "Clamp", "Maximum", "Minimum")


def rewrite(model: OpenvinoModel) -> None:
    import openvino.opset8 as ops
    import openvino.opset10 as ops10

    for node in float_nodes(model, *TYPES):
        value = node.output(0)
        users, result = users_of(value), value
        for operand in reversed(node.input_values()):
            result = ops.select(ops10.is_nan(operand), operand, result).output(0)
        redirect(users, result)
