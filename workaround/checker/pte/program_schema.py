"""ExecuTorch's program schema as the checker needs it: each table's fields by position and type, and the
ScalarType codes, from ExecuTorch 1.5.1's ``schema/program.fbs`` and ``schema/scalar_type.fbs``.

The layout is the flatbuffer's contract (a field keeps its position across releases; new ones are appended), so
positions written here keep reading programs of other releases. Verifying (``workaround.checker.pte.verifier``)
needs every table's types; reading (``workaround.checker.pte.reader``) names only the fields it reads.
"""

# Field positions in program.fbs (ExecuTorch 1.5.1). A union field takes two: its type, then its value.
PROGRAM_EXECUTION_PLAN, PROGRAM_CONSTANT_BUFFER, PROGRAM_DELEGATE_DATA, PROGRAM_SEGMENTS = 1, 2, 3, 4
PROGRAM_CONSTANT_SEGMENT = 5
BUFFER_STORAGE = 0
SUBSEGMENT_INDEX, SUBSEGMENT_OFFSETS = 0, 1
PLAN_NAME, PLAN_VALUES, PLAN_CHAINS, PLAN_OPERATORS, PLAN_DELEGATES, PLAN_BUFFER_SIZES = 0, 2, 5, 6, 7, 8
OPERATOR_NAME, OPERATOR_OVERLOAD = 0, 1
EVALUE_TYPE, EVALUE_VALUE, KERNEL_TYPE_TENSOR = 0, 1, 5
TENSOR_SCALAR_TYPE, TENSOR_SIZES, TENSOR_DIM_ORDER, TENSOR_DATA_BUFFER, TENSOR_ALLOCATION = 0, 2, 3, 5, 6
TENSOR_SHAPE_DYNAMISM = 8
ALLOCATION_MEMORY_ID, ALLOCATION_OFFSET_LOW, ALLOCATION_OFFSET_HIGH = 0, 1, 2
LIST_ITEMS = 0  # of IntList, TensorList and OptionalTensorList: indices of other values
# ExecuTorch's ScalarType (scalar_type.fbs) by the names torch gives the dtypes.
SCALAR_TYPES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16", 6: "float32",
                7: "float64", 11: "bool", 15: "bfloat16", 27: "uint16", 28: "uint32", 29: "uint64"}
CHAIN_INSTRUCTIONS = 2
INSTRUCTION_TYPE, INSTRUCTION_VALUE, INSTRUCTION_KERNEL_CALL, INSTRUCTION_DELEGATE_CALL = 0, 1, 1, 2
KERNEL_CALL_OP_INDEX, KERNEL_CALL_ARGS = 0, 1
DELEGATE_CALL_INDEX, DELEGATE_CALL_ARGS = 0, 1
DELEGATE_ID, DELEGATE_PROCESSED, DELEGATE_COMPILE_SPECS = 0, 1, 2
COMPILE_SPEC_KEY, COMPILE_SPEC_VALUE = 0, 1
REFERENCE_LOCATION, REFERENCE_INDEX, LOCATION_INLINE, LOCATION_SEGMENT = 0, 1, 0, 1
INLINE_DATA = 0
SEGMENT_OFFSET, SEGMENT_SIZE = 0, 1
# The bytes of one element of each ScalarType the runtime accepts (c10's ScalarType, which ExecuTorch's follows;
# 8 to 10 are complex, 18 to 21 bit-packed).
ELEMENT_SIZES = {0: 1, 1: 1, 2: 2, 3: 4, 4: 8, 5: 2, 6: 4, 7: 8, 8: 4, 9: 8, 10: 16, 11: 1, 12: 1, 13: 1, 14: 4,
                 15: 2, 16: 1, 17: 1, 18: 1, 19: 1, 20: 1, 21: 1, 22: 2, 23: 1, 24: 1, 25: 1, 26: 1, 27: 2, 28: 4,
                 29: 8}

# Each table's fields in schema order: a scalar ("u8", "i32", ...), "str", "[scalar]" or "[Table]" (a vector),
# a table's name, or "union Name" (two slots: the type tag, then the value).
TABLES: dict[str, tuple[str, ...]] = {
    "Program": ("u32", "[ExecutionPlan]", "[Buffer]", "[BackendDelegateInlineData]", "[DataSegment]",
                "SubsegmentOffsets", "[SubsegmentOffsets]", "[NamedData]"),
    "ExecutionPlan": ("str", "ContainerMetadata", "[EValue]", "[i32]", "[i32]", "[Chain]", "[Operator]",
                      "[BackendDelegate]", "[i64]", "[NonConstBufferDevice]"),
    "ContainerMetadata": ("str", "str"),
    "Null": (),
    "AllocationDetails": ("u32", "u32", "u32"),
    "ExtraTensorInfo": ("u64", "str", "i8", "i8", "i8"),
    "Tensor": ("i8", "i32", "[i32]", "[u8]", "u8", "u32", "AllocationDetails", "i8", "i8", "ExtraTensorInfo"),
    "Int": ("i64",), "Bool": ("u8",), "Double": ("f64",), "String": ("str",), "IntList": ("[i64]",),
    "DoubleList": ("[f64]",), "BoolList": ("[u8]",), "TensorList": ("[i32]",), "OptionalTensorList": ("[i32]",),
    "EValue": ("union KernelTypes",),
    "Operator": ("str", "str"),
    "KernelCall": ("i32", "[i32]"), "DelegateCall": ("i32", "[i32]"), "MoveCall": ("i32", "i32"),
    "JumpFalseCall": ("i32", "i32"), "FreeCall": ("i32",),
    "Instruction": ("union InstructionArguments",),
    "Frame": ("str", "i32", "str", "str"), "FrameList": ("[Frame]",),
    "BackendDelegateDataReference": ("i8", "u32"),
    "CompileSpec": ("str", "[u8]"),
    "BackendDelegate": ("str", "BackendDelegateDataReference", "[CompileSpec]"),
    "Chain": ("[i32]", "[i32]", "[Instruction]", "[FrameList]"),
    "NonConstBufferDevice": ("i32", "i8", "i8"),
    "Buffer": ("[u8]",), "BackendDelegateInlineData": ("[u8]",),
    "DataSegment": ("u64", "u64"),
    "SubsegmentOffsets": ("u32", "[u64]"),
    "NamedData": ("str", "u32"),
}
# A union's members by type tag (tag 0 is NONE); the verifier accepts an unknown tag, as flatbuffers' does.
UNIONS = {"KernelTypes": ("Null", "Int", "Bool", "Double", "Tensor", "String", "IntList", "DoubleList",
                          "BoolList", "TensorList", "OptionalTensorList"),
          "InstructionArguments": ("KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall")}
# The KernelTypes union's members by type tag (0 is flatbuffers' NONE, which the runtime refuses).
KERNEL_TYPE_NAMES = dict(enumerate(UNIONS["KernelTypes"], start=1))
