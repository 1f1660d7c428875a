"""What a shipped program's OpenVINO delegates compute differently from PyTorch, as far as the program shows it.

The partitioner's guards (``workaround.partitioner.rules.openvino_hand_back``) work on the torch graph; a shipped
``.pte`` has only its boundary tensors' dtypes and, for each delegate, the compiled model's runtime graph: layer
types and precisions, no constants, no attributes (the model inside a CPU blob is encoded). So the checker sees:

- ``float64_computed_as_float32``: a float64 boundary tensor (the CPU plugin converts it to f32);
- ``int64_computed_in_32_bits``: an int64 boundary tensor, unless it is an input used only as the
  indices of a Gather (values bounded by the table, so they fit int32) or the workaround proved it within
  int32 (``workaround.contract.boundary_marks``);
- ``narrow_integer_arithmetic_saturates``: arithmetic (an Eltwise or fused Subgraph) producing uint8 /
  int8 from a uint8 / int8 input, which saturates where PyTorch wraps;
- ``division_through_float32``: integer division or remainder of an input, or any remainder of floats
  (the runtime graph keeps the ATen op each layer came from: wrong above 2**24, or for large quotients);
- ``trunc_division_through_int32``: an f32 value converted to i32 and back (trunc division: quotients
  beyond 2**31, inf and NaN come back -2**31).

From the model the blob carries (``workaround.checker.blob_model``: its IR, with attributes and the ops folded
into each layer), which reads without importing:

- ``constant_abs_dropped``: a constant an ``Abs`` was folded into (reflection padding's indices): OpenVINO
  from 2025.4.0 drops a rank-1 Abs of constants, so the padded values come back from the wrong places;
- ``avg_pool_ceil_window_divisor``: an AvgPool with ceil rounding, padding counted and padding given: the last
  window is divided by the whole kernel.

Not reported: NaN and infinities (every ReLU would be flagged). Re-export such models with the workaround.

Torch-free: it reads what ``workaround.checker.pte.reader`` and OpenVINO's runtime model give.
"""

from collections.abc import Callable, Iterable, Iterator

from workaround.checker import blob_model
from workaround.checker.pte.reader import Delegate
from workaround.checker.pte.verifier import MalformedProgram
from workaround.contract import differences
from workaround.contract.boundary_marks import read_int64_mark
from workaround.contract.finding_kinds import FindingKind
from workaround.contract.openvino_types import CompiledModel, OpenvinoNode

# (kind, the argument position it concerns or None, what the delegate does): one class the delegate shows.
SemanticsFinding = tuple[FindingKind, int | None, str]

# OpenVINO's names of the integer element types, by torch's name (the registry names dtypes as torch does).
INTEGER_ELEMENT_TYPES = {"int64": "i64", "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "u8",
                         "uint16": "u16", "uint32": "u32", "uint64": "u64"}
INTEGERS = set(INTEGER_ELEMENT_TYPES.values())
NARROW = {INTEGER_ELEMENT_TYPES[dtype]
          for dtype in differences.named("narrow_integer_arithmetic_saturates").dtypes}
COMPUTED_AS_FLOAT32 = differences.named("float64_computed_as_float32").dtypes
COMPUTED_IN_32_BITS = differences.named("int64_computed_in_32_bits").dtypes
ARITHMETIC_LAYERS = {"Eltwise", "Subgraph"}
# What each finding looks for in a blob's traces of ATen ops: the registry's (``differences.traced``).
WRAPPING = {op.split(".")[1] for op in differences.traced("narrow_integer_arithmetic_saturates")}  # any overload
REMAINDERS = differences.traced("remainder_through_float32")
DIVISIONS = differences.traced("division_through_float32")


def finding(kind: FindingKind, seen: str, position: int | None = None) -> SemanticsFinding:
    """Where the blob shows ``kind``, then what it computes differently in the registry's words."""
    return kind, position, f"{seen}: {differences.described(kind)}"


def layer(node: OpenvinoNode) -> str:
    return str(node.get_rt_info()["layerType"].astype(str))


def element_type(node: OpenvinoNode) -> str:
    return str(node.get_rt_info()["outputPrecisions"].astype(str).split(",")[0])


def sources(node: OpenvinoNode) -> list[OpenvinoNode]:
    return [value.get_node() for value in node.input_values()]


