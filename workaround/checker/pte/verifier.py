"""Whether a .pte holds what it claims, checked before the checker reads anything from it.

Why: the ``flatbuffers`` package reads without bounds (a corrupted offset raises ``struct.error`` or, negative,
silently reads from the end of the buffer), and the checker must never judge a file on partial data: a file cut
short was called clean while ExecuTorch's runtime refused it (``0x23``). So every extent the file claims is
compared with its length before it is trusted, the way the runtime's ``Program::load`` does it with
``Verification::InternalConsistency`` (the Python runtime's default):

- the extended header's program size, segment base and segment data size against the file's length;
- the flatbuffer as flatbuffers' C++ ``Verifier`` walks it: every table, vtable, offset, vector and string
  inside the program and aligned, strings NUL-terminated, at most 64 tables deep and 1,000,000 tables.

(Each segment's offset and size are compared with the file where ``workaround.checker.pte.reader`` reads them.)

Only the fields' types are written here, by their position in ExecuTorch 1.5.1's ``schema/program.fbs``; the
walk itself is generic. A failure is ``MalformedProgram``, naming the byte where it can.
"""

from dataclasses import dataclass, field

from workaround.checker.pte.file import ProgramData
from workaround.checker.pte.program_schema import TABLES, UNIONS

IDENTIFIER = b"ET12"  # program.fbs's file_identifier: the runtime refuses any other
EXTENDED_HEADER_MAGIC = b"eh00"
MAX_DEPTH, MAX_TABLES = 64, 1_000_000  # flatbuffers::Verifier's defaults, which the runtime uses

WIDTHS = {"u8": 1, "i8": 1, "i32": 4, "u32": 4, "i64": 8, "u64": 8, "f64": 8}


class MalformedProgram(ValueError):
    """The file claims something it does not hold: an extent past its end, an offset that points nowhere."""

    def __init__(self, what: str, offset: int | None = None) -> None:
        super().__init__(f"byte {offset}: {what}" if offset is not None else what)
        self.offset = offset


@dataclass(frozen=True)
class Layout:
    """Where the program's parts are: the flatbuffer is the first ``program_size`` bytes, segments count
    from ``segment_base``."""
    program_size: int
    segment_base: int
    file_size: int


def layout(pte: ProgramData) -> Layout:
    """The file's layout from its extended header, every extent checked against its length (as the runtime's
    ``Program::load``: the program size, and the segment base plus the segment data size where it is given)."""
    size = len(pte)
    if size < 8 or pte[4:8] != IDENTIFIER:
        found = pte[4:8].decode("ascii", "backslashreplace") if size >= 8 else "nothing (the file is shorter)"
        raise MalformedProgram(f"not an ExecuTorch program: the identifier is {found!r}, not 'ET12'", 4)
    if pte[8:12] != EXTENDED_HEADER_MAGIC:
        return Layout(size, 0, size)
    if size < 32:
        raise MalformedProgram(f"the extended header is cut short ({size} bytes of the file)", 8)
    header_length = int.from_bytes(pte[12:16], "little")
    if header_length < 24:  # what the runtime requires of it (it reads no more than it needs)
        raise MalformedProgram(f"the extended header claims {header_length} bytes, fewer than its 24", 12)
    program_size = int.from_bytes(pte[16:24], "little")
    segment_base = int.from_bytes(pte[24:32], "little")
    segment_data = int.from_bytes(pte[32:40], "little") if header_length >= 32 else 0
    if not 8 <= program_size <= size:
        raise MalformedProgram(f"the extended header claims a {program_size}-byte program in a {size}-byte file",
                               16)
    if segment_base and not program_size <= segment_base <= size:
        raise MalformedProgram(f"the extended header puts segments at byte {segment_base}, outside the "
                               f"{size}-byte file (or inside its {program_size}-byte program)", 24)
    if segment_base + segment_data > size:
        raise MalformedProgram(f"the extended header claims {segment_data} bytes of segments from byte "
                               f"{segment_base}: the file ends at {size}", 32)
    return Layout(program_size, segment_base, size)


@dataclass
class Offsets:
    """Every offset a verified flatbuffer holds, by where it is stored: what moving part of it must follow.
    ``complete`` is False when the walk met a field or union member ExecuTorch 1.5.1's schema does not name (a
    newer release's): its offsets, if it has any, are not listed."""
    forward: set[tuple[int, int]] = field(default_factory=set)  # (where a uoffset is stored, where it points)
    vtables: set[tuple[int, int]] = field(default_factory=set)  # (a table, its vtable)
    complete: bool = True


