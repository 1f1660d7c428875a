"""MaxPool that propagates NaN and keeps a window of -inf at -inf, as PyTorch's does.

OpenVINO's CPU plugin drops NaN from a window and gives -FLT_MAX for a window of -inf; ExecuTorch's
``max_pool2d_with_indices`` kernel drops NaN too, and its runtime has no ``max_pool3d_with_indices``. Rewritten
with a second MaxPool of the same window over a code of each element (2 NaN, 1 finite or +inf, 0 -inf): a window
whose code is 2 holds a NaN, one whose code is 0 holds only -inf; elsewhere the MaxPool's own value, exact.
PyTorch's padding never makes a window of padding only, so OpenVINO's padding (never the maximum) changes no
code. The indices output is left as it is: the partitioner keeps a max pool in the delegate only if its indices
are unused (``workaround.partitioner.rules.openvino_hand_back``).
"""

import torch

from workaround.contract.openvino_types import OpenvinoModel, OpenvinoNode
from workaround.partitioner.exact_rewrites.graph_edits import float_nodes, redirect, scalar_like, users_of

aten = torch.ops.aten
MAKES_EXACT = (aten.max_pool2d_with_indices.default, aten.max_pool3d_with_indices.default,
               aten.max_pool2d.default, aten.max_pool3d.default)


def same_window(pool: OpenvinoNode, data: OpenvinoNode) -> object:
    """The values of a MaxPool with ``pool``'s window, strides, padding and rounding, over ``data`` (opset14's,
    which takes PyTorch's ``ceil_torch`` rounding)."""
    import openvino.opset14 as ops

    attributes = pool.get_attributes()
    dilations = attributes.get("dilations", [1] * len(attributes["kernel"]))
    auto_pad = None if attributes["auto_pad"] == "explicit" else attributes["auto_pad"]
    return ops.max_pool(data, attributes["strides"], dilations, attributes["pads_begin"], attributes["pads_end"],
                        attributes["kernel"], attributes["rounding_type"], auto_pad).output(0)


def rewrite(model: OpenvinoModel) -> None:
    import openvino.opset8 as ops
    import openvino.opset10 as ops10

    for node in float_nodes(model, "MaxPool"):
        source, value = node.input_value(0), node.output(0)
        users = users_of(value)
        code = ops.select(ops10.is_nan(source), scalar_like(value, 2.0),
                          ops.select(ops.equal(source, scalar_like(value, float("-inf"))),
                                     scalar_like(value, 0.0), scalar_like(value, 1.0)))
        window = same_window(node, code)
        only_minus_infinity = ops.select(ops.equal(window, scalar_like(value, 0.0)),
                                         scalar_like(value, float("-inf")), value)
        exact = ops.select(ops.equal(window, scalar_like(value, 2.0)), scalar_like(value, float("nan")),
                           only_minus_infinity)
        redirect(users, exact.output(0))
