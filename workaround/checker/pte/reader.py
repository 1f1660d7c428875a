"""Read what the checker needs from a .pte with the ``flatbuffers`` package alone: no torch, no executorch.

A check of a shipped program should not need the export stack (importing it costs seconds and pulls
in torch). ExecuTorch's ``schema/program.fbs`` fixes where each field lives; only the fields the
checker reads are named here, by their position in that schema. Segments (where ExecuTorch puts
delegate blobs by default) are located through the extended header that follows the file identifier.

Nothing is read before ``workaround.checker.pte.verifier`` has checked every extent the file claims
(``flatbuffers`` reads without bounds). What the runtime would refuse at ``load_method`` and the checker relies on
is checked here too: indices into the program's tables, backend ids and operator names that are names. Any of it
wrong is ``MalformedProgram``.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flatbuffers import number_types
from flatbuffers.table import Table

from workaround.checker.pte.file import ProgramData
from workaround.checker.pte.flatbuffer_table import Node
from workaround.checker.pte.method_checks import check_values
from workaround.checker.pte.program_schema import (
    CHAIN_INSTRUCTIONS,
    COMPILE_SPEC_KEY,
    COMPILE_SPEC_VALUE,
    DELEGATE_CALL_ARGS,
    DELEGATE_CALL_INDEX,
    DELEGATE_COMPILE_SPECS,
    DELEGATE_ID,
    DELEGATE_PROCESSED,
    EVALUE_TYPE,
    EVALUE_VALUE,
    INLINE_DATA,
    INSTRUCTION_DELEGATE_CALL,
    INSTRUCTION_KERNEL_CALL,
    INSTRUCTION_TYPE,
    INSTRUCTION_VALUE,
    KERNEL_CALL_ARGS,
    KERNEL_CALL_OP_INDEX,
    KERNEL_TYPE_TENSOR,
    LOCATION_INLINE,
    LOCATION_SEGMENT,
    OPERATOR_NAME,
    OPERATOR_OVERLOAD,
    PLAN_CHAINS,
    PLAN_DELEGATES,
    PLAN_NAME,
    PLAN_OPERATORS,
    PLAN_VALUES,
    PROGRAM_CONSTANT_SEGMENT,
    PROGRAM_DELEGATE_DATA,
    PROGRAM_EXECUTION_PLAN,
    PROGRAM_SEGMENTS,
    REFERENCE_INDEX,
    REFERENCE_LOCATION,
    SCALAR_TYPES,
    SEGMENT_OFFSET,
    SEGMENT_SIZE,
    SUBSEGMENT_INDEX,
    SUBSEGMENT_OFFSETS,
    TENSOR_ALLOCATION,
    TENSOR_DATA_BUFFER,
    TENSOR_DIM_ORDER,
    TENSOR_SCALAR_TYPE,
    TENSOR_SHAPE_DYNAMISM,
    TENSOR_SIZES,
    UNIONS,
)
from workaround.checker.pte.verifier import Layout, MalformedProgram, verify

# What a backend id and an operator's name and overload look like: the runtime looks them up by name, so one
# that is not such a name (a corrupted byte) fails to load.
BACKEND_ID = METHOD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
OPERATOR_NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_.]*")
OVERLOAD = re.compile(r"[A-Za-z0-9_.]*")


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


def _tensor(evalue: Node) -> TensorValue | None:
    tag, tensor = evalue.union(EVALUE_TYPE, EVALUE_VALUE)
    if tag != KERNEL_TYPE_TENSOR or tensor is None:
        return None
    scalar_type = tensor.scalar(TENSOR_SCALAR_TYPE, number_types.Int8Flags)
    sizes = tensor.numbers(TENSOR_SIZES, number_types.Int32Flags)
    order = tensor.numbers(TENSOR_DIM_ORDER, number_types.Uint8Flags)  # checked by check_values
    return TensorValue(sizes, order, tensor.scalar(TENSOR_SHAPE_DYNAMISM, number_types.Int8Flags) != 0,
                       SCALAR_TYPES.get(scalar_type, f"scalar type {scalar_type}"))


def _element(items: Sequence[Any], index: int, what: str) -> Any:
    if not 0 <= index < len(items):
        raise MalformedProgram(f"{what} is {index}: there are {len(items)}")
    return items[index]


def segment_extent(segments: list[Node], index: int, layout: Layout, what: str) -> tuple[int, int]:
    """(first byte in the file, size) of segment ``index``, which must lie inside the file."""
    segment = _element(segments, index, f"the segment of {what}")
    start = layout.segment_base + segment.scalar(SEGMENT_OFFSET, number_types.Uint64Flags)
    size = segment.scalar(SEGMENT_SIZE, number_types.Uint64Flags)
    if start + size > layout.file_size:
        raise MalformedProgram(f"segment {index} ({what}) claims {size} bytes from byte {start}: the file ends at "
                               f"{layout.file_size}")
    return start, size


def _calls(plan: Node, values: list[Node], delegate_count: int, operator_count: int
           ) -> dict[int, list[TensorValue | None]]:
    """{delegate index: the values its call passes}, every instruction's kind and indices checked (the runtime
    refuses an instruction of an unknown kind, or naming a value, operator or delegate that does not exist)."""
    calls: dict[int, list[TensorValue | None]] = {}
    for chain in plan.children(PLAN_CHAINS):
        for number, instruction in enumerate(chain.children(CHAIN_INSTRUCTIONS)):
            tag, call = instruction.union(INSTRUCTION_TYPE, INSTRUCTION_VALUE)
            if not 0 < tag <= len(UNIONS["InstructionArguments"]) or call is None:
                raise MalformedProgram(f"instruction {number} of a chain is of unknown kind {tag}")
            if tag == INSTRUCTION_KERNEL_CALL:
                for index in call.numbers(KERNEL_CALL_ARGS, number_types.Int32Flags):
                    _element(values, index, "a value index of an instruction")
                called = call.scalar(KERNEL_CALL_OP_INDEX, number_types.Int32Flags)
                _element(range(operator_count), called, "the operator index of a kernel call")
            elif tag == INSTRUCTION_DELEGATE_CALL:
                arguments = [_element(values, index, "a value index of an instruction")
                             for index in call.numbers(DELEGATE_CALL_ARGS, number_types.Int32Flags)]
                called = call.scalar(DELEGATE_CALL_INDEX, number_types.Int32Flags)
                _element(range(delegate_count), called, "the delegate index of a delegate call")
                calls[called] = [_tensor(value) for value in arguments]
    return calls


def _operators(program: Node) -> list[str]:
    """The operators every execution plan calls, as the runtime looks them up (``aten::sort.values``)."""
    found: list[str] = []
    for plan in program.children(PROGRAM_EXECUTION_PLAN):
        for operator in plan.children(PLAN_OPERATORS):
            name = operator.name(OPERATOR_NAME, OPERATOR_NAME_PATTERN, "an operator's name")
            overload = operator.name(OPERATOR_OVERLOAD, OVERLOAD, "an operator's overload")
            found.append(f"{name}.{overload}" if overload else name)
    return found


def _delegates(program: Node, layout: Layout, pte: ProgramData) -> list[Delegate]:
    """Every delegate of every execution plan, with its blob, where the blob is stored, and its call's values."""
    inline = program.children(PROGRAM_DELEGATE_DATA)
    segments = program.children(PROGRAM_SEGMENTS)
    found: list[Delegate] = []
    for plan in program.children(PROGRAM_EXECUTION_PLAN):
        plan.name(PLAN_NAME, METHOD_NAME, "a method's name")
        plan_delegates, values = plan.children(PLAN_DELEGATES), plan.children(PLAN_VALUES)
        check_values(plan, values)
        calls = _calls(plan, values, len(plan_delegates), len(plan.children(PLAN_OPERATORS)))
        for index, delegate in enumerate(plan_delegates):
            backend = delegate.name(DELEGATE_ID, BACKEND_ID, f"delegate {index}'s backend id")
            reference = delegate.child(DELEGATE_PROCESSED)
            if reference is None:
                raise MalformedProgram(f"delegate {index} ({backend}) has no processed data")
            location = reference.scalar(REFERENCE_LOCATION, number_types.Int8Flags)
            data_index = reference.scalar(REFERENCE_INDEX, number_types.Uint32Flags)
            if location == LOCATION_SEGMENT:
                start, size = segment_extent(segments, data_index, layout, f"delegate {index}'s data")
                blob = pte[start:start + size]
            elif location == LOCATION_INLINE:
                blob = _element(inline, data_index, f"delegate {index}'s inline data index").raw(INLINE_DATA)
            else:
                raise MalformedProgram(f"delegate {index}'s data location is {location}: neither inline nor a "
                                       "segment")
            # Keys the runtime does not look for may hold anything (measured: it loads a program whose key is
            # not UTF-8), so they are read as they are.
            specs = {spec.string_bytes(COMPILE_SPEC_KEY).decode(errors="backslashreplace"):
                     spec.raw(COMPILE_SPEC_VALUE) for spec in delegate.children(DELEGATE_COMPILE_SPECS)}
            found.append(Delegate(backend, blob, location == LOCATION_SEGMENT, calls.get(index, []), specs))
    return found