class _Verifier:
    """flatbuffers' Verifier over one program: bounds, alignment, NUL-terminated strings, depth and count; what
    it walks is listed in ``offsets``."""

    def __init__(self, program: bytes) -> None:
        self.buffer, self.depth, self.tables = program, 0, 0
        self.offsets = Offsets()

    def span(self, position: int, length: int, align: int, what: str) -> None:
        if position < 0 or position + length > len(self.buffer):
            raise MalformedProgram(f"{what} ({length} bytes) runs past the program's end "
                                   f"(byte {len(self.buffer)})", position)
        if position % align:
            raise MalformedProgram(f"{what} is not {align}-byte aligned", position)

    def read(self, position: int, width: int, what: str, signed: bool = False) -> int:
        self.span(position, width, width, what)
        return int.from_bytes(self.buffer[position:position + width], "little", signed=signed)

    def target(self, position: int, what: str) -> int:
        """Where the offset stored at ``position`` points (an offset of 0 or beyond 2**31 points nowhere)."""
        offset = self.read(position, 4, f"the offset to {what}")
        if offset == 0 or offset >= 1 << 31:
            raise MalformedProgram(f"the offset to {what} is {offset}", position)
        self.span(position + offset, 1, 1, what)
        self.offsets.forward.add((position, position + offset))
        return position + offset

    def vector(self, position: int, width: int, what: str) -> tuple[int, int]:
        """(first element, count) of the vector at ``position``."""
        count = self.read(position, 4, f"the length of {what}")
        if count >= (1 << 31) // width:
            raise MalformedProgram(f"{what} claims {count} elements", position)
        self.span(position, 4 + width * count, 4, what)
        return position + 4, count

    def string(self, position: int, what: str) -> None:
        start, count = self.vector(position, 1, what)
        self.span(start + count, 1, 1, f"{what}'s terminating NUL")
        if self.buffer[start + count] != 0:
            raise MalformedProgram(f"{what} is not NUL-terminated", start + count)

    def table(self, position: int, name: str) -> None:
        self.depth += 1
        self.tables += 1
        if self.depth > MAX_DEPTH or self.tables > MAX_TABLES:
            raise MalformedProgram(f"tables nest deeper than {MAX_DEPTH} or number over {MAX_TABLES}", position)
        vtable = position - self.read(position, 4, f"a {name} table", signed=True)
        vtable_size = self.read(vtable, 2, f"the vtable of a {name} table")
        if vtable_size % 2 or vtable_size < 4:
            raise MalformedProgram(f"the vtable of a {name} table claims {vtable_size} bytes", vtable)
        self.span(vtable, vtable_size, 2, f"the vtable of a {name} table")
        self.offsets.vtables.add((position, vtable))
        slot = 0
        for kind in TABLES[name]:
            what = f"field {slot} of a {name} table"
            if kind.startswith("union "):  # two slots: the type tag, then the value
                tag = self.field(self.field_position(position, vtable, vtable_size, slot), "u8", what)
                slot += 1
                where = self.field_position(position, vtable, vtable_size, slot)
                members = UNIONS[kind.removeprefix("union ")]
                if where and 0 < tag <= len(members):
                    self.table(self.target(where, f"the value of a {name} table"), members[tag - 1])
                elif where:
                    self.offsets.complete = False
            else:
                self.field(self.field_position(position, vtable, vtable_size, slot), kind, what)
            slot += 1
        beyond = range(slot, vtable_size // 2)  # more than the vtable has: field_position says 0 past its end
        if any(self.field_position(position, vtable, vtable_size, later) for later in beyond):
            self.offsets.complete = False
        self.depth -= 1

    def field_position(self, table: int, vtable: int, vtable_size: int, slot: int) -> int:
        """Where a field is stored, or 0 when the table leaves it out."""
        entry = 4 + 2 * slot
        if entry >= vtable_size:
            return 0
        offset = int.from_bytes(self.buffer[vtable + entry:vtable + entry + 2], "little")
        return table + offset if offset else 0

    def field(self, position: int, kind: str, what: str) -> int:
        """Verify one field stored at ``position`` (0: absent) and what it points to; a scalar's value is
        returned, 0 when absent."""
        if not position:
            return 0
        if kind in WIDTHS:
            return self.read(position, WIDTHS[kind], what)
        target = self.target(position, what)
        if kind == "str":
            self.string(target, what)
        elif kind.startswith("["):
            element = kind[1:-1]
            start, count = self.vector(target, WIDTHS.get(element, 4), what)
            if element not in WIDTHS:
                for index in range(count):
                    self.table(self.target(start + 4 * index, f"element {index} of {what}"), element)
        else:
            self.table(target, kind)
        return 0


def _walked(program: bytes) -> _Verifier:
    verifier = _Verifier(program)
    verifier.table(verifier.target(0, "the root table"), "Program")
    return verifier


def verify(pte: ProgramData) -> Layout:
    """The file's layout, once its header, its flatbuffer and its segments' extents are checked; raises
    MalformedProgram naming the first thing that is not so."""
    found = layout(pte)
    _walked(pte[:found.program_size])
    return found


def offsets(flatbuffer: bytes) -> Offsets:
    """Every offset in a program's flatbuffer (its first ``Layout.program_size`` bytes), verified as ``verify``
    does."""
    return _walked(flatbuffer).offsets
