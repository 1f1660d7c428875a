"""Every tensor that crosses an OpenVINO partition boundary in the default dim order.

ExecuTorch's OpenVINO runtime wraps each boundary buffer with its sizes only, so
OpenVINO reads and writes every delegate input and output as if it were contiguous.
A channels-last tensor entering a partition (an image fed to a conv) or leaving it
(a conv's channels-last result) then gives wrong values. Inside a partition layout
does not matter: OpenVINO computes on logical tensors and ignores memory format.

Use ``DefaultDimOrderForOpenvino`` as a transform pass together with the copy-safe
partitioner::

    to_edge_transform_and_lower(ep, transform_passes=[DefaultDimOrderForOpenvino()],
                                partitioner=[CopySafeOpenvinoPartitioner(compile_spec)])

Why a pass and not the partitioner: a partitioner may only tag nodes (ExecuTorch
asserts it leaves the graph unchanged), and the fix needs new nodes. The pass gives
every op OpenVINO takes its tensor inputs in the default dim order (a
``_to_dim_order_copy`` in front of it where needed, so the op's own result becomes
default too), then converts each program output back to the dim order eager
produced. The partitioner keeps those conversions out of its partitions (a layout
change is never delegated at a partition boundary), so ExecuTorch's kernels do
them, and the layout-sensitive op itself stays delegated. Anything still crossing a
boundary in another dim order is refused at export (``DimOrderError``).
"""

import functools

import torch
from executorch.exir.dialects._ops import ops as exir_ops
from executorch.exir.pass_base import ExportPass, PassResult, ProxyValue

from workaround.copy_ops import aten_op

TO_DIM_ORDER = exir_ops.edge.dim_order_ops._to_dim_order_copy.default
LAYOUT_OPS = {torch.ops.dim_order_ops._to_dim_order_copy.default, torch.ops.dim_order_ops._clone_dim_order.default}


class DimOrderError(ValueError):
    """A tensor would cross an OpenVINO partition boundary in a non-default dim order."""


def contiguous_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= size
    return tuple(reversed(strides))


def dim_order(value):
    """The dim order of a (fake) tensor, or None for anything else. Tensor.dim_order() costs ~40 us
    on a fake tensor, so the common contiguous case is recognised from the strides first."""
    if not isinstance(value, torch.Tensor):
        return None
    if tuple(value.stride()) == contiguous_strides(value.shape):
        return tuple(range(value.dim()))
    return tuple(value.dim_order())


def is_default(order):
    return order is None or order == tuple(range(len(order)))


def node_dim_order(node):
    return dim_order(node.meta.get("val"))


@functools.cache
def _openvino_op_names():
    from executorch.backends.openvino.partitioner import OpenvinoOperatorsSupport
    from openvino.frontend.pytorch.torchdynamo.op_support import OperatorSupport

    return frozenset(OperatorSupport([])._support_dict) | frozenset(OpenvinoOperatorsSupport.extended_support_dict)


def openvino_takes(op):
    """Whether the stock OpenvinoPartitioner would delegate this op (its own support table)."""
    return "torch.ops." + getattr(op, "__name__", str(op)) in _openvino_op_names()


def is_layout_change(node):
    """A dim-order op whose result is in another dim order than its input."""
    if node.op != "call_function" or aten_op(node) not in LAYOUT_OPS:
        return False
    return node_dim_order(node.args[0]) != node_dim_order(node)


MEMORY_FORMAT_OPS = {torch.ops.aten.clone.default, torch.ops.aten._to_copy.default}


def lowered_without_dim_order(graph):
    """With dim order off, layout changes stay aten ops with a memory_format argument."""
    return any(node.op == "call_function" and aten_op(node) in MEMORY_FORMAT_OPS and "memory_format" in node.kwargs
               for node in graph.nodes)


class DefaultDimOrderForOpenvino(ExportPass):
    """Give every op OpenVINO takes default-dim-order inputs; restore eager's dim order at the outputs.

    With dim order off it does nothing: ExecuTorch then cannot hold a channels-last tensor at
    all, and the partitioner refuses any that would cross a partition boundary."""

    def call(self, graph_module):
        if lowered_without_dim_order(graph_module.graph):
            return PassResult(graph_module, False)
        output = next(node for node in graph_module.graph.nodes if node.op == "output")
        self._output_orders = [node_dim_order(arg) if isinstance(arg, torch.fx.Node) else None
                               for arg in output.args[0]]
        return super().call(graph_module)

    def _to_dim_order(self, value, order, meta):
        return super().call_operator(TO_DIM_ORDER, (value,), {"dim_order": list(order)}, meta)

    def _with_default_order(self, value, meta):
        if isinstance(value, list | tuple):
            return type(value)(self._with_default_order(item, meta) for item in value)
        order = dim_order(value.data) if isinstance(value, ProxyValue) else None
        return value if is_default(order) else self._to_dim_order(value, range(len(order)), meta)

    def call_operator(self, op, args, kwargs, meta):
        # Dim-order ops included: a clone that keeps a channels-last input channels-last then reads
        # a default-order input and becomes a layout change, which the partitioner keeps off boundaries.
        if openvino_takes(op):
            args = tuple(self._with_default_order(arg, meta) for arg in args)
        return super().call_operator(op, args, kwargs, meta)

    def output(self, results, meta):
        restored = []
        for value, wanted in zip(results, self._output_orders, strict=True):
            current = dim_order(value.data) if isinstance(value, ProxyValue) else None
            needs_restoring = wanted is not None and current is not None and current != wanted
            restored.append(self._to_dim_order(value, wanted, meta) if needs_restoring else value)
        return super().output(restored, meta)


def non_default_boundary_tensors(graph, partition_of):
    """(node, dim order, "enters"/"leaves", tag) for each tensor crossing a partition boundary
    in a non-default dim order."""
    found = []
    for node in graph.nodes:
        tag = partition_of(node)
        order = node_dim_order(node)
        if is_default(order):
            continue
        users = {partition_of(user) for user in node.users}
        if tag is not None and any(user != tag for user in users):
            found.append((node, order, "leaves", tag))
        for user_tag in sorted(t for t in users if t is not None and t != tag):
            found.append((node, order, "enters", user_tag))
    return found


def refuse_non_default_boundaries(graph, partition_of):
    found = non_default_boundary_tensors(graph, partition_of)
    if found:
        node, order, direction, tag = found[0]
        what = aten_op(node) if node.op == "call_function" else node.op
        fix = ("Keep dim order on (do not pass EdgeCompileConfig(_skip_dim_order=True)) and add "
               "workaround.DefaultDimOrderForOpenvino() to transform_passes." if lowered_without_dim_order(graph)
               else "Add workaround.DefaultDimOrderForOpenvino() to "
                    "to_edge_transform_and_lower(..., transform_passes=[...]).")
        raise DimOrderError(
            f"node '{node.name}' ({what}) {direction} OpenVINO "
            f"partition {tag} in dim order {list(order)}; ExecuTorch's OpenVINO runtime would hand it over as "
            f"contiguous and the values would be wrong. {fix} ({len(found)} such crossing(s).)")
