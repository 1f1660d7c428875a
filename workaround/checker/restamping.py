"""A .pte with each OpenVINO blob's compatibility stamp rewritten, torch-free: the program a host of another CPU
class would have exported (``workaround.checker.compatibility_stamp``).

OpenVINO 2026.4 refuses a blob whose stamp is not the importing host's own text, while what follows the stamp (the
model's IR, compiled at import) does not depend on the exporting class. So a shipped program is made loadable
by rewriting the stamp alone. The texts differ in length between classes (``isa=Intel AVX2`` is shorter than the
AVX-512 names), so a blob may grow, and a .pte places its data by offsets; the file is rewritten without
re-serializing it, the way ExecuTorch's runtime reads it (``schema/program.fbs``, ``extended_header``):

- a blob stored **inline** (in the flatbuffer's ``delegate_data``) is written where it was. What follows it in
  the flatbuffer moves by the change in length, rounded up to a multiple of every alignment the program's data
  was written with, and every offset that crosses the move (every forward ``uoffset``, and each table's signed
  offset to its vtable) follows; the verifier's walk lists them all. No copy of the old blob stays (appending the
  new one and leaving the old bytes unread left a dead copy as large as the blob, up to 2 GiB).
- a blob in a **segment** gets the segment's new length; later segments move to keep the alignment the program
  was written with, and each ``DataSegment``'s ``offset`` and ``size`` (fixed-width fields) are updated.
- a grown flatbuffer moves the segments by whole pages (their alignment kept), and the extended header's program
  size, segment base and segment data size follow.

Everything else is copied byte for byte, and the result is read back with ``workaround.checker.pte.reader`` before
it is returned.
"""

from collections.abc import Callable
from dataclasses import dataclass

from flatbuffers import number_types
from flatbuffers.table import Table

from workaround.checker import compatibility_stamp
from workaround.checker.pte import reader, verifier
from workaround.checker.pte.file import ProgramData
from workaround.checker.pte.flatbuffer_table import Node
from workaround.checker.pte.program_schema import (
    BUFFER_STORAGE,
    DELEGATE_ID,
    DELEGATE_PROCESSED,
    INLINE_DATA,
    LOCATION_INLINE,
    PLAN_DELEGATES,
    PROGRAM_CONSTANT_BUFFER,
    PROGRAM_DELEGATE_DATA,
    PROGRAM_EXECUTION_PLAN,
    PROGRAM_SEGMENTS,
    REFERENCE_INDEX,
    REFERENCE_LOCATION,
    SEGMENT_OFFSET,
    SEGMENT_SIZE,
)
from workaround.checker.pte.verifier import EXTENDED_HEADER_MAGIC, Layout
from workaround.contract.provenance import OPENVINO_BACKEND

PAGE = 4096  # segments move by whole pages: every alignment a program asks of them is kept
INLINE_ALIGNMENT = 16  # program.fbs's force_align for inline data and buffers
SEGMENT_ALIGNMENT_CAP = 4096


class CannotRestamp(ValueError):
    """The program cannot be rewritten as asked (what and why in one line)."""


@dataclass(frozen=True)
class Restamped:
    """One OpenVINO blob's stamp before and after."""
    delegate: int  # among the program's OpenVINO delegates, in order (as the checker numbers them)
    old: str
    new: str


def _field(table: Table, field: int) -> int:
    """The absolute position of a table's field (0 when it is absent)."""
    offset = int(table.Offset(4 + 2 * field))
    return table.Pos + offset if offset else 0


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _segment_alignment(offsets: list[int]) -> int:
    """The largest power of two (up to a page) dividing every segment's offset: the program's own alignment."""
    alignment = SEGMENT_ALIGNMENT_CAP
    while alignment > 1 and any(offset % alignment for offset in offsets):
        alignment //= 2
    return alignment


