"""Read a .pte the checker was pointed at: a regular file, no more bytes than it has.

Why: model owners run the checker over whatever a script hands it. ``Path.read_bytes()`` on ``/dev/zero`` grows
without end (measured: ~400 MB/s until killed, deaf to Ctrl-C), and on a FIFO it blocks until a writer comes.
So the file is opened without blocking and refused unless it is a regular file.

It is mapped, not read: a program past 2 GiB (an LLM ships at 1-5 GB) keeps its weights in segments the checker
never looks at, and reading them cost twice the file in memory (a 2.3 GB program: 5.0 GB resident, measured);
mapped, only the pages read (the flatbuffer, the OpenVINO blobs) are resident. A mapping's slices are ``bytes``,
as the file's were. The price: a file cut short by another process while it is being checked ends this one with
SIGBUS, where a read said "it shrank"; a program being written is not one to check yet.
"""

import mmap
import os
import stat
from pathlib import Path
from typing import TypeAlias

ProgramData: TypeAlias = bytes | mmap.mmap  # a program's bytes, or the file mapped (its slices are bytes)

KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
         stat.S_IFDIR: "a directory", stat.S_IFSOCK: "a socket"}


class UnreadableFile(OSError):
    """The path is not a regular file this process can read."""


def read_pte(path: Path) -> ProgramData:
    """The regular file at ``path``, mapped read-only (``b""`` when it is empty: nothing to map)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from error
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            kind = KINDS.get(stat.S_IFMT(status.st_mode), 'a special file')
            raise UnreadableFile(f"not a regular file but {kind}")
        if status.st_size == 0:
            return b""
        try:
            return mmap.mmap(descriptor, status.st_size, access=mmap.ACCESS_READ)
        except OSError as error:
            raise UnreadableFile(error.strerror or str(error)) from error
    finally:
        os.close(descriptor)  # the mapping keeps the file open itself
