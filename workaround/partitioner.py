"""A drop-in OpenvinoPartitioner that never lets a pass-through copy leave a partition.

Use ``CopySafeOpenvinoPartitioner(compile_spec)`` wherever an export script builds
``OpenvinoPartitioner(compile_spec)``: same constructor, same delegation spec, same
op support; only copies whose result leaves their partition are handed back to
ExecuTorch (see ``workaround.exclusion`` for the rule and why it is safe).

For scripts you cannot edit, ``install()`` (undone by ``uninstall()``) or the
``copy_safe_openvino()`` context manager make every ``OpenvinoPartitioner`` apply
the same rule, including instances created before the call.
"""

import contextlib

from executorch.backends.openvino.partitioner import OpenvinoPartitioner
from executorch.exir.backend.partitioner import Partitioner, PartitionResult

from workaround.exclusion import exclude_escaping_copies

# The stock method, kept before any install() so both routes run the stock rule exactly once.
_STOCK_PARTITION = OpenvinoPartitioner.partition


def _partition_without_escaping_copies(stock, exported_program):
    result = _STOCK_PARTITION(stock, exported_program)
    tags = exclude_escaping_copies(result.tagged_exported_program, result.partition_tags)
    return PartitionResult(tagged_exported_program=result.tagged_exported_program, partition_tags=tags)


class CopySafeOpenvinoPartitioner(Partitioner):
    """OpenvinoPartitioner plus the copy exclusion. The stock class is final, so this composes it."""

    def __init__(self, compile_spec, op_types_to_skip=None, op_names_to_skip=None):
        self.stock = OpenvinoPartitioner(compile_spec, op_types_to_skip, op_names_to_skip)
        super().__init__()
        self.delegation_spec = self.stock.delegation_spec

    def ops_to_not_decompose(self, ep):
        return self.stock.ops_to_not_decompose(ep)

    def partition(self, exported_program):
        return _partition_without_escaping_copies(self.stock, exported_program)


def install():
    """Make every OpenvinoPartitioner, existing or future, apply the copy exclusion."""
    OpenvinoPartitioner.partition = _partition_without_escaping_copies


def uninstall():
    """Restore the stock OpenvinoPartitioner.partition."""
    OpenvinoPartitioner.partition = _STOCK_PARTITION


def is_installed():
    return OpenvinoPartitioner.partition is _partition_without_escaping_copies


@contextlib.contextmanager
def copy_safe_openvino():
    """``with copy_safe_openvino(): <unchanged export script>``; restores the previous state after."""
    was_installed = is_installed()
    install()
    try:
        yield
    finally:
        if not was_installed:
            uninstall()
