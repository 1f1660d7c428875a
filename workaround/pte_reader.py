"""Read what the checker needs from a .pte with the ``flatbuffers`` package alone: no torch, no executorch.

A check of a shipped program should not need the export stack (importing it costs seconds and pulls
in torch). ExecuTorch's ``schema/program.fbs`` fixes where each field lives; only the fields the
checker reads are named here, by their position in that schema. Segments (where ExecuTorch puts
delegate blobs by default) are located through the extended header that follows the file identifier.
"""

from dataclasses import dataclass
from typing import Any

from flatbuffers import number_types
from flatbuffers.table import Table

# Field positions in program.fbs (ExecuTorch 1.5.1). A union field takes two: its type, then its value.
PROGRAM_EXECUTION_PLAN, PROGRAM_DELEGATE_DATA, PROGRAM_SEGMENTS, PROGRAM_CONSTANT_SEGMENT = 1, 3, 4, 5
SUBSEGMENT_INDEX, SUBSEGMENT_OFFSETS = 0, 1
PLAN_VALUES, PLAN_CHAINS, PLAN_DELEGATES = 2, 5, 7
EVALUE_TYPE, EVALUE_VALUE, KERNEL_TYPE_TENSOR = 0, 1, 5
TENSOR_SCALAR_TYPE, TENSOR_SIZES, TENSOR_DIM_ORDER, TENSOR_DATA_BUFFER, TENSOR_ALLOCATION = 0, 2, 3, 5, 6
TENSOR_SHAPE_DYNAMISM = 8
# ExecuTorch's ScalarType (scalar_type.fbs) by the names torch gives the dtypes.
SCALAR_TYPES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16", 6: "float32",
                7: "float64", 11: "bool", 15: "bfloat16", 27: "uint16", 28: "uint32", 29: "uint64"}
CHAIN_INSTRUCTIONS = 2
INSTRUCTION_TYPE, INSTRUCTION_VALUE, INSTRUCTION_DELEGATE_CALL = 0, 1, 2
DELEGATE_CALL_INDEX, DELEGATE_CALL_ARGS = 0, 1
DELEGATE_ID, DELEGATE_PROCESSED, DELEGATE_COMPILE_SPECS = 0, 1, 2
COMPILE_SPEC_KEY, COMPILE_SPEC_VALUE = 0, 1
REFERENCE_LOCATION, REFERENCE_INDEX, LOCATION_SEGMENT = 0, 1, 1
INLINE_DATA = 0
SEGMENT_OFFSET, SEGMENT_SIZE = 0, 1
EXTENDED_HEADER_MAGIC = b"eh00"
# flatbuffers ships no type information: its number_types flags are these, for the reader.
NumberFlags = Any


class _Node:
    """One flatbuffer table, read field by field."""

    def __init__(self, buffer: bytes, position: int) -> None:
        self.table = Table(buffer, position)

    def _at(self, field: int) -> int:
        return int(self.table.Offset(4 + 2 * field))

    def _vector(self, offset: int, width: int) -> tuple[int, int]:
        """(start, count) of a vector field, refusing one that runs past the end of the file."""
        start, count = int(self.table.Vector(offset)), int(self.table.VectorLen(offset))
        if start + count * width > len(self.table.Bytes):
            raise ValueError(f"a vector of {count} items at byte {start} runs past the end of the file")
        return start, count

    def scalar(self, field: int, flags: NumberFlags, default: int = 0) -> int:
        offset = self._at(field)
        return int(self.table.Get(flags, self.table.Pos + offset)) if offset else default

    def child(self, field: int) -> "_Node | None":
        offset = self._at(field)
        return _Node(self.table.Bytes, self.table.Indirect(self.table.Pos + offset)) if offset else None

    def children(self, field: int) -> list["_Node"]:
        offset = self._at(field)
        if not offset:
            return []
        start, count = self._vector(offset, 4)
        return [_Node(self.table.Bytes, self.table.Indirect(start + 4 * i)) for i in range(count)]

    def numbers(self, field: int, flags: NumberFlags) -> list[int]:
        offset = self._at(field)
        if not offset:
            return []
        start, count = self._vector(offset, flags.bytewidth)
        return [int(self.table.Get(flags, start + flags.bytewidth * i)) for i in range(count)]

    def raw(self, field: int) -> bytes:
        start, count = self._vector(self._at(field), 1)
        return bytes(self.table.Bytes[start:start + count])

    def text(self, field: int) -> str:
        offset = self._at(field)
        return str(self.table.String(self.table.Pos + offset).decode()) if offset else ""

    def union(self, type_field: int, value_field: int) -> tuple[int, "_Node | None"]:
        """(type tag, value table) of a union field."""
        tag = self.scalar(type_field, number_types.Uint8Flags)
        offset = self._at(value_field)
        if not offset:
            return tag, None
        value = _Node(self.table.Bytes, 0)
        self.table.Union(value.table, offset)  # Union adds the table's position itself
        return tag, value


@dataclass(frozen=True)
class TensorValue:
    sizes: list[int]
    dim_order: list[int]
    dynamic: bool
    dtype: str  # torch's name for its scalar type ("float32", "int64", ...; "scalar type N" if unnamed)


