"""Keep a program's OpenVINO blobs small enough to stay inline: the largest constants stay in ExecuTorch.

Why: the workaround keeps every OpenVINO blob inside the program's flatbuffer
(``workaround.partitioner.hooks.inline_blobs``), the only place ExecuTorch 1.5.1's runtime keeps a delegate's data
alive after ``init`` when a program is loaded by path. A flatbuffer stops at 2 GiB, and a blob holds every constant
its partition was given: a 1B-parameter LLM in float32 is about 5 GB. A constant left untagged instead stays in the
program's constant segment, which the runtime keeps mapped for the program's life (no size limit: segments are
placed by 64-bit offsets), and reaches the delegate as an input at each ``execute``, wrapped without a copy
(``ov_tensor_create_from_host_ptr``). Nothing of it is in the blob, so nothing can be freed under OpenVINO.

The price is speed where OpenVINO would have repacked the constant at compile time, and it is small: a
``Linear(8192, 8192)`` stack's step (2.25 GiB of weights, one token) takes 1.16 times as long with every weight an
input, 1.10 times with 1 GiB of them kept in the blob. Each byte kept in a blob costs about 2.5 bytes more of
memory at export (the compiled model, its exported stream, the flatbuffer builder), and the restamper may have to
write a grown blob again (docs/measurements.md). So nothing changes for a program whose partitions hold at most
``INLINE_BUDGET`` of constants; past it, constants leave the blobs until ``KEPT_WHEN_LIFTING`` remains, in the
order that costs least: first the tables read by rows (an embedding's weight: a few rows per token, no repacking
to lose), then the float ones, largest first; the int8 / uint8 ones (compressed weights) only while more than
``COMPRESSED_BUDGET`` remains. OpenVINO fuses a compressed constant's decompression into the op reading it (its
``GatherCompressed`` reads an embedding table a row at a time); the same weight as an input is decompressed whole
at every call. Measured on a 16-layer Llama at 1B's width, 4-bit, 2048-token cache, by path, f32: NNCF's 8-bit
embedding table (128256 x 2048, 262 MB) kept out of the blob made a decode step 89.3 ms; kept in, 42.5 ms
(docs/measurements.md). Only constants of ``LIFTABLE_DTYPES`` of at least ``SMALLEST_LIFTED`` bytes leave: those
cross a delegate's boundary as they are (no 0-d tensors, which the delegate cannot take, and no int64, whose
boundary marks only the blob carries).
"""

from collections.abc import Iterable

import torch
from torch.export import ExportedProgram

from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.rules.exclusion import TAG

INLINE_BUDGET = 1 << 30  # bytes of constants a method's OpenVINO blobs may hold; the flatbuffer's cap is 2 GiB
KEPT_WHEN_LIFTING = 256 << 20  # what stays in the blobs once some constants must leave
COMPRESSED_BUDGET = 3 << 29  # 1.5 GiB: compressed weights stay until then, with room below the flatbuffer's cap
SMALLEST_LIFTED = 1 << 20
FLOAT_DTYPES = frozenset({torch.float32, torch.float16, torch.bfloat16})
LIFTABLE_DTYPES = FLOAT_DTYPES | {torch.int8, torch.uint8}
# Where a lifted constant's node says why it is not in the blob (node.meta), for the tests and the curious.
LIFTED_BECAUSE = "kept_out_of_the_blob"
READ_BY_ROWS = frozenset({torch.ops.aten.embedding.default})


def constant_bytes(node: torch.fx.Node) -> int:
    value = node.meta.get("val")
    return value.numel() * value.element_size() if isinstance(value, torch.Tensor) else 0


def delegated_constants(exported_program: ExportedProgram) -> list[torch.fx.Node]:
    """The parameters, buffers and lifted constants tagged into a partition (their data goes into a blob)."""
    signature = exported_program.graph_signature
    constant_inputs = {*signature.inputs_to_parameters, *signature.inputs_to_buffers,
                       *signature.inputs_to_lifted_tensor_constants}
    return [node for node in exported_program.graph.nodes
            if node.op == "placeholder" and node.name in constant_inputs and TAG in node.meta]


def _is_read_by_rows(node: torch.fx.Node) -> bool:
    """Every user reads a few rows of it (an embedding's weight), so a delegate input costs it nothing."""
    return all(aten_op(user) in READ_BY_ROWS and user.args[0] is node for user in node.users)


def _liftable(node: torch.fx.Node) -> bool:
    value = node.meta.get("val")
    return (isinstance(value, torch.Tensor) and value.dtype in LIFTABLE_DTYPES and value.dim() > 0
            and constant_bytes(node) >= SMALLEST_LIFTED)


def _costs_little_outside(node: torch.fx.Node) -> bool:
    return _is_read_by_rows(node) or node.meta["val"].dtype in FLOAT_DTYPES


def _lifting_order(node: torch.fx.Node) -> tuple[bool, bool, int]:
    return not _is_read_by_rows(node), not _costs_little_outside(node), -constant_bytes(node)


def constants_to_lift(constants: Iterable[torch.fx.Node], budget: int, kept: int,
                      compressed_budget: int) -> list[torch.fx.Node]:
    """The constants to keep out of the blobs, cheapest first: none if they fit ``budget``, else until ``kept``
    bytes remain (the int8 / uint8 ones only while more than ``compressed_budget`` does)."""
    constants = list(constants)
    remaining = sum(constant_bytes(node) for node in constants)
    if remaining <= budget:
        return []
    chosen: list[torch.fx.Node] = []
    for node in sorted(filter(_liftable, constants), key=_lifting_order):
        if remaining <= (kept if _costs_little_outside(node) else compressed_budget):
            continue
        chosen.append(node)
        remaining -= constant_bytes(node)
    return chosen


def keep_large_constants_out_of_blobs(exported_program: ExportedProgram) -> list[str]:
    """Untag the constants ``constants_to_lift`` chooses (they become delegate inputs); their names."""
    constants = delegated_constants(exported_program)
    lifted = constants_to_lift(constants, INLINE_BUDGET, KEPT_WHEN_LIFTING, COMPRESSED_BUDGET)
    total = sum(constant_bytes(node) for node in constants)
    for node in lifted:
        del node.meta[TAG]
        node.meta[LIFTED_BECAUSE] = (f"{constant_bytes(node)} bytes: the partitions' {total} bytes of constants "
                                     f"pass {INLINE_BUDGET}")
    return [node.name for node in lifted]
