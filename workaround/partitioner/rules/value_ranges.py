"""The range of values each integer tensor of an exported graph can hold, proven from shapes and constants.

Why: OpenVINO's CPU plugin computes int64 in 32 bits (a partition input of 2**40 arrives as 0, even through a
reshape) and saturates uint8 / int8 arithmetic where PyTorch wraps. Handing back *every* such node would take
position ids and masks (``arange`` + offsets) out of every transformer delegate, so the semantics guard
(``workaround.partitioner.rules.openvino_hand_back``) keeps a node whose integers are proven to stay in range.

The proof is interval arithmetic over the graph, in exact Python integers (no wrap-around):

- a user input may hold any value of its dtype, except that a tensor used as the indices of an embedding
  (bag), ``index_select``, ``gather`` or advanced indexing into a dimension of static size ``n`` holds values in
  ``[-n, n - 1]``, and an embedding bag's offsets lie within its indices, ``[0, len(indices)]`` (any other
  value makes PyTorch and ExecuTorch's kernels fail, so no correct run has one), and a tensor read as a number
  (``.item()``) holds the range torch.export proved for that number from the model's checks (``torch._check``,
  the bounds of the ``narrow`` it positions): eager PyTorch refuses any other value, and ExecuTorch drops the
  checks, so a run with one is not a run of the model (a KV cache's position, read this way with dynamic shapes);
- parameters, buffers and lifted constants hold their actual values, and so does every node computed from them
  alone (``workaround.partitioner.rules.constant_folding``: evaluated with PyTorch);
- ``arange``, ``full`` and friends hold what their arguments say; copies, views, concatenations and
  selections hold what their sources hold; ``add``, ``sub``, ``mul``, ``neg``, ``abs``, ``sum``,
  ``cumsum``, ``pow`` by a constant, ``clamp``, a bitwise ``and`` with a non-negative mask and a right shift
  follow the arithmetic; integer quotients are no larger than their
  dividends, remainders smaller than their divisors; indices made by ``argmax``, ``topk`` or ``sort`` lie
  within the size;
- anything else holds any value of its dtype.

Only integer and bool tensors get a range; floats are not tracked.
"""

import functools
import math
import operator
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import cast

import torch
from torch._subclasses.fake_tensor import FakeTensor
from torch.export import ExportedProgram

from workaround.partitioner.graph.fx_arguments import (
    int_argument,
    int_list_argument,
    tensor_argument,
    tensor_list_argument,
)
from workaround.partitioner.graph.nodes import aten_op, fake_tensor, integral_dtype
from workaround.partitioner.rules.constant_folding import ConstantFolding

aten = torch.ops.aten


@dataclass(frozen=True)
class Interval:
    """Every value lies in [low, high] (exact integers)."""

    low: int
    high: int

    def within(self, dtype: torch.dtype) -> bool:
        return dtype_interval(dtype).low <= self.low and self.high <= dtype_interval(dtype).high

    def within_magnitude(self, bound: int) -> bool:
        return -bound <= self.low and self.high <= bound

    def union(self, other: "Interval") -> "Interval":
        return Interval(min(self.low, other.low), max(self.high, other.high))

    def intersection(self, other: "Interval") -> "Interval":
        return Interval(max(self.low, other.low), min(self.high, other.high))

    def scaled(self, count: int) -> "Interval":
        """The range of a sum of ``count`` values of this range."""
        return Interval(min(self.low * count, self.low), max(self.high * count, self.high))


def dtype_interval(dtype: torch.dtype) -> Interval:
    if dtype is torch.bool:
        return Interval(0, 1)
    info = torch.iinfo(dtype)
    return Interval(info.min, info.max)





