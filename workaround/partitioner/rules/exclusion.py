"""Hand back to ExecuTorch what an OpenVINO partition must not contain at its boundary.

Use this on an ExportedProgram that a partitioner has already tagged
(``node.meta["delegation_tag"]``); ``CopySafeOpenvinoPartitioner`` does it for you.

Three rules, applied until none finds anything:

- **Copies of a partition input.** A pass-through copy (``workaround.partitioner.rules.copy_ops``) whose result
  leaves its partition and whose value is a partition input (directly or through other copies)
  compiles to a Result fed by a Parameter, which the CPU plugin never writes. Such a copy is
  handed back; ExecuTorch's own kernel makes it, and the partition returns nothing or a real
  value. A copy of a value *computed* in the partition is correct and stays, unless that value
  also leaves the partition another way (directly, or through a second copy): OpenVINO's
  PyTorch frontend cannot convert two outputs of one tensor ("Tensor name is not a number"),
  so then every such copy goes. Copies used only inside their partition stay: OpenVINO drops them.
- **What OpenVINO computes differently from PyTorch** (``workaround.partitioner.rules.openvino_hand_back``):
  float64, int64 beyond int32, uint8 / int8 wrap-around, integer and trunc division, remainders, integers through
  float32, float16 rounding, some average pools; each such node is handed back, with its reason in ``node.meta``.
- **What the delegate cannot run** (``workaround.partitioner.rules.delegate_limits``): a node whose result would
  leave its partition as a 0-d, 0-size or dynamic-shaped tensor, or that reads a 0-d or 0-size
  tensor from outside it, is handed back, so ExecuTorch's kernels run it.

A node is handed back only to a runtime that computes it as PyTorch does: where the deployment runtime has no
kernel for it (``workaround.partitioner.rules.runtime_kernels``) the program would fail to load (``0x14``), and
where its kernel computes otherwise (``workaround.partitioner.rules.portable_hand_back``) it would be wrong again;
either way lowering is refused (``CannotHandBackError``), in one line naming the op, why it cannot stay in
OpenVINO, and what to do.

Why membership is recomputed rather than just untagged: a node taken out of the middle of a
partition can make the partition depend on itself through it (ExecuTorch rejects such a cycle
at lowering). When that happens the partitions are proposed again by torch.fx's
CapabilityBasedPartitioner over the nodes the stock partitioner chose, minus those handed back.
The handed-back set only grows, so this ends.
"""

from collections.abc import Collection
from typing import Any, NoReturn

import torch
from torch.export import ExportedProgram
from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from workaround.contract.delegate_specs import SpecialValues
from workaround.partitioner.graph.fx_arguments import tensor_argument
from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.layouts.dim_order_off import refuse_non_default_boundaries
from workaround.partitioner.rules.copy_ops import is_layout_changing_aten_clone, is_pass_through_copy
from workaround.partitioner.rules.delegate_limits import input_limit, output_limit
from workaround.partitioner.rules.openvino_hand_back import semantics_to_hand_back, special_values_differ
from workaround.partitioner.rules.portable_hand_back import kernel_differs
from workaround.partitioner.rules.runtime_kernels import ExecutorchRuntime
from workaround.partitioner.rules.value_ranges import ValueRanges

TAG = "delegation_tag"
# Where a node handed back because OpenVINO computes it differently says why (node.meta).
HANDED_BACK_BECAUSE = "openvino_computes_differently"


class UnsafeCopyError(ValueError):
    """A copy leaves its partition but ExecuTorch could not make it either."""


class CannotHandBackError(ValueError):
    """A node cannot stay in OpenVINO, and the ExecuTorch runtime the program targets cannot run it as PyTorch does
    (no kernel: the program would not load; or a kernel that computes otherwise)."""


def partition_of(node: torch.fx.Node) -> str | None:
    return node.meta.get(TAG) if node.op == "call_function" else None


def leaves_partition(node: torch.fx.Node, tag: str) -> bool:
    return any(partition_of(user) != tag for user in node.users)


def copy_source(node: torch.fx.Node, tag: str) -> torch.fx.Node:
    """The value a chain of copies inside partition ``tag`` passes on."""
    while is_pass_through_copy(node) and partition_of(node) == tag:
        node = tensor_argument(node, 0)
    return node


