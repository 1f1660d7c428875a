"""Attention with grouped KV heads computed per group, reading each cache where it is.

Why: a model with fewer KV heads than query heads (Llama-3.2-1B: 32 and 8) repeats each cached key and value
``n`` times (``repeat_interleave``) before attention. Decomposed, attention multiplies the queries by the keys
transposed, and OpenVINO's CPU plugin materializes both the repeat and the transpose on every call: over a
2048-token cache, 3.1 ms a layer for what takes 0.23 ms computed per group (docs/measurements.md, "LLMs at real
width"); a 4-bit decode step of Llama-3.2-1B's shapes took twice as long at a 2048-token context as at 32.

How: the partitioner keeps PyTorch's CPU attention op (``_scaled_dot_product_flash_attention_for_cpu``)
undecomposed for OpenVINO (``copy_safe_partitioner.FUSED_WHEN_KEPT``), where a node that may be handed back is
decomposed as before. The workaround's preprocess rewrites each such node, before OpenVINO converts it, into the
same arithmetic on the unrepeated caches: each group's keys ``[B*Hkv, S, D]`` times its queries transposed
``[B*Hkv, D, n*L]``, that small product transposed, scaled, masked, a softmax over the keys, times its values. No
cached value is repeated or transposed. The results are PyTorch's attention up to float32 rounding (1e-6 relative
on the LLM tier; PyTorch's own CPU kernel rounds otherwise than its math too). A node this does not recognize
(a causal flag, dropout, a boolean mask, a mask per head, its log-sum-exp read) is left as it is: OpenVINO's
frontend converts it whole.
"""

import contextlib
import math
from collections.abc import Callable, Sequence
from typing import Any

import torch
from executorch.exir.dialects._ops import ops as exir_ops
from torch.export import ExportedProgram

from workaround.partitioner.graph.fx_arguments import int_argument, tensor_argument
from workaround.partitioner.graph.nodes import aten_op

ATTENTION = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default
edge = exir_ops.edge.aten
# What may sit between repeat_interleave's expand and view (a copy in the default dim order, or with it off).
CLONES = frozenset({torch.ops.dim_order_ops._clone_dim_order.default, torch.ops.aten.clone.default})


def repeated_heads(node: torch.fx.Node) -> tuple[torch.fx.Node, int]:
    """(the tensor ``node`` repeats along its heads, how many times) when ``node`` is ``repeat_interleave``'s
    decomposition on dim 1: ``view(clone(expand(unsqueeze(x, 2), [B, H, n, S, D])), [B, H*n, S, D])``, the clone
    optional; (``node``, 1) otherwise."""
    if aten_op(node) is not torch.ops.aten.view_copy.default:
        return node, 1
    expand = tensor_argument(node, 0)
    if aten_op(expand) in CLONES:
        expand = tensor_argument(expand, 0)
    unsqueeze = tensor_argument(expand, 0) if aten_op(expand) is torch.ops.aten.expand_copy.default else None
    if unsqueeze is None or aten_op(unsqueeze) is not torch.ops.aten.unsqueeze_copy.default \
            or int_argument(unsqueeze, 1) != 2:
        return node, 1
    source = tensor_argument(unsqueeze, 0)
    batch, heads, *rest = source.meta["val"].shape
    times = expand.meta["val"].shape[2]
    return (source, times) if list(node.meta["val"].shape) == [batch, heads * times, *rest] else (node, 1)


def computes_in_float(node: torch.fx.Node) -> bool:
    """Whether an attention node as the partitioner is asked about it (``aten.scaled_dot_product_attention``,
    before ExecuTorch's decompositions) computes in float32 or float16: its query, key and value are, and its mask,
    if any, is too or boolean (Llama's is: decomposed to the CPU op, a boolean mask becomes a float one first)."""
    values = [argument.meta.get("val") for argument in node.all_input_nodes]
    tensors = [value for value in values if isinstance(value, torch.Tensor)]
    floats = (torch.float32, torch.float16)
    return len(tensors) == len(values) and all(value.dtype in (*floats, torch.bool) for value in tensors) \
        and all(value.dtype in floats for value in tensors[:3])


def mask_computed_from_parameters(node: torch.fx.Node, exported_program: ExportedProgram) -> bool:
    """Whether the attention's mask is a parameter or computed from one (T5's relative position bias). Kept whole,
    such an attention fails inside ``to_edge_transform_and_lower``: ExecuTorch's passes run PyTorch's CPU op with
    grad enabled, and it refuses a mask that requires grad ("not differentiable with respect to argument
    'attn_mask'"); its query, key and value may (a Llama's are computed from its weights). The fake values' own
    ``requires_grad`` does not tell: measured False for T5's mask."""
    # scaled_dot_product_attention takes the mask fourth; the CPU op, by keyword only
    mask = node.kwargs.get("attn_mask", node.args[3] if len(node.args) > 3 else None)
    if not isinstance(mask, torch.fx.Node):
        return False
    parameters = set(exported_program.graph_signature.inputs_to_parameters)
    seen, pending = set(), [mask]
    while pending:
        current = pending.pop()
        if current.name in parameters:
            return True
        if current not in seen:
            seen.add(current)
            pending.extend(current.all_input_nodes)
    return False


