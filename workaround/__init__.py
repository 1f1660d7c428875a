"""Workaround for the OpenVINO delegate's silent failures in ExecuTorch programs.

Two-line fix for an export script::

    from workaround import CopySafeOpenvinoPartitioner
    to_edge_transform_and_lower(ep, partitioner=[CopySafeOpenvinoPartitioner(compile_spec)])

It keeps pass-through copies out of OpenVINO partitions, and the OpenVINO blobs of the programs
it makes inside the flatbuffer, so they load safely by path (``workaround.inline_blobs``).

Channels-last models also need the boundary pass (see ``workaround.dim_order``)::

    to_edge_transform_and_lower(ep, transform_passes=[DefaultDimOrderForOpenvino()],
                                partitioner=[CopySafeOpenvinoPartitioner(compile_spec)])

Or, without editing the script: ``with copy_safe_openvino(): ...`` / ``install()``.
Check the result with ``check_program(...)`` or ``python -m workaround.check model.pte``.
"""

from workaround.check import Finding, check_program
from workaround.dim_order import DefaultDimOrderForOpenvino, DimOrderError
from workaround.exclusion import UnsafeCopyError, exclude_escaping_copies
from workaround.partitioner import (
    CopySafeOpenvinoPartitioner,
    copy_safe_openvino,
    install,
    is_installed,
    uninstall,
)

__all__ = [
    "CopySafeOpenvinoPartitioner",
    "DefaultDimOrderForOpenvino",
    "DimOrderError",
    "Finding",
    "UnsafeCopyError",
    "check_program",
    "copy_safe_openvino",
    "exclude_escaping_copies",
    "install",
    "is_installed",
    "uninstall",
]
