"""This process's memory as Linux reports it (``/proc/self/status``), for the runs that state what they hold: the
Python twin of ``process_memory.h``, which the C++ runners share."""

from pathlib import Path


def status_bytes(field: str) -> int:
    """A ``/proc/self/status`` field given in kB (``VmRSS``, ``VmHWM``, ...), in bytes."""
    status = Path("/proc/self/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith(f"{field}:"))) * 1024


def peak_bytes() -> int:
    """This process's peak resident memory: ``VmHWM``, which starts anew at ``exec`` (Linux keeps ``ru_maxrss``
    across fork and exec, so a child of a large parent would report the parent's)."""
    return status_bytes("VmHWM")


def resident_bytes() -> int:
    """What this process holds now (``VmRSS``)."""
    return status_bytes("VmRSS")
