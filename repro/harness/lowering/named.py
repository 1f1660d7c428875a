"""The named ways a case is lowered: the stock ``OpenvinoPartitioner``, the workaround, or no partitioner.

A ``Lowering`` is a name (for records, file names and tables) and a factory returning a fresh
(partitioner or None, transform passes) each time; a candidate partitioner under review is one
more ``Lowering`` (``repro.harness.lowering.candidates``), never an entry added to this table.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# (an ExecuTorch Partitioner or None, transform passes), made fresh for each lowering; ExecuTorch is untyped.
Made = tuple[Any, list[Any]]


@dataclass(frozen=True)
class Lowering:
    name: str
    make: Callable[[], Made]
    # It promises PyTorch's -0.0 (special_values="torch"): its outputs' zeros are held to eager's sign too.
    signed_zeros: bool = False


def stock_partitioner() -> Made:
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir.backend.backend_details import CompileSpec

    return OpenvinoPartitioner([CompileSpec("device", b"CPU")]), []


def workaround_partitioner() -> Made:
    """The copy-safe partitioner: the whole fix, one line in an export script."""
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    return CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")]), []


def workaround_with_torch_special_values() -> Made:
    """The workaround asked for PyTorch's NaN, +-inf and -0.0 semantics (special_values="torch")."""
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    return CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")], special_values="torch"), []


def no_partitioner() -> Made:
    """ExecuTorch's own kernels only: what ExecuTorch can run without OpenVINO."""
    return None, []


STOCK = Lowering("stock", stock_partitioner)
WORKAROUND = Lowering("workaround", workaround_partitioner)
WORKAROUND_TORCH_SPECIAL_VALUES = Lowering("workaround-torch-special-values", workaround_with_torch_special_values,
                                           signed_zeros=True)
NONE = Lowering("none", no_partitioner)
LOWERINGS = {lowering.name: lowering for lowering in (STOCK, WORKAROUND, WORKAROUND_TORCH_SPECIAL_VALUES, NONE)}


def as_lowering(lowering: "Lowering | str") -> Lowering:
    """A ``Lowering`` as given, or the one of LOWERINGS a name names."""
    return LOWERINGS[lowering] if isinstance(lowering, str) else lowering
