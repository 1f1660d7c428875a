"""The rules that hand back to ExecuTorch a node OpenVINO's CPU plugin would compute differently from PyTorch.

What differs, op by op and dtype by dtype, and where it was measured, is the registry's
(``workaround.contract.differences``; README.md's table is rendered from it). This module holds how each of the
registry's ``Rule``s is decided on one torch.fx node, and gives the registry's text as the reason a node is handed
back. Beyond the registry's ops and dtypes, the rules decide by values:

- where a dtype decides, every node that reads or makes such a tensor; for int64, only where the value ranges
  (``workaround.partitioner.rules.value_ranges``) do not prove it within int32: position ids, masks and index
  arithmetic built from ``arange`` and shapes are proven, and stay;
- uint8 / int8: every node that makes such a tensor without a proof that its exact values fit the dtype (copies,
  views and quantization do);
- integer ops that go through float32: operands not proven within +-2**24 (``pow``: its result), Python numbers
  included; integer division and remainder likewise, every trunc division, every float remainder;
- a node no runtime input flows into, read only by such nodes, is computed by OpenVINO's exact reference kernels
  when it folds constants (``workaround.partitioner.rules.constant_folding``): the rules about the CPU plugin's
  integer kernels skip it (``Folded``), and where a constant reaches a runtime op its evaluated values are its
  range;
- a difference an exact rewrite removes (``workaround.partitioner.exact_rewrites``) keeps its node delegated.

IEEE special values (NaN, +-inf, -0.0) are a choice, ``special_values``: with ``"torch"`` the registry's
special-values entries are handed back too, or kept exact by a rewrite. With ``"openvino"``, the default, they
stay: they are most of a vision or transformer model's ops, and on finite values OpenVINO is right.
"""

import operator
from collections.abc import Callable, Iterator
from enum import Enum
from typing import cast

import torch

from workaround.contract import differences
from workaround.contract.delegate_specs import SpecialValues
from workaround.contract.differences import Rule
from workaround.partitioner.exact_rewrites import KEPT_EXACT
from workaround.partitioner.graph.fx_arguments import tensor_argument
from workaround.partitioner.graph.nodes import aten_op, integral_dtype, is_integral, tensors
from workaround.partitioner.rules.value_ranges import CONVERTING, ValueRanges

aten = torch.ops.aten
# Where the dtype decides, whatever the op: {dtype: why}, and the dtypes whose arithmetic saturates.
NOT_COMPUTED_AS_PYTORCH = {getattr(torch, dtype): f"{dtype}: {difference.computes}"
                           for difference in differences.of_rule(Rule.UNSUPPORTED_DTYPE)
                           for dtype in difference.dtypes}
NARROW_ARITHMETIC = differences.named("narrow_integer_arithmetic_saturates")
SATURATING: tuple[torch.dtype, ...] = tuple(getattr(torch, dtype) for dtype in NARROW_ARITHMETIC.dtypes)


def torch_op(name: str) -> torch._ops.OpOverload:
    """The op a registry entry names (``aten.relu.default``)."""
    namespace, op, overload = name.split(".")
    return cast(torch._ops.OpOverload, getattr(getattr(getattr(torch.ops, namespace), op), overload))


def ops_of(*names: str) -> set[object]:
    """The ops of the named registry entries (``workaround.contract.differences``)."""
    return {torch_op(op) for name in names for op in differences.named(name).ops}


def reasons_of(rule: Rule, owner: differences.Owner = differences.Owner.OPENVINO) -> dict[object, str]:
    """{op: what differs} for every op a rule's registry entries name."""
    return {torch_op(op): reason for op, reason in differences.reasons(rule, owner).items()}


# Reductions PyTorch computes in int64 from uint8 / int8 (measured: [1, 255].sum() is 255 in OpenVINO, not 256).
WIDENING_REDUCTIONS = ops_of("narrow_integer_sum_saturates")
DIVIDING = ops_of("division_through_float32")
REMAINDER_OPS = ops_of("remainder_through_float32")
AVERAGE_POOLS = ops_of("avg_pool_ceil_window_divisor")
# Kept undecomposed where OpenVINO's support list has them: OpenVINO converts them to its own exact op.
EXACT_WHEN_KEPT = (aten.reflection_pad2d.default,)
# What each op does with special values in OpenVINO's CPU plugin, measured against PyTorch on
# [nan, 1, -2, -0.0], [-inf, inf, 0.5, nan] and an all -inf tensor (2026.4.1).
IEEE_DIFFERENCES = reasons_of(Rule.SPECIAL_VALUES_DIFFER)
NAN_TO_FALSE = differences.named("nan_converted_to_false")  # any conversion to bool: no op of its own
NAN_TO_FALSE_DTYPES = {getattr(torch, dtype) for dtype in NAN_TO_FALSE.dtypes}
# Integer ops the CPU plugin computes through float32 (wrong beyond 2**24), measured on int32 2026.4.1; pow apart.
POWERS = ops_of("integer_pow_through_float32")
INTEGERS_THROUGH_FLOAT32 = {op: reason for op, reason in reasons_of(Rule.INTEGERS_THROUGH_FLOAT32).items()
                            if op not in POWERS}
