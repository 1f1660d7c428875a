"""ReLU, Clamp, Maximum and Minimum as PyTorch computes them: NaN propagated, and a tie kept as the first operand.

OpenVINO's CPU plugin drops NaN in them (``relu(nan)`` is 0, ``clamp(nan, 0, 1)`` 0, ``maximum(nan, 1)`` 1) and
breaks a tie between zeros the other way: ``relu(-0.0)`` and ``clamp(-0.0, 0, 1)`` are +0.0 where PyTorch keeps
-0.0, and ``maximum(-0.0, 0.0)`` is +0.0 where PyTorch returns its first operand (measured on 2026.4.1 with its
AVX2 and AVX-512 kernels alike). PyTorch's kernels are ``a < b ? b : a`` with NaN propagated, so that is the
rewrite, built from ``Less`` only: its ordered comparison is false on NaN in every class of OpenVINO's kernels
(``Greater`` is not: it is true on NaN in the SSE4.1 and AVX-512 ones).

- ``Relu(x)``: ``Select(Less(x, 0), 0, x)``;
- ``Clamp(x, lo, hi)``: ``m = Select(Less(x, lo), lo, x)``, then ``Select(Less(hi, m), hi, m)``;
- ``Maximum(a, b)``: ``Select(IsNaN(b), b, Select(Less(a, b), b, a))``; ``Minimum`` with ``Less(b, a)``.

A NaN ``x`` or ``a`` fails every ``Less`` and is returned as it is; a NaN ``b`` is chosen by its ``IsNaN``.
"""

import torch

from workaround.contract.openvino_types import OpenvinoModel, OpenvinoNode
from workaround.partitioner.exact_rewrites.graph_edits import float_nodes, redirect, scalar_like, users_of

aten = torch.ops.aten
MAKES_EXACT = (aten.relu.default, aten.clamp.default, aten.clamp.Tensor, aten.hardtanh.default,
               aten.maximum.default, aten.minimum.default)
TYPES = ("Relu", "Clamp", "Maximum", "Minimum")


def rewrite(model: OpenvinoModel) -> None:
    for node in float_nodes(model, *TYPES):
        value = node.output(0)
        redirect(users_of(value), as_pytorch(node))


def as_pytorch(node: OpenvinoNode) -> object:
    """The output that computes ``node``'s value as PyTorch's kernel does."""
    import openvino.opset8 as ops
    import openvino.opset10 as ops10

    kind, operands = node.get_type_name(), node.input_values()
    if kind == "Relu":
        [x] = operands
        zero = scalar_like(x, 0.0)
        return ops.select(ops.less(x, zero), zero, x).output(0)
    if kind == "Clamp":
        [x] = operands
        bounds = node.get_attributes()
        low, high = scalar_like(x, bounds["min"]), scalar_like(x, bounds["max"])
        raised = ops.select(ops.less(x, low), low, x).output(0)
        return ops.select(ops.less(high, raised), high, raised).output(0)
    first, second = operands
    taken = (ops.less(first, second) if kind == "Maximum" else ops.less(second, first))
    chosen = ops.select(taken, second, first)
    return ops.select(ops10.is_nan(second), second, chosen).output(0)
