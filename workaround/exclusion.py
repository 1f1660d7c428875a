"""Keep pass-through copies whose result leaves an OpenVINO partition out of it.

Use this on an ExportedProgram that a partitioner has already tagged
(``node.meta["delegation_tag"]``); ``CopySafeOpenvinoPartitioner`` does it for you.

Why the rule is safe: a copy taken out of a partition is made by ExecuTorch's own
CPU kernel, which writes its output; the partition then returns the copy's *input*
(a real computed value, or nothing when the input is a graph input), so no
delegate output is fed straight by a delegate input. A copy used only inside its
partition stays: OpenVINO drops it, which is harmless when nothing outside reads
its result, and keeping it avoids handing OpenVINO extra boundary tensors.

Why membership is recomputed rather than just untagged: a copy whose input is
computed in a partition and whose result is used both in that partition and
outside would, once untagged, make the partition depend on itself through the
copy (ExecuTorch rejects such a cycle at lowering). When that happens the
partitions are proposed again by torch.fx's CapabilityBasedPartitioner over the
nodes the stock partitioner chose, minus the excluded copies, until no copy
leaves its partition. The excluded set only grows, so this ends.
"""

from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
from torch.fx.passes.operator_support import OperatorSupportBase

from workaround.copy_ops import aten_op, is_layout_changing_aten_clone, is_pass_through_copy
from workaround.dim_order import refuse_non_default_boundaries

TAG = "delegation_tag"


class UnsafeCopyError(ValueError):
    """A copy leaves its partition but ExecuTorch could not make it either."""


def partition_of(node):
    return node.meta.get(TAG) if node.op == "call_function" else None


def copies_leaving_partition(graph):
    """Tagged pass-through copies whose result is used outside their own partition.

    One pass in reverse order: a copy feeding an excluded copy leaves too, so a chain
    such as ``x.clone().clone()`` leaves whole.
    """
    leaving = set()
    for node in reversed(graph.nodes):
        tag = partition_of(node)
        if tag is None or not is_pass_through_copy(node):
            continue
        if any(user in leaving or partition_of(user) != tag for user in node.users):
            leaving.add(node)
    return leaving


def depends_on_itself(graph, tag):
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

    def __init__(self, nodes):
        self.nodes = nodes

    def is_node_supported(self, submodules, node):
        return node in self.nodes


def repartition(graph_module, chosen):
    for node in graph_module.graph.nodes:
        node.meta.pop(TAG, None)
    partitioner = CapabilityBasedPartitioner(graph_module, ChosenNodes(chosen), allows_single_node_partition=True)
    for partition in partitioner.propose_partitions():
        for node in partition.nodes:
            node.meta[TAG] = f"tag{partition.id}"


def refuse_layout_changing_copy(node):
    raise UnsafeCopyError(
        f"node '{node.name}' ({aten_op(node)}, memory_format={node.kwargs.get('memory_format')}) copies a "
        "tensor into another memory format and its result leaves the OpenVINO partition. OpenVINO would "
        "return stale memory for it, and with dim order off ExecuTorch cannot hold the result either. "
        "Keep dim order on (the default: do not pass EdgeCompileConfig(_skip_dim_order=True)).")


def exclude_escaping_copies(exported_program, partition_tags):
    """Untag every pass-through copy whose result leaves its partition, keeping partitions valid;
    with dim order off, refuse (``DimOrderError``) any tensor crossing a boundary in a non-default
    dim order (see ``workaround.dim_order``).

    Returns the partition tags still in use (emptied partitions are dropped), each mapped to
    the delegation spec of the tag it came from. Constant data is re-tagged to follow its users.
    """
    from executorch.exir.backend.utils import tag_constant_data

    graph_module = exported_program.graph_module
    graph = graph_module.graph
    spec = next(iter(partition_tags.values()), None)
    chosen = {node for node in graph.nodes if partition_of(node) is not None}
    leaving = copies_leaving_partition(graph)
    while leaving:
        for node in leaving:
            if is_layout_changing_aten_clone(node):
                refuse_layout_changing_copy(node)
            node.meta.pop(TAG)
        chosen -= leaving
        tags = {partition_of(node) for node in chosen}
        if any(depends_on_itself(graph, tag) for tag in tags):
            repartition(graph_module, chosen)
        leaving = copies_leaving_partition(graph)
    refuse_non_default_boundaries(graph, partition_of)
    for node in graph.nodes:
        if node.op != "call_function":
            node.meta.pop(TAG, None)
    tag_constant_data(exported_program)
    return {tag: partition_tags.get(tag, spec) for tag in sorted({partition_of(n) for n in chosen} - {None})}
