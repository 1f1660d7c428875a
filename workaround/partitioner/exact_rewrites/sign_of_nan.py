"""Sign of NaN is 0, as PyTorch's: OpenVINO's CPU plugin (and ExecuTorch's kernel) give NaN.

Rewritten: ``Select(IsNaN(x), 0, Sign(x))``; every other value is Sign's own, exact.
"""

import torch

from workaround.contract.openvino_types import OpenvinoModel
from workaround.partitioner.exact_rewrites.graph_edits import float_nodes, redirect, scalar_like, users_of

MAKES_EXACT = (torch.ops.aten.sign.default,)


def rewrite(model: OpenvinoModel) -> None:
    import openvino.opset8 as ops
    import openvino.opset10 as ops10

    for node in float_nodes(model, "Sign"):
        value, source = node.output(0), node.input_value(0)
        users = users_of(value)
        redirect(users, ops.select(ops10.is_nan(source), scalar_like(value, 0.0), value).output(0))