@dataclass(frozen=True)
class Delegate:
    backend: str
    blob: bytes
    in_segment: bool
    # a TensorValue (or None for any other value) per argument of its call: inputs, then outputs
    arguments: list[TensorValue | None]
    # {key: value bytes} the delegate was lowered with (the runtime receives them at init)
    compile_specs: dict[str, bytes]


def _tensor(evalue: _Node) -> TensorValue | None:
    tag, tensor = evalue.union(EVALUE_TYPE, EVALUE_VALUE)
    if tag != KERNEL_TYPE_TENSOR or tensor is None:
        return None
    scalar_type = tensor.scalar(TENSOR_SCALAR_TYPE, number_types.Int8Flags)
    return TensorValue(tensor.numbers(TENSOR_SIZES, number_types.Int32Flags),
                       tensor.numbers(TENSOR_DIM_ORDER, number_types.Uint8Flags),
                       tensor.scalar(TENSOR_SHAPE_DYNAMISM, number_types.Int8Flags) != 0,
                       SCALAR_TYPES.get(scalar_type, f"scalar type {scalar_type}"))


def segment_base(pte: bytes) -> int:
    """Where segment offsets count from: the extended header's segment_base_offset (0 if there is none)."""
    header = pte[8:40]
    if header[:4] != EXTENDED_HEADER_MAGIC:
        return 0
    return int.from_bytes(header[16:24], "little")


def delegates(pte: bytes) -> list[Delegate]:
    """Every delegate of every execution plan, with its blob, where the blob is stored, and its call's values."""
    program = _Node(pte, Table(pte, 0).Indirect(0))
    inline = program.children(PROGRAM_DELEGATE_DATA)
    segments = program.children(PROGRAM_SEGMENTS)
    base = segment_base(pte)
    found: list[Delegate] = []
    for plan in program.children(PROGRAM_EXECUTION_PLAN):
        values = plan.children(PLAN_VALUES)
        calls: dict[int, list[TensorValue | None]] = {}
        for chain in plan.children(PLAN_CHAINS):
            for instruction in chain.children(CHAIN_INSTRUCTIONS):
                tag, call = instruction.union(INSTRUCTION_TYPE, INSTRUCTION_VALUE)
                if tag == INSTRUCTION_DELEGATE_CALL and call is not None:
                    arguments = call.numbers(DELEGATE_CALL_ARGS, number_types.Int32Flags)
                    calls[call.scalar(DELEGATE_CALL_INDEX, number_types.Int32Flags)] = [
                        _tensor(values[index]) for index in arguments]
        for index, delegate in enumerate(plan.children(PLAN_DELEGATES)):
            reference = delegate.child(DELEGATE_PROCESSED)
            if reference is None:
                raise ValueError(f"delegate {index} of a plan has no processed data")
            in_segment = reference.scalar(REFERENCE_LOCATION, number_types.Int8Flags) == LOCATION_SEGMENT
            data_index = reference.scalar(REFERENCE_INDEX, number_types.Uint32Flags)
            if in_segment:
                segment = segments[data_index]
                start = base + segment.scalar(SEGMENT_OFFSET, number_types.Uint64Flags)
                blob = bytes(pte[start:start + segment.scalar(SEGMENT_SIZE, number_types.Uint64Flags)])
            else:
                blob = inline[data_index].raw(INLINE_DATA)
            specs = {spec.text(COMPILE_SPEC_KEY): spec.raw(COMPILE_SPEC_VALUE)
                     for spec in delegate.children(DELEGATE_COMPILE_SPECS)}
            found.append(Delegate(delegate.text(DELEGATE_ID), blob, in_segment, calls.get(index, []), specs))
    return found


@dataclass(frozen=True)
class Constants:
    """The program's constant tensors (stored in the program, not planned) and its constant segment."""
    sizes: list[list[int]]  # the sizes of each constant tensor of every execution plan
    segment_bytes: int | None  # the constant segment's size, None when the program has none


def constants(pte: bytes) -> Constants:
    program = _Node(pte, Table(pte, 0).Indirect(0))
    sizes: list[list[int]] = []
    for plan in program.children(PROGRAM_EXECUTION_PLAN):
        for value in plan.children(PLAN_VALUES):
            tag, tensor = value.union(EVALUE_TYPE, EVALUE_VALUE)
            if (tag == KERNEL_TYPE_TENSOR and tensor is not None
                    and tensor.scalar(TENSOR_DATA_BUFFER, number_types.Uint32Flags) > 0
                    and tensor.child(TENSOR_ALLOCATION) is None):
                sizes.append(tensor.numbers(TENSOR_SIZES, number_types.Int32Flags))
    segment = program.child(PROGRAM_CONSTANT_SEGMENT)
    if segment is None or not segment.numbers(SUBSEGMENT_OFFSETS, number_types.Uint64Flags):
        return Constants(sizes, None)
    data = program.children(PROGRAM_SEGMENTS)[segment.scalar(SUBSEGMENT_INDEX, number_types.Uint32Flags)]
    return Constants(sizes, data.scalar(SEGMENT_SIZE, number_types.Uint64Flags))
