"""A drop-in OpenvinoPartitioner that never lets a pass-through copy leave a partition.

Use ``CopySafeOpenvinoPartitioner(compile_spec)`` wherever an export script builds
``OpenvinoPartitioner(compile_spec)``: same constructor, same delegation spec, same
op support; only copies whose result leaves their partition are handed back to
ExecuTorch (see ``workaround.exclusion`` for the rule and why it is safe).

The delegates it makes keep their OpenVINO blobs inline in the program, so the program is
safe to load by path on OpenVINO 2026.4 (see ``workaround.inline_blobs``). Serialization
happens in ``to_executorch``, after the partitioner is done, so constructing it hooks
``to_executorch`` for the process (until ``uninstall()``); the hook acts only on programs
whose OpenVINO delegates this rule made.

For scripts you cannot edit, ``install()`` (undone by ``uninstall()``) or the
``copy_safe_openvino()`` context manager make every ``OpenvinoPartitioner`` apply
the same rules, including instances created before the call.
"""

import contextlib

from executorch.backends.openvino.partitioner import OpenvinoPartitioner
from executorch.exir.backend.partitioner import Partitioner, PartitionResult

from workaround.exclusion import TAG, exclude_escaping_copies
from workaround.inline_blobs import (
    keep_openvino_blobs_inline,
    keeps_openvino_blobs_inline,
    mark_partitioned_nodes,
    restore_delegate_segments,
)

# The stock method, kept before any install() so both routes run the stock rule exactly once.
_STOCK_PARTITION = OpenvinoPartitioner.partition


def _partition_without_escaping_copies(stock, exported_program):
    result = _STOCK_PARTITION(stock, exported_program)
    tags = exclude_escaping_copies(result.tagged_exported_program, result.partition_tags)
    mark_partitioned_nodes(result.tagged_exported_program, TAG)
    return PartitionResult(tagged_exported_program=result.tagged_exported_program, partition_tags=tags)


class CopySafeOpenvinoPartitioner(Partitioner):
    """OpenvinoPartitioner plus the copy exclusion. The stock class is final, so this composes it."""

    def __init__(self, compile_spec, op_types_to_skip=None, op_names_to_skip=None):
        self.stock = OpenvinoPartitioner(compile_spec, op_types_to_skip, op_names_to_skip)
        super().__init__()
        self.delegation_spec = self.stock.delegation_spec
        keep_openvino_blobs_inline()

    def ops_to_not_decompose(self, ep):
        return self.stock.ops_to_not_decompose(ep)

    def partition(self, exported_program):
        return _partition_without_escaping_copies(self.stock, exported_program)


def install():
    """Make every OpenvinoPartitioner, existing or future, apply the copy exclusion, and every
    program with an OpenVINO delegate keep its blobs inline."""
    OpenvinoPartitioner.partition = _partition_without_escaping_copies
    keep_openvino_blobs_inline()


def uninstall():
    """Restore the stock OpenvinoPartitioner.partition and EdgeProgramManager.to_executorch."""
    OpenvinoPartitioner.partition = _STOCK_PARTITION
    restore_delegate_segments()


def is_installed():
    return OpenvinoPartitioner.partition is _partition_without_escaping_copies


@contextlib.contextmanager
def copy_safe_openvino():
    """``with copy_safe_openvino(): <unchanged export script>``; restores the previous state after."""
    partition_was_patched, blobs_were_inline = is_installed(), keeps_openvino_blobs_inline()
    install()
    try:
        yield
    finally:
        if not partition_was_patched:
            OpenvinoPartitioner.partition = _STOCK_PARTITION
        if not blobs_were_inline:
            restore_delegate_segments()
