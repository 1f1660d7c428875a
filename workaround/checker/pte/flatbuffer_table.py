"""One table of a verified flatbuffer, read field by field with the ``flatbuffers`` package.

``flatbuffers`` reads without bounds: only a buffer ``workaround.checker.pte.verifier`` has verified is read this
way.
"""

import re
from typing import Any

from flatbuffers import number_types
from flatbuffers.table import Table

from workaround.checker.pte.verifier import MalformedProgram

# flatbuffers ships no type information: its number_types flags are these, for the reader.
NumberFlags = Any


class Node:
    """One flatbuffer table, read field by field."""

    def __init__(self, buffer: bytes, position: int) -> None:
        self.table = Table(buffer, position)

    def _at(self, field: int) -> int:
        return int(self.table.Offset(4 + 2 * field))

    def _vector(self, offset: int) -> tuple[int, int]:
        """(start, count) of a vector field (inside the program: the verifier checked it)."""
        return int(self.table.Vector(offset)), int(self.table.VectorLen(offset))

    def scalar(self, field: int, flags: NumberFlags, default: int = 0) -> int:
        offset = self._at(field)
        return int(self.table.Get(flags, self.table.Pos + offset)) if offset else default

    def child(self, field: int) -> "Node | None":
        offset = self._at(field)
        return Node(self.table.Bytes, self.table.Indirect(self.table.Pos + offset)) if offset else None

    def children(self, field: int) -> list["Node"]:
        offset = self._at(field)
        if not offset:
            return []
        start, count = self._vector(offset)
        return [Node(self.table.Bytes, self.table.Indirect(start + 4 * i)) for i in range(count)]

    def numbers(self, field: int, flags: NumberFlags) -> list[int]:
        offset = self._at(field)
        if not offset:
            return []
        start, count = self._vector(offset)
        return [int(self.table.Get(flags, start + flags.bytewidth * i)) for i in range(count)]

    def raw(self, field: int) -> bytes:
        offset = self._at(field)
        if not offset:
            return b""
        start, count = self._vector(offset)
        return bytes(self.table.Bytes[start:start + count])

    def string_bytes(self, field: int) -> bytes:
        """A string field's bytes (b"" when absent), whatever they hold."""
        offset = self._at(field)
        return bytes(self.table.String(self.table.Pos + offset)) if offset else b""

    def text(self, field: int, what: str) -> str:
        """A string field ("" when absent) that the runtime looks things up by: one that is not UTF-8 is
        MalformedProgram."""
        try:
            return self.string_bytes(field).decode()
        except UnicodeDecodeError as error:
            where = self.table.Pos + self._at(field)
            raise MalformedProgram(f"{what} is not text ({error.reason})", where) from error

    def name(self, field: int, pattern: re.Pattern[str], what: str) -> str:
        """A string field that must be a name of ``pattern``'s form."""
        found = self.text(field, what)
        if not pattern.fullmatch(found):
            raise MalformedProgram(f"{what} {found!r} is not a name", self.table.Pos + self._at(field))
        return found

    def union(self, type_field: int, value_field: int) -> tuple[int, "Node | None"]:
        """(type tag, value table) of a union field."""
        tag = self.scalar(type_field, number_types.Uint8Flags)
        offset = self._at(value_field)
        if not offset:
            return tag, None
        value = Node(self.table.Bytes, 0)
        self.table.Union(value.table, offset)  # Union adds the table's position itself
        return tag, value