def argument(node: torch.fx.Node, name: str) -> Any:
    """The attention's argument ``name``, passed by position or keyword, or its schema's default."""
    schema = ATTENTION._schema.arguments
    position = next(index for index, argument in enumerate(schema) if argument.name == name)
    if position < len(node.args):
        return node.args[position]
    return node.kwargs.get(name, schema[position].default_value)


def rewritable(node: torch.fx.Node) -> bool:
    """Whether ``node`` is an attention this module rewrites: no dropout, not causal, 4-d and static, a float mask
    (or none) shared by every head, only its output read (not its log-sum-exp)."""
    if argument(node, "dropout_p") or argument(node, "is_causal") or any(user.args[1] != 0 for user in node.users):
        return False
    shapes = [argument(node, name).meta["val"].shape for name in ("query", "key", "value")]
    if any(len(shape) != 4 or not all(isinstance(size, int) for size in shape) for shape in shapes):
        return False
    mask = argument(node, "attn_mask")
    if mask is None:
        return True
    shape = mask.meta["val"].shape
    return mask.meta["val"].is_floating_point() and len(shape) <= 4 and (len(shape) <= 2 or shape[-3] == 1)


def rewrite(graph_module: torch.fx.GraphModule) -> int:
    """Rewrites every recognized attention in place; returns how many."""
    rewritten = 0
    for node in list(graph_module.graph.nodes):
        if node.op == "call_function" and aten_op(node) is ATTENTION and rewritable(node):
            _rewrite_one(graph_module.graph, node)
            rewritten += 1
    if rewritten:
        graph_module.graph.eliminate_dead_code()
        graph_module.recompile()
    return rewritten


def _rewrite_one(graph: torch.fx.Graph, node: torch.fx.Node) -> None:
    query, key, value = (argument(node, name) for name in ("query", "key", "value"))
    keys, key_times = repeated_heads(key)
    values, value_times = repeated_heads(value)
    if key_times != value_times:
        keys, values = key, value
    batch, query_heads, length, depth = query.meta["val"].shape
    kv_heads, stored = keys.meta["val"].shape[1], keys.meta["val"].shape[2]
    times = query_heads // kv_heads  # the repeat undone, or fewer KV heads than queries as is (enable_gqa=True)
    scale = argument(node, "scale") or 1.0 / math.sqrt(depth)
    mask = argument(node, "attn_mask")
    fake_mode = torch._guards.detect_fake_mode([query.meta["val"]]) or contextlib.nullcontext()

    def add(op: Callable[..., Any], *args: Any) -> torch.fx.Node:
        made = graph.call_function(op, args)
        values_of = [arg.meta["val"] if isinstance(arg, torch.fx.Node) else arg for arg in args]
        with fake_mode:
            made.meta["val"] = op(*values_of)
        return made

    groups = batch * kv_heads
    with graph.inserting_before(node):
        # the keys times the queries transposed, then the small product transposed: the keys are read as they lie
        transposed_queries = add(edge.permute_copy.default,
                                 add(edge.view_copy.default, query, [groups, times * length, depth]), [0, 2, 1])
        grouped_keys = add(edge.view_copy.default, keys, [groups, stored, depth])
        transposed_scores = add(edge.bmm.default, grouped_keys, transposed_queries)
        scores = add(edge.mul.Scalar, add(edge.permute_copy.default, transposed_scores, [0, 2, 1]), scale)
        if mask is not None:
            by_head = add(edge.view_copy.default, scores, [batch, kv_heads, times, length, stored])
            scores = add(edge.view_copy.default, add(edge.add.Tensor, by_head, _per_group(add, mask)),
                         [groups, times * length, stored])
        weights = add(edge._softmax.default, scores, -1, False)
        grouped_values = add(edge.view_copy.default, values, [groups, stored, depth])
        output = add(edge.view_copy.default, add(edge.bmm.default, weights, grouped_values),
                     [batch, query_heads, length, depth])
    for user in list(node.users):
        user.replace_all_uses_with(output)
        graph.erase_node(user)
    graph.erase_node(node)  # by hand: an op that may drop out counts as impure, which dead-code elimination keeps


def _per_group(add: Callable[..., torch.fx.Node], mask: torch.fx.Node) -> torch.fx.Node:
    """The mask shaped to broadcast over ``[B, Hkv, n, L, S]``: a mask of rank 3 or 4 has a head axis of 1
    (``rewritable``), which one more axis of 1 keeps aligned."""
    shape: Sequence[int] = mask.meta["val"].shape
    if len(shape) <= 2:
        return mask
    return add(edge.unsqueeze_copy.default, mask, len(shape) - 2)
