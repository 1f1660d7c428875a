"""One-channel channels-last images and other layouts whose strides fit two dim orders: read them as default.

Why: torch labels a one-channel channels-last image (1, 1, H, W) with dim order (0, 2, 3, 1); ExecuTorch's
serializer derives (0, 2, 1, 3) from the same strides (``workaround.contract.layouts``), and its portable kernels
(``_clone_dim_order``, ``convolution``) reject that at run time, with or without a delegate.
"""

import torch
from torch.export import ExportedProgram

from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.layouts.dim_order import is_ambiguous

# Ops whose ``dim_order`` argument ExecuTorch's kernels check against their output's dim order.
DIM_ORDER_OPS = {torch.ops.dim_order_ops._clone_dim_order.default,
                 torch.ops.dim_order_ops._to_dim_order_copy.default}


def declare_ambiguous_layouts_default(exported_program: ExportedProgram) -> None:
    """Read every user input whose strides fit the default dim order as well as its own as default,
    ask dim-order ops whose result is such a tensor for the default order, and derive every other
    tensor's layout again from there.
    Read as default, the same bytes run everywhere; results computed from them then come out in the default
    dim order too (eager would return a conv's result channels-last).
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
                contiguous = value.clone(memory_format=torch.contiguous_format)
                # torch's contiguous strides of a 0-size tensor, (3, 3, 1) for (1, 0, 3), can still differ from
                # the ones ambiguity is judged by: then there is nothing left to change (and no end to the loop).
                changed |= contiguous.stride() != value.stride()
                node.meta["val"] = contiguous
            elif aten_op(node) in DIM_ORDER_OPS and node.kwargs.get("dim_order") != list(range(value.dim())):
                node.update_kwarg("dim_order", list(range(value.dim())))
                changed = True
        if not changed:
            return
        placeholders = [node.meta["val"] for node in graph_module.graph.nodes if node.op == "placeholder"]
        fake_mode = detect_fake_mode(placeholders)
        assert fake_mode is not None, "an exported program's placeholders hold fake tensors"
        with fake_mode:
            FakeTensorProp(graph_module, fake_mode).propagate_dont_convert_inputs(*placeholders)