@dataclass(frozen=True)
class Constants:
    """The program's constant tensors (stored in the program, not planned) and its constant segment."""
    sizes: list[list[int]]  # the sizes of each constant tensor of every execution plan
    segment_bytes: int | None  # the constant segment's size, None when the program has none


def _constants(program: Node, layout: Layout) -> Constants:
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
    index = segment.scalar(SUBSEGMENT_INDEX, number_types.Uint32Flags)
    _, size = segment_extent(program.children(PROGRAM_SEGMENTS), index, layout, "the constant segment")
    return Constants(sizes, size)


@dataclass(frozen=True)
class ProgramContents:
    """What the checker reads from a program, read once the whole file is verified."""
    operators: list[str]  # what its kernel calls name, each of which the runtime must register to load it
    delegates: list[Delegate]
    constants: Constants


def read(pte: ProgramData) -> ProgramContents:
    """The program's delegates and constants; MalformedProgram unless every extent, index and name it claims is
    consistent (``workaround.checker.pte.verifier``, ``workaround.checker.pte.method_checks``, and the checks
    here)."""
    layout = verify(pte)
    flatbuffer = pte[:layout.program_size]
    program = Node(flatbuffer, Table(flatbuffer, 0).Indirect(0))
    return ProgramContents(_operators(program), _delegates(program, layout, pte), _constants(program, layout))


def delegates(pte: ProgramData) -> list[Delegate]:
    """Every delegate of every execution plan (``read``)."""
    return read(pte).delegates


def spec_text(value: bytes) -> str:
    """A compile spec's value as ExecuTorch's OpenVINO backend reads it: a C string, up to its first NUL."""
    return value.split(b"\0")[0].decode("ascii", "backslashreplace")