def _openvino_references(program: Node) -> list[tuple[int, int]]:
    """(location, index) of each OpenVINO delegate's data, in ``reader.delegates``' order."""
    found = []
    for plan in program.children(PROGRAM_EXECUTION_PLAN):
        for delegate in plan.children(PLAN_DELEGATES):
            reference = delegate.child(DELEGATE_PROCESSED)
            if delegate.string_bytes(DELEGATE_ID) == OPENVINO_BACKEND.encode() and reference is not None:
                found.append((reference.scalar(REFERENCE_LOCATION, number_types.Int8Flags),
                              reference.scalar(REFERENCE_INDEX, number_types.Uint32Flags)))
    return found


Part = bytes | memoryview  # a stretch of the rewritten file: new bytes, or a view of the source's


def restamp(pte: ProgramData, text_for: Callable[[compatibility_stamp.Stamp], str]
            ) -> tuple[bytes, list[Restamped]]:
    """``pte`` with each stamped OpenVINO blob's stamp text replaced by ``text_for(stamp)`` (and what changed),
    read back before it is returned; ``restamped_parts`` says what is rewritten and how. A blob without a stamp is
    left as it is. Raises ``MalformedProgram`` for a file that is not a program, and ``CannotRestamp`` where the
    file cannot be rewritten."""
    parts, changes = restamped_parts(pte, text_for)
    rewritten = b"".join(parts)
    reader.read(rewritten)
    return rewritten, changes


def restamped_parts(pte: ProgramData, text_for: Callable[[compatibility_stamp.Stamp], str]
                    ) -> tuple[list[Part], list[Restamped]]:
    """The rewritten file as the parts to write one after the other, each segment that does not change a view of
    ``pte``'s: a multi-GB program (its weights in segments) is written without a copy of it in memory."""
    reader.read(pte)  # every extent, index and name the rewrite follows is verified first
    layout = verifier.layout(pte)
    flatbuffer = bytearray(pte[:layout.program_size])
    program = _program(flatbuffer)
    inline, segments = program.children(PROGRAM_DELEGATE_DATA), program.children(PROGRAM_SEGMENTS)
    new_inline: dict[int, bytes] = {}
    new_segments: dict[int, bytes] = {}
    changes: list[Restamped] = []
    for number, (location, index) in enumerate(_openvino_references(program)):
        if location == LOCATION_INLINE:
            blob = inline[index].raw(INLINE_DATA)
        else:
            start, size = reader.segment_extent(segments, index, layout, f"delegate {number}'s data")
            blob = pte[start:start + size]
        stamp = compatibility_stamp.read(blob)
        if stamp is None:
            continue
        text = text_for(stamp)
        if text != stamp.text:
            (new_inline if location == LOCATION_INLINE else new_segments)[index] = compatibility_stamp.with_text(
                blob, text)
        changes.append(Restamped(number, stamp.text, text))
    for index, blob in new_inline.items():
        _resize_inline(flatbuffer, index, blob)
    segments = _program(flatbuffer).children(PROGRAM_SEGMENTS)  # where their fields are once blobs have moved
    segment_region = _placed_segments(pte, layout, segments, new_segments, flatbuffer)
    return _assembled(pte, layout, flatbuffer, segment_region), changes


def _program(flatbuffer: bytearray) -> Node:
    frozen = bytes(flatbuffer)
    return Node(frozen, Table(frozen, 0).Indirect(0))


def _kept_alignment(program: Node) -> int:
    """What the bytes after an inline blob move by, at least: a multiple of every alignment the program's data
    vectors were written with (``force_align: 16`` in program.fbs, which serialization may raise)."""
    holders = ((PROGRAM_DELEGATE_DATA, INLINE_DATA), (PROGRAM_CONSTANT_BUFFER, BUFFER_STORAGE))
    starts = [position + int.from_bytes(item.table.Bytes[position:position + 4], "little") + 4
              for vectors, data in holders for item in program.children(vectors)
              if (position := _field(item.table, data))]
    return max(INLINE_ALIGNMENT, _segment_alignment(starts))


