"""Zeros with PyTorch's sign where OpenVINO gives the other one (measured on 2026.4.1, every CPU class alike).

- ``Elu`` (``elu``, and ``selu``, its multiple) of -0.0 is +0.0; PyTorch's kernel (``expm1``) keeps -0.0.
  Rewritten ``Select(Equal(x, 0), x, Elu(x))``: a zero is returned as it came.
- ``CumSum`` copies a leading -0.0; PyTorch's sum starts from +0.0, so no cumulative sum of its is -0.0.
  Rewritten ``Select(Equal(c, 0), +0.0, c)``.
- ``Add(x, 0)`` is dropped when the CPU plugin compiles (an identity, if zeros had no sign), so -0.0 stays -0.0
  where PyTorch's ``x + 0`` is +0.0; ``Subtract(0, x)`` becomes ``Negative(x)``, so ``0 - 0.0`` is -0.0 where
  PyTorch's is +0.0; ``Subtract(x, -0.0)`` is dropped too, where PyTorch's ``x - (-0.0)`` is ``x + 0``. Which
  of them happens depends on the graph (a dynamic or a static shape, the frontend's ``ConvertLike``), so each
  is rewritten wherever its constant is. Where
  the constant is all the zero of that sign, the zeros of ``x`` are made +0.0 first (the Add or Subtract may
  be dropped again, and is then right).

``log1p`` cannot be rewritten here: OpenVINO's frontend makes it ``Log(Add(x, 1))``, which a model's own ``log(1 +
x)`` also makes, and there PyTorch's +0.0 is right; ``workaround.partitioner.rules.openvino_hand_back`` hands
``log1p`` back.
"""

import numpy as np

from workaround.contract.openvino_types import OpenvinoModel, OpenvinoNode, OpenvinoOutput
from workaround.partitioner.exact_rewrites.graph_edits import float_nodes, redirect, scalar_like, users_of

# Every op here stays delegated with or without the pass: none is handed back for special values.
MAKES_EXACT = ()
# Ops whose first input's values are all their output holds: a constant is found behind them.
VALUE_KEEPING = ("Convert", "ConvertLike", "Broadcast", "Reshape", "Unsqueeze", "Squeeze")


def rewrite(model: OpenvinoModel) -> None:
    for node in float_nodes(model, "Elu", "CumSum", "Add", "Subtract"):
        users = users_of(node.output(0))
        exact = as_pytorch(node)
        if exact is not None:
            redirect(users, exact)


def as_pytorch(node: OpenvinoNode) -> OpenvinoOutput | None:
    """The output giving ``node``'s zeros PyTorch's sign, or None where OpenVINO's already have it (an Add or
    Subtract of anything but a constant of +0.0)."""
    import openvino.opset8 as ops

    kind, value = node.get_type_name(), node.output(0)
    if kind == "Elu":
        [x] = node.input_values()
        return ops.select(ops.equal(x, scalar_like(x, 0.0)), x, value).output(0)
    if kind == "CumSum":
        return positive_zeros(value)
    first, second = node.input_values()
    if kind == "Add" and (zero_constant(second, negative=False) or zero_constant(first, negative=False)):
        x, zeros = (first, second) if zero_constant(second, negative=False) else (second, first)
        return ops.add(positive_zeros(x), zeros).output(0)
    if kind == "Subtract" and zero_constant(first, negative=False):
        return positive_zeros(value)
    if kind == "Subtract" and zero_constant(second, negative=True):
        return ops.subtract(positive_zeros(first), second).output(0)
    return None


def positive_zeros(output: OpenvinoOutput) -> OpenvinoOutput:
    """``output`` with each zero made +0.0."""
    import openvino.opset8 as ops

    zero = scalar_like(output, 0.0)
    return ops.select(ops.equal(output, zero), zero, output).output(0)


def zero_constant(output: OpenvinoOutput, *, negative: bool) -> bool:
    """Whether ``output`` is a constant holding only +0.0 (an integer 0 converted is +0.0), or only -0.0 with
    ``negative``, seen through the ops that keep its values: the frontend converts each operand of an
    ``aten.add`` to their promoted type (``ConvertLike``), and makes ``torch.zeros`` a ``Broadcast`` of a
    scalar."""
    node = output.get_node()
    while node.get_type_name() in VALUE_KEEPING:
        node = node.input_value(0).get_node()
    if node.get_type_name() != "Constant":
        return False
    data = np.asarray(node.get_data())
    return data.size > 0 and not data.any() and bool((np.signbit(data) == negative).all())