def consumers(node: OpenvinoNode) -> list[tuple[OpenvinoNode, int]]:
    """(consumer, its input port) of every use of the node's outputs."""
    return [(target.get_node(), target.get_index()) for output in node.outputs()
            for target in output.get_target_inputs()]


def only_gather_indices(node: OpenvinoNode) -> bool:
    """Whether every use of the node, through Converts, is as the indices (port 1) of a Gather."""
    uses = consumers(node)
    return bool(uses) and all(only_gather_indices(user) if layer(user) == "Convert" else
                              layer(user) == "Gather" and port == 1 for user, port in uses)


def reachable(node: OpenvinoNode, step: Callable[[OpenvinoNode], list[OpenvinoNode]]) -> Iterator[OpenvinoNode]:
    """The node and every node ``step`` (``sources`` upwards, ``users`` downwards) leads to from it, once each."""
    seen: set[str] = set()
    frontier = [node]
    while frontier:
        current = frontier.pop()
        if current.get_friendly_name() in seen:
            continue
        seen.add(current.get_friendly_name())
        yield current
        frontier += step(current)


def users(node: OpenvinoNode) -> list[OpenvinoNode]:
    return [user for user, _ in consumers(node)]


def reaches_integer_convert(node: OpenvinoNode) -> bool:
    """Whether the node's value, or one computed from it, is converted to an integer precision."""
    return any(layer(current) == "Convert" and element_type(current) in INTEGERS
               for current in reachable(node, users))


def proven_positions(compiled: CompiledModel) -> set[int]:
    """Argument positions the workaround marked as int64 proven within int32."""
    ports = [*compiled.inputs, *compiled.outputs]
    return {found for port in ports for name in port.get_names()
            if (found := read_int64_mark(name)) is not None}


def boundary_findings(delegate: Delegate, compiled: CompiledModel) -> list[SemanticsFinding]:
    parameters = compiled.get_runtime_model().get_parameters()
    proven = proven_positions(compiled)
    found: list[SemanticsFinding] = []
    for position, argument in enumerate(delegate.arguments):
        if argument is None:
            continue
        if argument.dtype in COMPUTED_AS_FLOAT32:
            found.append(finding(FindingKind.FLOAT64_COMPUTED_AS_FLOAT32,
                                 f"argument {position} is {argument.dtype}", position))
        index_only = position < len(parameters) and only_gather_indices(parameters[position])
        if argument.dtype in COMPUTED_IN_32_BITS and position not in proven and not index_only:
            found.append(finding(FindingKind.INT64_COMPUTED_IN_32_BITS, f"argument {position} is {argument.dtype}",
                                 position))
    return found


def aten_ops(names: Iterable[str]) -> set[str]:
    """The ATen ops among names the PyTorch frontend gives (``<fx node>/aten.remainder.Tensor/FloorMod``)."""
    return {parts[1] for parts in (name.split("/") for name in names)
            if len(parts) > 2 and parts[1].startswith("aten.")}


def original_ops(node: OpenvinoNode) -> set[str]:
    """The ATen ops a runtime node was compiled from: OpenVINO keeps the PyTorch frontend's names in
    ``originalLayersNames``."""
    return aten_ops(node.get_rt_info()["originalLayersNames"].astype(str).split(","))


def wrapping(node: OpenvinoNode) -> bool:
    """Whether the node was compiled from arithmetic that can leave its dtype (not max, min, where, ...)."""
    return any(op.split(".")[1] in WRAPPING for op in original_ops(node))


def divides_through_float32(node: OpenvinoNode) -> bool:
    """A remainder, or an integer division of an input (the division itself in integers, or ExecuTorch's
    decomposition of floor division: to float32, floor, back to an integer)."""
    ops = original_ops(node)
    if ops & REMAINDERS:
        return True
    if not ops & DIVISIONS:  # most nodes: no walk of the graph for them
        return False
    integer_inputs = any(layer(ancestor) == "Input" and element_type(ancestor) in INTEGERS
                         for ancestor in reachable(node, sources))
    return integer_inputs and (element_type(node) in INTEGERS or reaches_integer_convert(node))