def _resize_inline(flatbuffer: bytearray, index: int, blob: bytes) -> None:
    """Make inline delegate data ``index`` hold ``blob`` where it is: what follows the vector's room (its data and
    the padding before the next object) moves by a multiple of every alignment the program keeps, as little as
    fits ``blob``, and each offset that crosses the move follows. The old blob leaves no copy behind, and a
    rewrite there and back gives the program's own bytes."""
    found = verifier.offsets(bytes(flatbuffer))
    if not found.complete:
        raise CannotRestamp("the program has fields ExecuTorch 1.5.1's schema does not name: not all its offsets "
                            "are known, so its inline blob cannot be moved")
    program = _program(flatbuffer)
    field = _field(program.children(PROGRAM_DELEGATE_DATA)[index].table, INLINE_DATA)
    if not field:
        raise CannotRestamp("an inline delegate's data has no vector to rewrite")
    vector = field + int.from_bytes(flatbuffer[field:field + 4], "little")
    start = vector + 4
    # its room: up to whatever comes next (every object is a table, a vtable or where an offset points)
    end = min((position for pair in (*found.forward, *found.vtables) for position in pair if position >= start),
              default=len(flatbuffer))
    alignment, spare = _kept_alignment(program), end - start - len(blob)
    move = -(spare // alignment * alignment) if spare >= 0 else _align(-spare, alignment)

    def moved(position: int) -> int:
        return position + move if position >= end else position

    for where, target in found.forward:
        flatbuffer[where:where + 4] = (moved(target) - moved(where)).to_bytes(4, "little")
    for table, vtable in found.vtables:
        flatbuffer[table:table + 4] = (moved(table) - moved(vtable)).to_bytes(4, "little", signed=True)
    flatbuffer[vector:vector + 4] = len(blob).to_bytes(4, "little")
    flatbuffer[start:end] = blob + bytes(end + move - start - len(blob))


def _placed_segments(pte: ProgramData, layout: Layout, segments: list[Node], new: dict[int, bytes],
                     flatbuffer: bytearray) -> list[Part]:
    """The segment region's parts with each segment's new bytes, later ones moved to keep their alignment; the
    ``DataSegment`` fields in ``flatbuffer`` updated."""
    source = memoryview(pte)
    if not segments:
        return [source[layout.segment_base:]] if layout.segment_base else []
    extents = [(segment.scalar(SEGMENT_OFFSET, number_types.Uint64Flags),
                segment.scalar(SEGMENT_SIZE, number_types.Uint64Flags)) for segment in segments]
    alignment = _segment_alignment([offset for offset, _ in extents])
    region: list[Part] = []
    length = 0
    for index in sorted(range(len(segments)), key=lambda i: extents[i][0]):
        offset, size = extents[index]
        start = layout.segment_base + offset
        data: Part = new.get(index, source[start:start + size])
        placed = _align(length, alignment) if length else offset
        region += [bytes(placed - length), data]
        length = placed + len(data)
        for field, value, old in ((SEGMENT_OFFSET, placed, offset), (SEGMENT_SIZE, len(data), size)):
            if value == old:
                continue
            position = _field(segments[index].table, field)
            if not position:
                raise CannotRestamp(f"segment {index}'s {('offset', 'size')[field]} is left at its default: "
                                    "it cannot be rewritten in place")
            flatbuffer[position:position + 8] = value.to_bytes(8, "little")
    return region


def _assembled(pte: ProgramData, layout: Layout, flatbuffer: bytearray, segment_region: list[Part]) -> list[Part]:
    """The file's parts: the flatbuffer (its extended header updated), padding, the segments."""
    region_length = sum(len(part) for part in segment_region)
    segment_base = (layout.segment_base + _align(max(0, len(flatbuffer) - layout.segment_base), PAGE)
                    if layout.segment_base else 0)
    if pte[8:12] == EXTENDED_HEADER_MAGIC:
        flatbuffer[16:24] = len(flatbuffer).to_bytes(8, "little")
        flatbuffer[24:32] = segment_base.to_bytes(8, "little")
        if int.from_bytes(pte[12:16], "little") >= 32:
            flatbuffer[32:40] = region_length.to_bytes(8, "little")
    if not segment_base:
        return [bytes(flatbuffer)]
    return [bytes(flatbuffer), bytes(segment_base - len(flatbuffer)), *segment_region]
