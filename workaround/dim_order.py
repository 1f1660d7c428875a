"""Dim orders at OpenVINO partition boundaries: reading them, and refusing what cannot be made right.

ExecuTorch's OpenVINO runtime wraps each boundary buffer with its sizes only, so OpenVINO reads
and writes every delegate input and output as if it were contiguous. With dim order on (the
default), the workaround compiles each partition to honour its boundary tensors' dim orders
(``workaround.boundary_dim_orders``), so nothing needs converting in ExecuTorch any more.

With dim order off (``EdgeCompileConfig(_skip_dim_order=True)``) ExecuTorch cannot hold a
channels-last tensor at all, yet the exported graph can still produce one: any such tensor that
would cross a partition boundary is refused at export (``DimOrderError``), never wrong values.

``DefaultDimOrderForOpenvino``, the transform pass earlier versions needed, is kept so that
scripts passing it keep working; it now changes nothing.
"""

import warnings

import torch
from executorch.exir.pass_base import ExportPass, PassResult

from workaround.copy_ops import aten_op
from workaround.layouts import strides_in


class DimOrderError(ValueError):
    """A tensor would cross an OpenVINO partition boundary in a non-default dim order."""


def contiguous_strides(shape):
    return strides_in(shape, range(len(shape)))


def is_ambiguous(value):
    """A tensor whose strides are not the contiguous ones but put every element where they would:
    they differ only at size-1 dims (a one-channel channels-last image; ``workaround.layouts``)."""
    if not isinstance(value, torch.Tensor):
        return False
    strides, contiguous = tuple(value.stride()), contiguous_strides(value.shape)
    sizes = value.shape
    return strides != contiguous and all(a == b for a, b, size in zip(strides, contiguous, sizes, strict=True)
                                         if size != 1)


def dim_order(value):
    """The dim order of a (fake) tensor, or None for anything else; an ambiguous layout reads as the
    default (the same bytes either way). Tensor.dim_order() costs ~40 us on a fake tensor, so the
    common contiguous case is recognised from the strides first."""
    if not isinstance(value, torch.Tensor):
        return None
    if tuple(value.stride()) == contiguous_strides(value.shape) or is_ambiguous(value):
        return tuple(range(value.dim()))
    return tuple(value.dim_order())


# Ops whose ``dim_order`` argument ExecuTorch's kernels check against their output's dim order.
DIM_ORDER_OPS = {torch.ops.dim_order_ops._clone_dim_order.default,
                 torch.ops.dim_order_ops._to_dim_order_copy.default}


def declare_ambiguous_layouts_default(exported_program):
    """Read every user input whose strides fit the default dim order as well as its own as default,
    ask dim-order ops whose result is such a tensor for the default order, and derive every other
    tensor's layout again from there.

    Why: torch labels a one-channel channels-last image (1, 1, H, W) with dim order (0, 2, 3, 1);
    ExecuTorch's serializer derives (0, 2, 1, 3) from the same strides (``workaround.layouts``), and
    its portable kernels (``_clone_dim_order``, ``convolution``) reject that at run time, with or
    without a delegate. Read as default, the same bytes run everywhere; results computed from them
    then come out in the default dim order too (eager would return a conv's result channels-last).
    """
    from torch._guards import detect_fake_mode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp

    user_inputs = set(exported_program.graph_signature.user_inputs)
    graph_module = exported_program.graph_module
    while True:
        changed = False
        for node in graph_module.graph.nodes:
            value = node.meta.get("val")
            if not is_ambiguous(value):
                continue
            if node.op == "placeholder" and node.name in user_inputs:
                node.meta["val"] = value.clone(memory_format=torch.contiguous_format)
                changed = True
            elif aten_op(node) in DIM_ORDER_OPS and node.kwargs.get("dim_order") != list(range(value.dim())):
                node.update_kwarg("dim_order", list(range(value.dim())))
                changed = True
        if not changed:
            return
        placeholders = [node.meta["val"] for node in graph_module.graph.nodes if node.op == "placeholder"]
        fake_mode = detect_fake_mode(placeholders)
        with fake_mode:
            FakeTensorProp(graph_module, fake_mode).propagate_dont_convert_inputs(*placeholders)


def is_default(order):
    return order is None or order == tuple(range(len(order)))


def node_dim_order(node):
    return dim_order(node.meta.get("val"))


MEMORY_FORMAT_OPS = {torch.ops.aten.clone.default, torch.ops.aten._to_copy.default}


def lowered_without_dim_order(graph):
    """With dim order off, layout changes stay aten ops with a memory_format argument."""
    return any(node.op == "call_function" and aten_op(node) in MEMORY_FORMAT_OPS and "memory_format" in node.kwargs
               for node in graph.nodes)


class DefaultDimOrderForOpenvino(ExportPass):
    """No longer needed, and now a no-op: the copy-safe partitioner compiles each OpenVINO partition to
    honour its boundary dim orders. Kept so that export scripts written for earlier versions run."""

    def call(self, graph_module):
        warnings.warn("DefaultDimOrderForOpenvino is no longer needed and does nothing: "
                      "CopySafeOpenvinoPartitioner alone handles channels-last tensors at partition boundaries. "
                      "Remove it from transform_passes.", DeprecationWarning, stacklevel=2)
        return PassResult(graph_module, False)


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
    """With dim order off, refuse any tensor that would cross a partition boundary in a non-default
    dim order (with dim order on, the partitions honour them and there is nothing to refuse)."""
    if not lowered_without_dim_order(graph):
        return
    found = non_default_boundary_tensors(graph, partition_of)
    if found:
        node, order, direction, tag = found[0]
        what = aten_op(node) if node.op == "call_function" else node.op
        raise DimOrderError(
            f"node '{node.name}' ({what}) {direction} OpenVINO partition {tag} in dim order {list(order)}, but "
            "the program was lowered with dim order off, so ExecuTorch would hand it over as contiguous and the "
            "values would be wrong. Keep dim order on (do not pass EdgeCompileConfig(_skip_dim_order=True)): "
            f"the partitions then read and write it in its own dim order. ({len(found)} such crossing(s).)")