def copies_to_hand_back(graph: torch.fx.Graph) -> set[torch.fx.Node]:
    """Tagged pass-through copies that leave their partition and must not (see the module docstring).

    A chain such as ``x.clone().clone()`` goes one copy per round: once the outer copy is handed
    back, the inner one leaves the partition and is found in the next round.
    """
    # (source, tag) -> the copies of it that leave partition tag
    ways_out: dict[tuple[torch.fx.Node, str], list[torch.fx.Node]] = {}
    for node in graph.nodes:
        tag = partition_of(node)
        if tag is not None and is_pass_through_copy(node) and leaves_partition(node, tag):
            ways_out.setdefault((copy_source(node, tag), tag), []).append(node)
    unsafe: set[torch.fx.Node] = set()
    for (source, tag), copies in ways_out.items():
        computed_inside = source.op == "call_function" and partition_of(source) == tag
        only_way_out = len(copies) == 1 and not leaves_partition(source, tag)
        if not (computed_inside and only_way_out):
            unsafe.update(copies)
        unsafe.update(copy for copy in copies if is_layout_changing_aten_clone(copy))
    return unsafe


def reads_from_outside(node: torch.fx.Node, tag: str, runtime_inputs: Collection[str]) -> list[torch.fx.Node]:
    """The values ``node`` reads that come from outside partition ``tag`` at run time."""
    return [arg for arg in node.all_input_nodes
            if (arg.op == "placeholder" and arg.name in runtime_inputs)
            or (arg.op == "call_function" and partition_of(arg) != tag)]


def beyond_the_delegate(graph: torch.fx.Graph, runtime_inputs: Collection[str]) -> set[torch.fx.Node]:
    """Tagged nodes at a partition boundary the delegate cannot run
    (``workaround.partitioner.rules.delegate_limits``)."""
    found: set[torch.fx.Node] = set()
    for node in graph.nodes:
        tag = partition_of(node)
        if tag is not None and ((leaves_partition(node, tag) and output_limit(node))
                                or any(map(input_limit, reads_from_outside(node, tag, runtime_inputs)))):
            found.add(node)
    return found


def nodes_to_hand_back(graph: torch.fx.Graph, runtime_inputs: Collection[str] = frozenset(),
                       computed_differently: Collection[torch.fx.Node] = frozenset()) -> set[torch.fx.Node]:
    """What the rules find among the nodes still tagged; ``computed_differently`` is found once, up front
    (``workaround.partitioner.rules.openvino_hand_back``: it depends on the ops and values, not on where the
    boundaries fall)."""
    still_tagged = {node for node in computed_differently if partition_of(node) is not None}
    return copies_to_hand_back(graph) | beyond_the_delegate(graph, runtime_inputs) | still_tagged


def depends_on_itself(graph: torch.fx.Graph, tag: str | None) -> bool:
    """Whether a path leaves partition ``tag`` and comes back into it (a cycle after fusion)."""
    members = {node for node in graph.nodes if partition_of(node) == tag}
    frontier = [user for node in members for user in node.users if user not in members]
    seen = set(frontier)
    while frontier:
        node = frontier.pop()
        for user in node.users:
            if user in members:
                return True
            if user not in seen:
                seen.add(user)
                frontier.append(user)
    return False


class ChosenNodes(OperatorSupportBase):
    """Supports exactly the nodes given: the stock partitioner's choice minus what was excluded."""

    def __init__(self, nodes: Collection[torch.fx.Node]) -> None:
        self.nodes = nodes

    def is_node_supported(self, submodules: object, node: torch.fx.Node) -> bool:
        return node in self.nodes


def repartition(graph_module: torch.fx.GraphModule, chosen: Collection[torch.fx.Node]) -> None:
    for node in graph_module.graph.nodes:
        node.meta.pop(TAG, None)
    partitioner = CapabilityBasedPartitioner(graph_module, ChosenNodes(chosen), allows_single_node_partition=True)
    for partition in partitioner.propose_partitions():
        for node in partition.nodes:
            node.meta[TAG] = f"tag{partition.id}"


def refuse_layout_changing_copy(node: torch.fx.Node) -> NoReturn:
    raise UnsafeCopyError(
        f"node '{node.name}' ({aten_op(node)}, memory_format={node.kwargs.get('memory_format')}) copies a "
        "tensor into another memory format and its result leaves the OpenVINO partition. OpenVINO would "
        "return stale memory for it, and with dim order off ExecuTorch cannot hold the result either. "
        "Keep dim order on (the default: do not pass EdgeCompileConfig(_skip_dim_order=True)).")


