"""What ExecuTorch's runtime checks when it loads a method, checked before the checker judges the program.

Why: a program can pass flatbuffers' verification and still be refused at ``load_method``: a value of an unknown
type, a list naming values that do not exist, a tensor placed beyond its planned buffer, a buffer no allocator
can give (measured over every single-byte flip of the tracked samples: ``0x12``, ``0x21``, ``0x23`` and
``std::bad_alloc`` for each of these). The checker must not call such a file clean, so it refuses it the way
the runtime does (``runtime/executor/method.cpp``, ``tensor_parser_exec_aten.cpp``,
``hierarchical_allocator.h``): any of it is ``MalformedProgram``, naming the value.
"""

import math

from flatbuffers import number_types

from workaround.checker.pte.flatbuffer_table import Node
from workaround.checker.pte.program_schema import (
    ALLOCATION_MEMORY_ID,
    ALLOCATION_OFFSET_HIGH,
    ALLOCATION_OFFSET_LOW,
    ELEMENT_SIZES,
    EVALUE_TYPE,
    EVALUE_VALUE,
    KERNEL_TYPE_NAMES,
    LIST_ITEMS,
    PLAN_BUFFER_SIZES,
    TENSOR_ALLOCATION,
    TENSOR_DIM_ORDER,
    TENSOR_SCALAR_TYPE,
    TENSOR_SIZES,
)
from workaround.checker.pte.verifier import MalformedProgram

# A planned buffer is one allocation made when the method loads: none of 256 GiB or more is made on a CPU (a
# corrupted high byte of its size asks for terabytes, measured: std::bad_alloc). Far above any real plan.
LARGEST_BUFFER = 1 << 38
# The list types whose items are indices of other values (an optional tensor list uses -1 for None).
INDEX_LISTS = {"IntList": 0, "TensorList": 0, "OptionalTensorList": -1}


def planned_buffer_sizes(plan: Node) -> list[int]:
    """The sizes of the method's planned buffers (entry 0 is reserved and never allocated: memory ids count
    from 1)."""
    sizes = plan.numbers(PLAN_BUFFER_SIZES, number_types.Int64Flags)
    for index, size in enumerate(sizes[1:], start=1):
        if not 0 <= size < LARGEST_BUFFER:
            raise MalformedProgram(f"planned buffer {index} claims {size} bytes")
    return sizes


def check_tensor(number: int, tensor: Node, buffer_sizes: list[int]) -> None:
    scalar_type = tensor.scalar(TENSOR_SCALAR_TYPE, number_types.Int8Flags)
    if scalar_type not in ELEMENT_SIZES:
        raise MalformedProgram(f"value {number} is a tensor of unknown scalar type {scalar_type}")
    sizes = tensor.numbers(TENSOR_SIZES, number_types.Int32Flags)
    order = tensor.numbers(TENSOR_DIM_ORDER, number_types.Uint8Flags)
    if any(size < 0 for size in sizes):
        raise MalformedProgram(f"value {number} is a tensor of negative sizes {sizes}")
    if order and sorted(order) != list(range(len(sizes))):
        raise MalformedProgram(f"value {number}, a tensor of sizes {sizes}, has dim order {order}, which is not "
                               f"an order of its {len(sizes)} dims")
    allocation = tensor.child(TENSOR_ALLOCATION)
    if allocation is None:
        return
    nbytes = math.prod(sizes) * ELEMENT_SIZES[scalar_type]
    memory_id = allocation.scalar(ALLOCATION_MEMORY_ID, number_types.Uint32Flags)
    offset = (allocation.scalar(ALLOCATION_OFFSET_HIGH, number_types.Uint32Flags) << 32
              | allocation.scalar(ALLOCATION_OFFSET_LOW, number_types.Uint32Flags))
    if not 1 <= memory_id < len(buffer_sizes):
        raise MalformedProgram(f"value {number} is planned in memory {memory_id}: the method plans "
                               f"{max(len(buffer_sizes) - 1, 0)}")
    if offset + nbytes > buffer_sizes[memory_id]:
        raise MalformedProgram(f"value {number}, a tensor of sizes {sizes} ({nbytes} bytes) at byte {offset} of "
                               f"planned memory {memory_id}, ends beyond its {buffer_sizes[memory_id]} bytes")


def check_values(plan: Node, values: list[Node]) -> None:
    """Every value of a method as the runtime parses it (see the module docstring)."""
    buffer_sizes = planned_buffer_sizes(plan)
    for number, value in enumerate(values):
        tag, content = value.union(EVALUE_TYPE, EVALUE_VALUE)
        kind = KERNEL_TYPE_NAMES.get(tag)
        if kind is None:
            raise MalformedProgram(f"value {number} is of unknown type {tag}")
        if content is None:
            if kind == "Null":
                continue
            raise MalformedProgram(f"value {number} ({kind}) has no content")
        if kind == "Tensor":
            check_tensor(number, content, buffer_sizes)
        elif kind in INDEX_LISTS:
            flags = number_types.Int64Flags if kind == "IntList" else number_types.Int32Flags
            for item in content.numbers(LIST_ITEMS, flags):
                if not INDEX_LISTS[kind] <= item < len(values):
                    raise MalformedProgram(f"value {number} ({kind}) names value {item}: there are {len(values)}")
