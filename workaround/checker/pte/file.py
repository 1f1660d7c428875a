"""Read a .pte the checker was pointed at: a regular file, no more bytes than it has.

Why: model owners run the checker over whatever a script hands it. ``Path.read_bytes()`` on ``/dev/zero`` grows
without end (measured: ~400 MB/s until killed, deaf to Ctrl-C), and on a FIFO it blocks until a writer comes.
So the file is opened without blocking, refused unless it is a regular file, and read up to the size it had
when opened.
"""

import os
import stat
from pathlib import Path

KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device",
         stat.S_IFDIR: "a directory", stat.S_IFSOCK: "a socket"}


class UnreadableFile(OSError):
    """The path is not a regular file this process can read."""


def read_pte(path: Path) -> bytes:
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as error:
        raise UnreadableFile(error.strerror or str(error)) from error
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode):
        os.close(descriptor)
        raise UnreadableFile(f"not a regular file but {KINDS.get(stat.S_IFMT(status.st_mode), 'a special file')}")
    with os.fdopen(descriptor, "rb", buffering=0) as file:
        size = status.st_size
        data = bytearray()
        try:
            while len(data) < size and (chunk := file.read(size - len(data))):  # a read stops short of 2 GiB
                data += chunk
        except OSError as error:
            raise UnreadableFile(error.strerror or str(error)) from error
    if len(data) != size:
        raise UnreadableFile(f"it shrank while being read ({size} bytes when opened, {len(data)} read)")
    return bytes(data)