def why_handed_back(node: torch.fx.Node) -> str:
    if reason := node.meta.get(HANDED_BACK_BECAUSE):
        return str(reason)
    if is_pass_through_copy(node):
        return "OpenVINO returns stale memory for a copy that leaves its partition"
    return "ExecuTorch's OpenVINO delegate cannot pass its tensors across a partition boundary"


def what_to_do(node: torch.fx.Node, special_values: SpecialValues) -> str:
    if special_values == SpecialValues.TORCH and special_values_differ(node):
        return ("use a runtime whose kernel computes it (CopySafeOpenvinoPartitioner(..., runtime_operators=...) "
                "names its operators), or special_values=\"openvino\" to keep OpenVINO's NaN and infinities")
    return ("use a runtime whose kernel computes it (CopySafeOpenvinoPartitioner(..., runtime_operators=...) "
            "names its operators), or change the model so the op gets other dtypes or values")


def refuse_what_executorch_cannot_run(handed_back: Collection[torch.fx.Node], runtime: ExecutorchRuntime,
                                      ranges: ValueRanges, special_values: SpecialValues) -> None:
    """Refuse, in one line, the first handed-back node the runtime has no kernel for, or a kernel that computes
    it otherwise than PyTorch."""
    for node in handed_back:
        if missing := runtime.lacks(node):
            problem = f"the ExecuTorch runtime has no kernel {missing} for it (the program would not load, 0x14)"
        elif differs := kernel_differs(node, ranges, special_values):
            problem = differs
        else:
            continue
        raise CannotHandBackError(f"node '{node.name}' ({aten_op(node)}) cannot stay in OpenVINO "
                                  f"({why_handed_back(node)}), and {problem}: {what_to_do(node, special_values)}")


def hand_back_unsafe_nodes(exported_program: ExportedProgram, partition_tags: dict[str, Any],
                           special_values: SpecialValues = SpecialValues.OPENVINO,
                           runtime: ExecutorchRuntime | None = None) -> dict[str, Any]:
    """Untag every node the rules find (see the module docstring), keeping partitions valid; with dim
    order off, refuse (``DimOrderError``) any tensor crossing a boundary in a non-default dim order (see
    ``workaround.partitioner.layouts.dim_order_off``); refuse (``CannotHandBackError``) a node handed back to a
    runtime without its kernel (``runtime``: the installed one by default). ``special_values``: see
    ``workaround.contract.delegate_specs.SpecialValues``.

    Returns the partition tags still in use (emptied partitions are dropped), each mapped to
    the delegation spec of the tag it came from. Constant data is re-tagged to follow its users.
    """
    from executorch.exir.backend.utils import tag_constant_data

    graph_module = exported_program.graph_module
    graph = graph_module.graph
    runtime_inputs = set(exported_program.graph_signature.user_inputs)
    spec = next(iter(partition_tags.values()), None)
    chosen = {node for node in graph.nodes if partition_of(node) is not None}
    ranges = ValueRanges(exported_program)
    differing = semantics_to_hand_back(graph, ranges, partition_of, special_values)
    for node, why in differing.items():
        node.meta[HANDED_BACK_BECAUSE] = why
    while handed_back := nodes_to_hand_back(graph, runtime_inputs, set(differing)):
        for node in handed_back:
            if is_layout_changing_aten_clone(node):
                refuse_layout_changing_copy(node)
            node.meta.pop(TAG)
        refuse_what_executorch_cannot_run(handed_back, runtime or ExecutorchRuntime(), ranges, special_values)
        chosen -= handed_back
        if any(depends_on_itself(graph, tag) for tag in {partition_of(node) for node in chosen}):
            repartition(graph_module, chosen)
    refuse_non_default_boundaries(graph, partition_of)
    for node in graph.nodes:
        if node.op != "call_function":
            node.meta.pop(TAG, None)
    tag_constant_data(exported_program)
    still_used = {tag for node in chosen if (tag := partition_of(node)) is not None}
    return {tag: partition_tags.get(tag, spec) for tag in sorted(still_used)}
