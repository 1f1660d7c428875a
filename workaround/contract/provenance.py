"""Which partitions the workaround made: a mark on every node its partition hands to OpenVINO.

The workaround's two delegate-level fixes act outside the partitioner (``OpenvinoBackend.preprocess``
and ``to_executorch``), through hooks that live for the process. The mark makes them act only on
partitions the copy-safe rule produced (the node meta travels into each partition's program and
into the lowered module), so a stock OpenvinoPartitioner in the same process still gets exactly
the stock behaviour, whatever was lowered before it.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: the checker imports this module without torch
    import torch
    from torch.export import ExportedProgram

MARK = "copy_safe_openvino"
# The backend id ExecuTorch records for an OpenVINO delegate (its backend class's name), in lowered
# modules and in the .pte alike.
OPENVINO_BACKEND = "OpenvinoBackend"


def mark_partitioned_nodes(exported_program: "ExportedProgram", tag_key: str) -> None:
    """Mark every node tagged for a partition."""
    for node in exported_program.graph_module.graph.nodes:
        if tag_key in node.meta:
            node.meta[MARK] = True


def made_by_workaround(graph: "torch.fx.Graph") -> bool:
    return any(node.meta.get(MARK) for node in graph.nodes)
