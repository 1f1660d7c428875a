"""Where ExecuTorch's own portable kernels compute differently from PyTorch: a node handed back there is wrong too.

Handing a node back to ExecuTorch is a fix only if ExecuTorch's kernel computes PyTorch's value. Measured with
the executorch 1.5.1 pip wheel's runtime, no partitioner, against eager, over the conformance sweep's ops, dtypes
and special values (``tests/upstream/test_executorch_kernels.py`` holds each row as an upstream expectation):

- integer ``remainder`` takes the dividend's sign (C's ``%``), where PyTorch takes the divisor's:
  ``remainder(123456789, -10)`` is 9, not -1; unless both operands are proven of one sign;
- ``ceil``, ``floor``, ``round`` and ``trunc`` of an integer tensor go through float32 (16777217 -> 16777216),
  where PyTorch returns the integers; unless the operand lies within +-2**24 (by proof or by its dtype);
- integer ``pow`` goes through double and saturates (``(2**40 + 3) ** 2``), where PyTorch wraps around; unless
  its result is proven within +-2**53;
- ``_log_softmax`` of float64 fails at run time (``execute`` 0x12);
- ``upsample_bilinear2d`` of uint8 rounds otherwise (off by one);
- with NaN or infinities (what ``special_values="torch"`` promises): ``max_pool2d`` drops NaN; ``sign(NaN)`` is
  NaN (PyTorch: 0); ``gelu``, ``grid_sampler_2d``, bilinear and nearest upsampling and float floor division give
  other special values.

The partitioner treats such a node as it treats one without a kernel (``workaround.partitioner.rules.exclusion``):
refused at lowering in one line, unless it can stay in OpenVINO exactly.
"""

from typing import cast

import torch

from workaround.contract import differences
from workaround.contract.delegate_specs import SpecialValues
from workaround.partitioner.graph.fx_arguments import tensor_argument
from workaround.partitioner.graph.nodes import aten_op, integral_dtype, tensors
from workaround.partitioner.rules.openvino_hand_back import FLOAT32_EXACT, POWERS, ops_of, reasons_of
from workaround.partitioner.rules.value_ranges import ValueRanges

FLOAT64_EXACT = 2**53
# PyTorch's remainder takes the divisor's sign (fmod, the dividend's, is C's and ExecuTorch's alike).
DIVISOR_SIGNED_REMAINDERS = ops_of("portable_remainder_sign")
ROUNDINGS = ops_of("portable_integer_roundings")
# Ops whose ExecuTorch kernel treats NaN or infinities otherwise than PyTorch (measured on the conformance
# sweep's special values, no partitioner).
SPECIAL_VALUES_DIFFER = reasons_of(differences.Rule.KERNEL_DIFFERS, differences.Owner.EXECUTORCH)
FLOAT64_LOG_SOFTMAX = ops_of("portable_float64_log_softmax")
UINT8_BILINEAR = ops_of("portable_uint8_bilinear")


def one_sign(ranges: ValueRanges, operands: list[object]) -> bool:
    """Whether every operand is proven >= 0, or every one <= 0."""
    found = [ranges.of(operand) for operand in operands]
    known = [interval for interval in found if interval is not None]
    return len(known) == len(found) and (
        all(interval.low >= 0 for interval in known) or all(interval.high <= 0 for interval in known))


def floats_read(node: torch.fx.Node) -> bool:
    return any(tensor.dtype.is_floating_point for argument in node.all_input_nodes
               for tensor in tensors(argument.meta.get("val")))


def integer_rule_differs(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
    """The integer rows of the module docstring: remainder, roundings and pow."""
    op = cast(torch._ops.OpOverload, aten_op(node))
    if op in DIVISOR_SIGNED_REMAINDERS and not one_sign(ranges, list(node.args[:2])):
        return differences.named("portable_remainder_sign").computes
    if op in ROUNDINGS and not ranges.interval(tensor_argument(node, 0)).within_magnitude(FLOAT32_EXACT):
        return f"ExecuTorch's {op._schema.name.split('::')[1]} of integers goes through float32"
    if op in POWERS and not (ranges.proven(node) and ranges.interval(node).within_magnitude(FLOAT64_EXACT)):
        return differences.named("portable_integer_pow").computes
    return None


def dtype_rule_differs(node: torch.fx.Node) -> str | None:
    """The rows of one op and dtype: float64 log_softmax, uint8 bilinear upsampling."""
    op, made = aten_op(node), {tensor.dtype for tensor in tensors(node.meta.get("val"))}
    if op in FLOAT64_LOG_SOFTMAX and torch.float64 in made:
        return differences.named("portable_float64_log_softmax").computes
    if op in UINT8_BILINEAR and torch.uint8 in made:
        return differences.named("portable_uint8_bilinear").computes
    return None


def kernel_differs(node: torch.fx.Node, ranges: ValueRanges, special_values: SpecialValues) -> str | None:
    """How ExecuTorch's kernel for ``node`` would differ from PyTorch on the values it may see, or None."""
    op = cast(torch._ops.OpOverload, aten_op(node))
    integers = integral_dtype(node) is not None and not floats_read(node)
    if integers and (found := integer_rule_differs(node, ranges)):
        return found
    if special_values == SpecialValues.TORCH and op in SPECIAL_VALUES_DIFFER and floats_read(node):
        return f"ExecuTorch's {op._schema.name.split('::')[1]} {SPECIAL_VALUES_DIFFER[op]}"
    return dtype_rule_differs(node)