def static_int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class ValueRanges:
    """``ranges[node]``: the Interval of an integer-valued node's tensor, or None for other nodes."""

    def __init__(self, exported_program: ExportedProgram) -> None:
        self.program = exported_program
        self.folding = ConstantFolding(exported_program)
        self.bounds: dict[torch.fx.Node, Interval] = {}
        self.assumed: set[torch.fx.Node] = set()  # nodes whose range is only their dtype's: nothing proven
        bounded_by_use = indices_bounded_by_shapes(exported_program.graph)
        for source, checked in numbers_bounded_by_checks(exported_program.graph).items():
            narrow(bounded_by_use, source, checked)
        for node in exported_program.graph.nodes:
            dtype = integral_dtype(node)
            if dtype is None:
                continue
            interval = self._derive(node, dtype)
            if interval is None:
                interval = dtype_interval(dtype)
                self.assumed.add(node)
            if node in bounded_by_use:
                interval = interval.intersection(bounded_by_use[node])
                self.assumed.discard(node)
            self.bounds[node] = interval

    def __getitem__(self, node: torch.fx.Node) -> Interval | None:
        return self.bounds.get(node)

    def interval(self, node: torch.fx.Node) -> Interval:
        """The Interval of an integer-valued node (every one has one)."""
        return self.bounds[node]

    def proven(self, node: torch.fx.Node) -> bool:
        """Whether the node's range follows from the graph, rather than being all its dtype can hold."""
        return node in self.bounds and node not in self.assumed

    def of(self, value: object) -> Interval | None:
        """The range of an argument: a tensor node already visited, a size (SymInt), or a Python number."""
        if isinstance(value, torch.fx.Node):
            symbolic = value.meta.get("val")
            return symint_interval(symbolic) if isinstance(symbolic, torch.SymInt) else self.bounds.get(value)
        if isinstance(value, torch.SymInt):
            return symint_interval(value)
        number = static_int(value)
        return Interval(number, number) if number is not None else None

    def union(self, values: Iterable[object]) -> Interval | None:
        """The range holding every value of ``values``; None if any is unknown."""
        found = [self.of(value) for value in values]
        known = [interval for interval in found if interval is not None]
        if not known or len(known) < len(found):
            return None
        return functools.reduce(Interval.union, known)

    def _derive(self, node: torch.fx.Node, dtype: torch.dtype) -> Interval | None:
        if node.op == "placeholder":
            return constant_interval(self.program, node)
        if node.op != "call_function":
            return None
        if dtype is torch.bool:
            return Interval(0, 1)
        if (value := self.folding.value(node)) is not None and value.numel():  # a constant: its actual values
            return Interval(int(value.min()), int(value.max()))
        rule = RULES.get(aten_op(node))
        return rule(self, node) if rule else None


Rule = Callable[[ValueRanges, torch.fx.Node], Interval | None]


def holding(*positions: int) -> Rule:
    """The result holds only values its arguments at ``positions`` hold (a copy, view, selection)."""
    return lambda ranges, node: ranges.union(node.args[position] for position in positions
                                             if position < len(node.args))