# What a float16 value may pass through and stay the value it was (no rounding dropped by these).
FLOAT16_KEEPING = {operator.getitem, aten.view_copy.default, aten.permute_copy.default, aten.expand_copy.default,
                   aten.slice_copy.Tensor, aten.select_copy.int, aten.squeeze_copy.dims,
                   aten.unsqueeze_copy.default, aten.cat.default, aten.clone.default,
                   torch.ops.dim_order_ops._clone_dim_order.default}
INT32 = torch.int32
# Ops kept undecomposed that only move values: on integers they cannot wrap, saturate or round.
INTEGER_MOVING = {aten.stack.default, aten.pixel_shuffle.default}
FLOAT32_EXACT = 2**24  # float32 holds every integer of at most this magnitude


def tensors_touched(node: torch.fx.Node) -> Iterator[torch.Tensor]:
    """The tensors a node makes and the tensors it reads."""
    yield from tensors(node.meta.get("val"))
    for argument in node.all_input_nodes:
        yield from tensors(argument.meta.get("val"))


def unsupported_dtype(node: torch.fx.Node) -> str | None:
    """Why a dtype the node touches is not computed as PyTorch does, or None."""
    return next((NOT_COMPUTED_AS_PYTORCH[tensor.dtype] for tensor in tensors_touched(node)
                 if tensor.dtype in NOT_COMPUTED_AS_PYTORCH), None)


def never_handed_back_for_its_dtype(node: torch.fx.Node) -> bool:
    """Whether no rule here can hand the node back for its dtype (used for the ops kept undecomposed, which must
    end up delegated): every tensor it touches is float32 or float16, or it only moves integers of 32 bits or
    fewer (``stack``: NNCF's 4-bit weights unpacked from bytes, a pattern the stock partitioner delegates whole),
    which keeps them within their dtype."""
    touched = [tensor.dtype for tensor in tensors_touched(node)]
    if all(dtype in (torch.float32, torch.float16) for dtype in touched):
        return True
    return aten_op(node) in INTEGER_MOVING and all(
        is_integral(dtype) and dtype not in (torch.int64, torch.uint64) for dtype in touched)