def graph_findings(compiled: CompiledModel) -> list[SemanticsFinding]:
    found: list[SemanticsFinding] = []
    for node in compiled.get_runtime_model().get_ordered_ops():
        kind, inputs, name = layer(node), sources(node), node.get_friendly_name()
        if kind in ARITHMETIC_LAYERS and element_type(node) in NARROW and wrapping(node) and any(
                layer(source) == "Input" and element_type(source) in NARROW for source in inputs):
            found.append(finding(FindingKind.NARROW_INTEGER_ARITHMETIC_SATURATES,
                                 f"{name} computes {element_type(node)} arithmetic on an input"))
        if kind != "Const" and divides_through_float32(node):
            found.append(finding(FindingKind.DIVISION_THROUGH_FLOAT32,
                                 f"{name} divides or takes a remainder through float32"))
        if kind == "Convert" and element_type(node) == "f32" and any(
                layer(source) == "Convert" and element_type(source) == "i32"
                and element_type(sources(source)[0]) == "f32" for source in inputs):
            found.append(finding(FindingKind.TRUNC_DIVISION_THROUGH_INT32,
                                 f"{name} converts a float32 to int32 and back"))
    return found


def semantics_findings(delegate: Delegate, compiled: CompiledModel) -> list[SemanticsFinding]:
    """(kind, argument position or None, what) for each class the delegate shows (see the module docstring)."""
    return boundary_findings(delegate, compiled) + graph_findings(compiled)


def pads(layer: blob_model.Layer) -> list[int]:
    """An AvgPool's padding; MalformedProgram where it is not numbers (a corrupted blob)."""
    found = []
    for key in ("pads_begin", "pads_end"):
        for pad in filter(str.strip, layer.data.get(key, "").split(",")):
            try:
                found.append(int(pad))
            except ValueError:
                raise MalformedProgram(f"layer {layer.name!r} of the model IR has {key}={layer.data[key]!r}, "
                                       "not numbers") from None
    return found


def divides_the_ceil_window_by_the_kernel(layer: blob_model.Layer) -> bool:
    """An AvgPool whose ceil window counts padding it was given: OpenVINO divides that window by the whole
    kernel (PyTorch by the part inside the padded input)."""
    return (layer.type == "AvgPool" and layer.data.get("rounding_type", "").startswith("ceil")
            and layer.data.get("exclude-pad") == "false" and any(pads(layer)))


DYNAMIC_QUANTIZATION = "DYNAMIC_QUANTIZATION_GROUP_SIZE"
COMPRESSED_MATMUL = "FullyConnectedCompressed"  # the CPU plugin's matmul on a compressed (u8/u4/i4) weight


def exported_model_findings(blob: bytes, importer_quantizes: bool = True) -> list[SemanticsFinding]:
    """(kind, None, what) for the classes only the blob's own model shows; none where the blob carries no IR
    this reads, MalformedProgram where its IR is corrupted. ``importer_quantizes``: whether the CPU that is to
    import it quantizes a compressed matmul's activations by default (AVX-512 VNNI and AMX do, AVX2 does not)."""
    found: list[SemanticsFinding] = []
    compressed: list[str] = []
    options: dict[str, str] = {}
    for item in blob_model.ir(blob):
        if isinstance(item, blob_model.RuntimeOption):
            options[item.name] = item.value
            continue
        layer = item
        if layer.type == COMPRESSED_MATMUL:
            compressed.append(layer.name)
        if layer.type == "Const" and any(op.startswith("aten.abs.") for op in aten_ops(layer.fused_names)):
            found.append(finding(FindingKind.CONSTANT_ABS_DROPPED,
                                 f"{layer.name} is a constant computed through an Abs"))
        if divides_the_ceil_window_by_the_kernel(layer):
            found.append(finding(FindingKind.AVG_POOL_CEIL_WINDOW_DIVISOR,
                                 f"{layer.name} averages with ceil_mode, counting the padding it was given"))
    if compressed and importer_quantizes and options.get(DYNAMIC_QUANTIZATION) != "0":
        found.append(finding(FindingKind.ACTIVATIONS_QUANTIZED,
                             f"{len(compressed)} matmul(s) read compressed weights ({compressed[0]}, ...) and the "
                             f"blob does not pin {DYNAMIC_QUANTIZATION} to 0 (the workaround's partitioner does)"))
    return found
