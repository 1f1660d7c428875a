"""Blobs in a segment: ExecuTorch 1.5.1's backend frees one right after importing it, and OpenVINO from 2026.4.0 on
still reads the constants it does not repack from it. Whether a compiled model does is asked of OpenVINO
(``workaround.checker.blob_lifetime``); one that does, or may, is a finding (``delegate_blob_in_segment``)."""

import re
from dataclasses import dataclass

from workaround.checker.blob_lifetime import BlobUse
from workaround.checker.findings import Finding
from workaround.contract.finding_kinds import FindingKind

# The releases measured to crash (or read freed memory) by path with a blob in a segment: the first whose C API
# import keeps pointers into the caller's memory (older ones copy it).
USE_AFTER_FREE_RELEASES = "OpenVINO 2026.4.0 and later (measured: 2026.4.0, 2026.4.1; 2026.3.1 and older are safe)"
IMPORT_KEEPS_CALLER_MEMORY_FROM = (2026, 4, 0)


def import_keeps_caller_memory(release: str) -> bool:
    """Whether ``release``'s C API import leaves the compiled model pointing into the memory it was given."""
    numbers = [int(part) for part in re.findall(r"\d+", release)[:3]]
    return tuple(numbers) >= IMPORT_KEEPS_CALLER_MEMORY_FROM


SEGMENT_BLOB_FREED = ("OpenVINO delegate {index}'s compiled model is stored in a segment that ExecuTorch's "
                      "OpenVINO backend frees right after importing it, and {why}: loaded from a file, the "
                      f"program crashes or reads freed memory with {USE_AFTER_FREE_RELEASES}. Re-export with "
                      "ExecutorchBackendConfig(extract_delegate_segments=False) or the workaround's partitioner")
WHY = {BlobUse.READS: "its compiled model reads that blob after import (asked of OpenVINO here: with the blob's "
                      "pages taken away after import, running it faulted)",
       BlobUse.UNKNOWN: "whether its compiled model reads that blob after import could not be asked here"}


def segment_finding(index: int, use: BlobUse | None) -> list[Finding]:
    """The finding of a segment blob whose compiled model reads it after import, or may (``use`` None: it
    could not be asked); none for one that keeps nothing of it."""
    why = WHY.get(use or BlobUse.UNKNOWN)
    if why is None:
        return []
    return [Finding(FindingKind.DELEGATE_BLOB_IN_SEGMENT, index, None, SEGMENT_BLOB_FREED.format(index=index,
                                                                                                 why=why))]


@dataclass(frozen=True)
class SegmentBlob:
    """A blob ExecuTorch's backend frees after import, and whether its compiled model reads it then (None: it
    could not be asked here)."""
    delegate: int
    use: BlobUse | None