def int64_out_of_int32(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
    """int64 read or made beyond int32. A constant node's inputs are folded away exactly: only what it makes
    reaches the CPU plugin."""
    for value in (node,) if node in ranges.folding.constant else (node, *node.all_input_nodes):
        if integral_dtype(value) is torch.int64 and not ranges.interval(value).within(INT32):
            interval = ranges.interval(value)
            return (f"{differences.named('int64_computed_in_32_bits').computes}, and {value.name} may hold "
                    f"values in [{interval.low}, {interval.high}]")
    return None


def wraps_around(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
    """uint8 / int8 arithmetic whose exact result may leave the dtype. Conversions into them wrap in
    OpenVINO as in PyTorch (measured: int32 300 -> uint8 44), so they stay."""
    dtype = integral_dtype(node)
    if dtype in SATURATING and node.op == "call_function" and aten_op(node) not in CONVERTING and not (
            ranges.proven(node) and ranges.interval(node).within(dtype)):
        return f"{dtype}: {NARROW_ARITHMETIC.computes}"
    if aten_op(node) in WIDENING_REDUCTIONS and any(integral_dtype(argument) in SATURATING
                                                     for argument in node.all_input_nodes):
        return differences.named("narrow_integer_sum_saturates").computes
    return None


def exact_in_float32(node: torch.fx.Node, ranges: ValueRanges) -> bool:
    """Whether every integer operand is proven to lie within +-2**24, where float32 holds integers exactly."""
    operands = [argument for argument in node.all_input_nodes if integral_dtype(argument) is not None]
    return bool(operands) and all(
        ranges.proven(operand) and ranges.interval(operand).within_magnitude(FLOAT32_EXACT)
        for operand in operands)


def integer_operands_within_float32(node: torch.fx.Node, ranges: ValueRanges) -> bool:
    """Whether every integer operand, tensor or Python number, lies within +-2**24 (proven, or by its dtype)."""
    for argument in (*node.args, *node.kwargs.values()):
        if isinstance(argument, torch.fx.Node) and integral_dtype(argument) is None:
            continue
        interval = ranges.of(argument)
        if isinstance(argument, torch.fx.Node | int) and not isinstance(argument, bool) and (
                interval is None or not interval.within_magnitude(FLOAT32_EXACT)):
            return False
    return True


def integers_through_float32(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
    """Integer comparisons, extremes and powers OpenVINO computes through float32 (see the module docstring)."""
    op = aten_op(node)
    if op not in INTEGERS_THROUGH_FLOAT32 and op not in POWERS:
        return None
    inputs = [tensor.dtype for argument in node.all_input_nodes for tensor in tensors(argument.meta.get("val"))]
    if not inputs or not all(is_integral(dtype) for dtype in inputs):
        return None
    if op in INTEGERS_THROUGH_FLOAT32 and not integer_operands_within_float32(node, ranges):
        return INTEGERS_THROUGH_FLOAT32[op]
    if op in POWERS and not (ranges.proven(node) and ranges.interval(node).within_magnitude(FLOAT32_EXACT)):
        return differences.named("integer_pow_through_float32").computes
    return None


def divides_differently(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
    """Division and remainder OpenVINO computes through float32 or an int32 convert. Integer operands proven
    within +-2**24 stay: float32 represents them, their quotients and remainders exactly."""
    op = aten_op(node)
    integers = integral_dtype(node) is not None
    if integers and exact_in_float32(node, ranges):
        return None
    if op in REMAINDER_OPS:
        return differences.named("remainder_through_float32").computes
    if op not in DIVIDING:
        return None
    rounding: object
    if op in (aten.floor_divide.default, aten.floor_divide.Scalar):
        rounding = "floor"
    else:
        rounding = node.kwargs.get("rounding_mode", node.args[2] if len(node.args) > 2 else None)
    if rounding == "trunc":
        return differences.named("trunc_division_through_int32").computes
    if rounding == "floor" and integers:
        return differences.named("division_through_float32").computes
    return None


def pools_differently(node: torch.fx.Node) -> str | None:
    if aten_op(node) not in AVERAGE_POOLS:
        return None
    # kernel, stride, padding, ceil_mode, count_include_pad, divisor
    defaults: tuple[object, ...] = ([], [], [0], False, True, None)
    padding, ceil_mode, count_include_pad, divisor = (*node.args[1:], *defaults[len(node.args) - 1:])[2:]
    if divisor is not None:
        return differences.named("avg_pool_divisor_override").computes
    if ceil_mode and count_include_pad and any(cast(list[int], padding)):
        return differences.named("avg_pool_ceil_window_divisor").computes
    return None


def indices_used(node: torch.fx.Node) -> bool:
    """Whether a max pool's indices (its second result) are read: the exact rewrite leaves them as they are."""
    return any(user.target is operator.getitem and user.args[1] == 1 and user.users for user in node.users)


def special_values_differ(node: torch.fx.Node) -> str | None:
    """Why OpenVINO treats NaN, +-inf or -0.0 differently in this node, or None (also for the ops an exact rewrite
    makes PyTorch's in the delegate, ``workaround.partitioner.exact_rewrites``)."""
    op = aten_op(node)
    floats = [tensor for tensor in tensors_touched(node) if tensor.dtype.is_floating_point]
    if not floats or (op in KEPT_EXACT and not indices_used(node)):
        return None
    if op in IEEE_DIFFERENCES:
        return f"{op} {IEEE_DIFFERENCES[op]}"
    made = tensors(node.meta.get("val"))
    if op in CONVERTING and made and made[0].dtype in NAN_TO_FALSE_DTYPES:
        return f"{op} {NAN_TO_FALSE.computes}"
    return None


class Folded(Enum):
    """Which nodes OpenVINO folds into constants with its exact reference kernels, for a rule to skip."""

    CONSTANT = "every constant node"
    INTERIOR = "the constant nodes whose values reach no runtime op"


def _on_values_the_cpu_plugin_computes(rule: Callable[[torch.fx.Node, ValueRanges], str | None], skip: Folded
                                       ) -> Callable[[torch.fx.Node, ValueRanges], str | None]:
    """``rule``, except on the folded nodes ``skip`` names."""
    def applied(node: torch.fx.Node, ranges: ValueRanges) -> str | None:
        folded = node in ranges.folding.constant if skip is Folded.CONSTANT else ranges.folding.interior(node)
        return None if folded else rule(node, ranges)
    return applied


# The registry's rules (``workaround.contract.differences``) as the partitioner runs them on one node; the float16
# rule needs the partitions (``float16_rounding_dropped``).
NODE_RULES: dict[Rule, Callable[[torch.fx.Node, ValueRanges], str | None]] = {
    Rule.UNSUPPORTED_DTYPE: lambda node, _: unsupported_dtype(node),
    Rule.INT64_OUT_OF_INT32: _on_values_the_cpu_plugin_computes(int64_out_of_int32, Folded.INTERIOR),
    Rule.WRAPS_AROUND: wraps_around,
    Rule.DIVIDES_DIFFERENTLY: _on_values_the_cpu_plugin_computes(divides_differently, Folded.CONSTANT),
    Rule.INTEGERS_THROUGH_FLOAT32: _on_values_the_cpu_plugin_computes(integers_through_float32, Folded.CONSTANT),
    Rule.POOLS_DIFFERENTLY: lambda node, _: pools_differently(node),
    Rule.SPECIAL_VALUES_DIFFER: lambda node, _: special_values_differ(node),
}
# Each rule once, in the registry's order, with whether it runs only under special_values="torch".
RULES = tuple(dict.fromkeys((difference.rule, difference.special_values) for difference in differences.DIFFERENCES
                            if difference.owner == differences.Owner.OPENVINO and difference.rule in NODE_RULES))


def computes_differently(node: torch.fx.Node, ranges: ValueRanges,
                         special_values: SpecialValues = SpecialValues.OPENVINO) -> str | None:
    """Why OpenVINO would compute this node differently from PyTorch, or None: the first registry rule that says
    so. A constant node is computed by OpenVINO's exact reference kernels when it folds constants
    (``workaround.partitioner.rules.constant_folding``): the rules that describe the CPU plugin's integer kernels
    do not apply to it, and only an int64 value it hands to a runtime op must fit int32."""
    for rule, torch_only in RULES:
        if torch_only and special_values != SpecialValues.TORCH:
            continue
        if reason := NODE_RULES[rule](node, ranges):
            return reason
    return None


def is_float16(node: torch.fx.Node) -> bool:
    made = tensors(node.meta.get("val"))
    return node.op == "call_function" and bool(made) and made[0].dtype is torch.float16


def is_conversion_to_float32(node: torch.fx.Node) -> bool:
    return aten_op(node) in CONVERTING and node.kwargs.get("dtype") is torch.float32


def decompressed_weight(node: torch.fx.Node, ranges: ValueRanges) -> bool:
    """A float16 value computed from constants alone, integers among them (the compressed weight), and read only
    by a conversion to float32 or by more such values: a compressed weight's decompression (NNCF's
    ``(q - zero_point) * scale`` of uint8 or 4-bit ``q`` and a float16 ``scale``). OpenVINO keeps such a weight
    compressed and decompresses it in float32 in the matmul or gather that reads it: exactly (a 9-bit integer
    times an 11-bit scale fits float32), where PyTorch rounds the product to float16. Handing it back would
    decompress every weight in ExecuTorch on every call and feed OpenVINO float32 weights; it stays, and what it
    is held to is the exact decompression (docs/design.md, "Compressed weights")."""
    return node in ranges.folding.constant and converted_from_integers(node) and all(
        is_conversion_to_float32(user) or (is_float16(user) and decompressed_weight(user, ranges))
        for user in node.users)


def converted_from_integers(node: torch.fx.Node) -> bool:
    """Whether ``node`` is, or is computed from, a conversion of an integer tensor to floating point."""
    if aten_op(node) in CONVERTING and (source := tensors(tensor_argument(node, 0).meta.get("val"))):
        return not source[0].dtype.is_floating_point
    return any(converted_from_integers(source) for source in node.all_input_nodes if source.op == "call_function")


def float16_rounding_dropped(node: torch.fx.Node, partition_of: Callable[[torch.fx.Node], str | None],
                             ranges: ValueRanges) -> str | None:
    """A float16 value made in a partition and read there by a node that does not just move it: OpenVINO keeps
    it in float32, so PyTorch's rounding to float16 never happens (a compressed weight's decompression aside)."""
    if not is_float16(node) or decompressed_weight(node, ranges):
        return None
    tag = partition_of(node)
    if any(partition_of(user) == tag and aten_op(user) not in FLOAT16_KEEPING for user in node.users):
        return differences.named("float16_rounding_dropped").computes
    return None


def with_its_results(node: torch.fx.Node) -> list[torch.fx.Node]:
    """A multi-output op and every getitem of its results, from the op or one of them: they go together, since
    a partition can neither return part of a tuple nor take one as an input."""
    op = tensor_argument(node, 0) if node.target is operator.getitem else node
    return [op, *(user for user in op.users if user.target is operator.getitem)]


def semantics_to_hand_back(graph: torch.fx.Graph, ranges: ValueRanges,
                           partition_of: Callable[[torch.fx.Node], str | None],
                           special_values: SpecialValues = SpecialValues.OPENVINO) -> dict[torch.fx.Node, str]:
    """{tagged node: why} for every node OpenVINO would compute differently from PyTorch."""
    found: dict[torch.fx.Node, str] = {}
    for node in graph.nodes:
        if partition_of(node) is None:
            continue
        if reason := (computes_differently(node, ranges, special_values)
                      or float16_rounding_dropped(node, partition_of, ranges)):
            for part in with_its_results(node):
                found.setdefault(part, reason)
    return found