def converted(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    source = node.args[0]
    return ranges.of(source) if isinstance(source, torch.fx.Node) and integral_dtype(source) else None


def one_result(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """getitem of a multi-output op: its indices, or values its input holds."""
    source, position = tensor_argument(node, 0), int_argument(node, 1)
    if aten_op(source) in VALUES_AND_INDICES and position == 1:
        return index_interval(source)
    if aten_op(source) in POOLS_WITH_INDICES and position == 1:  # flat indices into each spatial plane
        shape = sizes(tensor_argument(source, 0))
        return Interval(0, max(math.prod(shape[2:]) - 1, 0)) if shape else None
    if aten_op(source) is aten._embedding_bag.default and position > 0:
        return bag_bookkeeping_interval(source)
    return ranges.of(source.args[0])


def arange(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """Values lie in [start, end) for a positive step, (end, start] for a negative one."""
    args = node.args
    start, end, step = (0, args[0], 1) if len(args) == 1 else (args[0], args[1], args[2] if len(args) > 2 else 1)
    starts, ends, step = ranges.of(start), ranges.of(end), static_int(step)
    if starts is None or ends is None or not step:
        return None
    if step > 0:
        return Interval(starts.low, max(starts.high, ends.high - 1))
    return Interval(min(starts.low, ends.low + 1), starts.high)


def filled(position: int) -> Rule:
    return lambda ranges, node: ranges.of(node.args[position])


def constant(value: int) -> Rule:
    return lambda ranges, node: Interval(value, value)


def linear(sign: int, swapped: bool = False) -> Rule:
    """add (sign 1), sub (-1) and rsub (-1, swapped): left + sign * alpha * right."""
    def rule(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
        left, right = (ranges.of(arg) for arg in node.args[:2])
        alpha = static_int(node.kwargs.get("alpha", 1))
        if left is None or right is None or alpha is None:
            return None
        if swapped:
            left, right = right, left
        scaled = [sign * alpha * value for value in (right.low, right.high)]
        return Interval(left.low + min(scaled), left.high + max(scaled))

    return rule


def masked(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """``x & mask``: with a mask of non-negative values, only its bits survive, whatever ``x`` holds (4-bit
    weights unpacked from bytes, ``packed & 15``)."""
    mask = ranges.of(node.args[1])
    return Interval(0, mask.high) if mask is not None and mask.low >= 0 else None


def shifted_right(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """``x >> k`` for a constant ``k >= 0``: monotonic, so the bounds shift too (``packed >> 4``)."""
    source, amount = ranges.of(node.args[0]), static_int(node.args[1])
    return Interval(source.low >> amount, source.high >> amount) if source and amount is not None and amount >= 0 \
        else None


def product(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    left, right = (ranges.of(arg) for arg in node.args[:2])
    if left is None or right is None:
        return None
    products = [a * b for a in (left.low, left.high) for b in (right.low, right.high)]
    return Interval(min(products), max(products))


def negated(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    found = ranges.of(node.args[0])
    return Interval(-found.high, -found.low) if found else None


def absolute(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    found = ranges.of(node.args[0])
    if found is None:
        return None
    magnitudes = (abs(found.low), abs(found.high))
    return Interval(0 if found.low <= 0 <= found.high else min(magnitudes), max(magnitudes))


def power(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """An integer to a constant non-negative integer power: the extremes lie at the ends of the base's range,
    or at 0."""
    base, exponent = ranges.of(node.args[0]), static_int(node.args[1])
    if base is None or exponent is None or exponent < 0:
        return None
    values = [base.low ** exponent, base.high ** exponent] + ([0] if base.low <= 0 <= base.high else [])
    return Interval(min(values), max(values))


def clamped(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """clamp(x, low, high) with integer bounds (either may be None): x's range cut to them."""
    found = ranges.of(node.args[0])
    bounds = [*node.args[1:3], *(None for _ in range(3 - len(node.args)))]
    low, high = (node.kwargs.get(name, bound) for name, bound in zip(("min", "max"), bounds, strict=True))
    if found is None or any(bound is not None and static_int(bound) is None for bound in (low, high)):
        return None
    low_bound, high_bound = static_int(low), static_int(high)
    return Interval(found.low if low_bound is None else max(found.low, low_bound),
                    found.high if high_bound is None else min(found.high, high_bound))


def summed(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    found, count = ranges.of(node.args[0]), summed_count(node)
    return found.scaled(count) if found is not None and count is not None else None


def quotient(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """An integer quotient is no larger in magnitude than its dividend (the divisor is a nonzero integer)."""
    found = ranges.of(node.args[0])
    if found is None:
        return None
    magnitude = max(abs(found.low), abs(found.high))
    return Interval(-magnitude, magnitude)


def remainder(ranges: ValueRanges, node: torch.fx.Node) -> Interval | None:
    """An integer remainder is smaller in magnitude than its divisor."""
    found = ranges.of(node.args[1])
    if found is None:
        return None
    magnitude = max(abs(found.low), abs(found.high))
    return Interval(-max(magnitude - 1, 0), max(magnitude - 1, 0))


def quantized(low: int, high: int) -> Rule:
    """Quantization: the result holds [quant_min, quant_max], at these argument positions."""
    return lambda ranges, node: ranges.union([node.args[low], node.args[high]])


# Copies that may change the dtype: the source's range holds if the source is an integer tensor.
CONVERTING = {aten._to_copy.default, torch.ops.dim_order_ops._to_dim_order_copy.default,
              torch.ops.dim_order_ops._clone_dim_order.default}
# Ops returning (values, indices into the reduced or sorted dimension).
VALUES_AND_INDICES: set[object] = {aten.max.dim, aten.min.dim, aten.topk.default, aten.sort.default}
POOLS_WITH_INDICES: set[object] = {aten.max_pool2d_with_indices.default, aten.max_pool3d_with_indices.default}
SELECTING = [aten.view_copy.default, aten.view.default, aten.reshape.default, aten._unsafe_view.default,
             aten.permute_copy.default, aten.permute.default, aten.expand_copy.default, aten.expand.default,
             aten.slice_copy.Tensor, aten.slice.Tensor, aten.select_copy.int, aten.select.int,
             aten.squeeze_copy.dims, aten.squeeze_copy.dim, aten.squeeze_copy.default, aten.unsqueeze_copy.default,
             aten.unsqueeze.default, aten.clone.default, aten.alias_copy.default, aten.transpose_copy.int,
             aten.t_copy.default, aten.repeat.default, aten.flip.default, aten.roll.default,
             aten.split_with_sizes_copy.default, aten.split_copy.Tensor, aten.index.Tensor,
             aten.index_select.default, aten.gather.default, aten.amax.default, aten.amin.default,
             aten.max.default, aten.min.default, aten.unbind_copy.int, aten.contiguous.default,
             aten.ceil.default, aten.floor.default, aten.round.default, aten.trunc.default]
RULES: dict[object, Rule] = {
    **dict.fromkeys(SELECTING, holding(0)),
    **dict.fromkeys(CONVERTING, converted),
    **dict.fromkeys([aten.cat.default, aten.stack.default],
                    lambda ranges, node: ranges.union(tensor_list_argument(node, 0))),
    aten.embedding.default: holding(0),
    aten.where.self: holding(1, 2),
    aten.maximum.default: holding(0, 1),
    aten.minimum.default: holding(0, 1),
    operator.getitem: one_result,
    aten.argmax.default: lambda ranges, node: index_interval(node),
    aten.argmin.default: lambda ranges, node: index_interval(node),
    **dict.fromkeys([aten.arange.start_step, aten.arange.start, aten.arange.default], arange),
    aten.full.default: filled(1),
    aten.full_like.default: filled(1),
    aten.scalar_tensor.default: filled(0),
    **dict.fromkeys([aten.zeros.default, aten.zeros_like.default], constant(0)),
    **dict.fromkeys([aten.ones.default, aten.ones_like.default], constant(1)),
    **dict.fromkeys([aten.add.Tensor, aten.add.Scalar], linear(1)),
    **dict.fromkeys([aten.sub.Tensor, aten.sub.Scalar], linear(-1)),
    aten.rsub.Scalar: linear(-1, swapped=True),
    **dict.fromkeys([aten.mul.Tensor, aten.mul.Scalar], product),
    aten.neg.default: negated,
    **dict.fromkeys([aten.bitwise_and.Scalar, aten.bitwise_and.Tensor], masked),
    aten.bitwise_right_shift.Tensor_Scalar: shifted_right,
    aten.pow.Tensor_Scalar: power,
    aten.clamp.default: clamped,
    aten.abs.default: absolute,
    **dict.fromkeys([aten.sum.dim_IntList, aten.sum.default, aten.cumsum.default], summed),
    **dict.fromkeys([aten.div.Tensor_mode, aten.div.Scalar_mode, aten.floor_divide.default], quotient),
    **dict.fromkeys([aten.remainder.Tensor, aten.remainder.Scalar, aten.fmod.Tensor, aten.fmod.Scalar],
                    remainder),
    torch.ops.quantized_decomposed.quantize_per_tensor.default: quantized(3, 4),
    torch.ops.quantized_decomposed.quantize_per_tensor.tensor: quantized(3, 4),
    torch.ops.quantized_decomposed.quantize_per_channel.default: quantized(4, 5),
}


def symint_interval(size: torch.SymInt) -> Interval | None:
    """The range torch.export proved for a dynamic size (its Dim's min and max)."""
    expression = size.node.expr
    found = size.node.shape_env.bound_sympy(expression)
    if not (found.lower.is_finite and found.upper.is_finite):
        return None
    return Interval(int(found.lower), int(found.upper))


def sizes(node: torch.fx.Node) -> list[int] | None:
    value = fake_tensor(node)
    if value is None or any(static_int(size) is None for size in value.shape):
        return None
    return [int(size) for size in value.shape]


def summed_count(node: torch.fx.Node) -> int | None:
    """How many values each result of a sum or cumsum adds up."""
    source = node.args[0]
    shape = sizes(source) if isinstance(source, torch.fx.Node) else None
    if shape is None:
        return None
    if aten_op(node) is aten.cumsum.default:
        return shape[int_argument(node, 1)] if shape else 1
    dims = int_list_argument(node, 1) if len(node.args) > 1 and node.args[1] else range(len(shape))
    count = 1
    for dim in dims:
        count *= shape[dim]
    return count


def index_interval(node: torch.fx.Node) -> Interval | None:
    """Indices into the reduced dimension of argmax / max.dim / topk / sort (the whole tensor without dim)."""
    shape = sizes(node.args[0]) if isinstance(node.args[0], torch.fx.Node) else None
    if shape is None:
        return None
    dim = node.args[1] if len(node.args) > 1 and isinstance(node.args[1], int) else None
    if aten_op(node) is aten.topk.default:
        dim = int_argument(node, 2) if len(node.args) > 2 else -1
    if aten_op(node) is aten.sort.default:
        dim = int_argument(node, 1) if len(node.args) > 1 else -1
    extent = shape[dim] if dim is not None and shape else max(1, int(torch.tensor(shape).prod()))
    return Interval(0, max(extent - 1, 0))


def bag_bookkeeping_interval(node: torch.fx.Node) -> Interval | None:
    """offset2bag, bag_size and max_indices of an embedding bag: bags, counts of indices, rows (-1: none)."""
    weight, indices = sizes(tensor_argument(node, 0)), sizes(tensor_argument(node, 1))
    if weight is None or indices is None:
        return None
    return Interval(-1, max(math.prod(indices), weight[0]))


def constant_interval(exported_program: ExportedProgram, node: torch.fx.Node) -> Interval | None:
    """The actual range of a parameter, buffer or lifted constant; None for a user input."""
    from executorch.backends.transforms.utils import get_param_tensor, is_param_node

    if not is_param_node(exported_program, node):
        return None
    tensor = get_param_tensor(exported_program, node)
    if tensor is None or tensor.numel() == 0:
        return Interval(0, 0)
    if isinstance(tensor, FakeTensor):  # lowering holds constants as fake tensors; small ones keep their values
        tensor = tensor.constant
        if tensor is None:  # a constant whose values were not kept: nothing is known
            return None
    return Interval(int(tensor.min()), int(tensor.max()))


def narrow(found: dict[torch.fx.Node, Interval], node: torch.fx.Node, interval: Interval) -> None:
    """What ``found`` knows of ``node``, narrowed to ``interval`` too."""
    found[node] = found[node].intersection(interval) if node in found else interval


def numbers_bounded_by_checks(graph: torch.fx.Graph) -> dict[torch.fx.Node, Interval]:
    """Tensors read as a number (``.item()``) whose number torch.export bounded: their values lie in its range,
    and so do those of the one-element tensors it was selected or viewed from (a KV cache's ``input_pos[0]``)."""
    found: dict[torch.fx.Node, Interval] = {}
    for node in graph.nodes:
        number, source = node.meta.get("val"), node.args[0] if node.args else None
        if not (node.op == "call_function" and node.target is aten._local_scalar_dense.default
                and isinstance(number, torch.SymInt) and (interval := symint_interval(number)) is not None):
            continue
        while isinstance(source, torch.fx.Node):
            narrow(found, source, interval)
            inner = source.args[0] if source.op == "call_function" and aten_op(source) in SELECTING else None
            source = inner if isinstance(inner, torch.fx.Node) and numel(inner) == 1 else None
    return found


def numel(node: torch.fx.Node) -> int | None:
    shape = sizes(node)
    return None if shape is None else math.prod(shape)


IndexUses = Callable[[torch.fx.Node], Iterator[tuple[torch.fx.Node, Interval]]]


def within_the_table(indices: object, table: object, dim: object) -> Iterator[tuple[torch.fx.Node, Interval]]:
    """Indices into dimension ``dim`` of ``table``, of static size n, lie in [-n, n - 1]."""
    if not (isinstance(indices, torch.fx.Node) and isinstance(table, torch.fx.Node)):
        return
    shape, dim = sizes(table), static_int(dim)
    if shape and dim is not None:
        yield indices, Interval(-shape[dim], shape[dim] - 1)


def embedding_indices(node: torch.fx.Node) -> Iterator[tuple[torch.fx.Node, Interval]]:
    yield from within_the_table(node.args[1], node.args[0], 0)


def bag_indices(node: torch.fx.Node) -> Iterator[tuple[torch.fx.Node, Interval]]:
    """An embedding bag's indices into its table, and its offsets into its indices (their count included)."""
    yield from embedding_indices(node)
    offsets, indices = node.args[2], node.args[1]
    if isinstance(offsets, torch.fx.Node) and isinstance(indices, torch.fx.Node) and (shape := sizes(indices)):
        yield offsets, Interval(0, math.prod(shape))


def selected_indices(node: torch.fx.Node) -> Iterator[tuple[torch.fx.Node, Interval]]:
    """index_select(table, dim, indices), gather(table, dim, indices)."""
    yield from within_the_table(node.args[2], node.args[0], node.args[1])


def advanced_indices(node: torch.fx.Node) -> Iterator[tuple[torch.fx.Node, Interval]]:
    """index(table, [indices of dim 0, of dim 1, ...])."""
    for dim, indices in enumerate(cast(list[object], node.args[1])):
        yield from within_the_table(indices, node.args[0], dim)


# The ops that index a table, and the (indices, Interval) pairs each use proves.
INDEX_USES: dict[object, IndexUses] = {
    aten.embedding.default: embedding_indices,
    aten._embedding_bag.default: bag_indices,
    aten.index_select.default: selected_indices,
    aten.gather.default: selected_indices,
    aten.index.Tensor: advanced_indices,
}


def indices_bounded_by_shapes(graph: torch.fx.Graph) -> dict[torch.fx.Node, Interval]:
    """Tensors used as indices into a dimension of static size n: their values lie in [-n, n - 1]."""
    found: dict[torch.fx.Node, Interval] = {}
    for node in graph.nodes:
        uses = INDEX_USES.get(aten_op(node)) if node.op == "call_function" else None
        for indices, interval in uses(node) if uses else ():
            narrow(found, indices, interval)
    return found
