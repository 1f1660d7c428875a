"""Drop the 0-size constants a delegate left unused, so that the program loads by path.

Why: the cache of a KV-cache decoder starts empty (``torch.tensor([])``, a ``(1, heads, 0, dim)``
buffer) and is concatenated onto. Once the OpenVINO delegate takes every op and every real weight, those
empty constants stay behind as placeholders nothing uses, and they are the program's only constants: its
constant segment is 0 bytes. Loaded from bytes that works; loaded by path, ExecuTorch's file loaders return
a null buffer for a 0-byte segment (``extension/data_loader/mmap_data_loader.cpp`` and
``file_data_loader.cpp``: ``if (size == 0) return FreeableBuffer(nullptr, 0, ...)``) and
``Program::get_constant_buffer_data`` (``runtime/executor/program.cpp``) takes a null segment for "no
segment", falls back to the deprecated in-flatbuffer constant buffer, which is compiled out: error ``0x23``
at ``load_method`` (measured with executorch 1.4.1 to 1.5.1; no delegate is needed for it: a program whose
only constants are empty fails the same way, with or without XNNPACK).

How: before the program is serialized, each method's placeholders for lifted constants, buffers and
parameters that have no users and hold no element are removed (graph, signature, and the program's
constants or state dict). Nothing reads them, so no value changes; a constant that is used, or that holds
data, is kept. The ``to_executorch`` hook (``workaround.partitioner.hooks.inline_blobs``) does it for the programs
whose OpenVINO delegates the workaround made.
"""

from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, InputSpec
from torch.fx import Node

DROPPABLE = (InputKind.CONSTANT_TENSOR, InputKind.BUFFER, InputKind.PARAMETER)


def unused_empty_constants(exported_program: ExportedProgram) -> list[tuple[InputSpec, Node]]:
    """The input specs of constants, buffers and parameters whose placeholder has no users and 0 elements."""
    placeholders = {node.name: node for node in exported_program.graph.nodes if node.op == "placeholder"}
    mutated = {spec.target for spec in exported_program.graph_signature.output_specs if spec.target}
    found: list[tuple[InputSpec, Node]] = []
    for spec in exported_program.graph_signature.input_specs:
        node = placeholders.get(spec.arg.name)
        value = node.meta.get("val") if node is not None else None
        if (spec.kind in DROPPABLE and node is not None and not node.users and spec.target not in mutated
                and value is not None and value.numel() == 0):
            found.append((spec, node))
    return found


def drop_unused_empty_constants(exported_program: ExportedProgram) -> list[str]:
    """Remove them from ``exported_program`` in place; returns the names of what was removed."""
    dropped = unused_empty_constants(exported_program)
    for spec, node in dropped:
        exported_program.graph_signature.input_specs.remove(spec)
        exported_program.constants.pop(spec.target, None)
        exported_program.state_dict.pop(spec.target, None)
        exported_program.graph.erase_node(node)
    if dropped:
        exported_program.graph_module.recompile()
    return [spec.target for spec, _ in dropped if spec.target]  # constants always have one
