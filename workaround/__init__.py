"""Workaround for the OpenVINO delegate's silent failures in ExecuTorch programs.

Two-line fix for an export script::

    from workaround import CopySafeOpenvinoPartitioner
    to_edge_transform_and_lower(ep, partitioner=[CopySafeOpenvinoPartitioner(compile_spec)])

It keeps pass-through copies out of OpenVINO partitions; compiles each partition to read and
write its boundary tensors in their own dim order, so channels-last frames and results are right
(``workaround.boundary_dim_orders``); and keeps the OpenVINO blobs of the programs it makes inside
the flatbuffer, so they load safely by path (``workaround.inline_blobs``). Add
``CompileSpec(PRECISION_KEY, b"f32")`` to pin OpenVINO's inference precision.

Or, without editing the script: ``with copy_safe_openvino(): ...`` / ``install()``.
Check the result with ``check_program(...)`` or ``python -m workaround.check model.pte``.
"""

from workaround.boundary_dim_orders import PRECISION_KEY
from workaround.check import Finding, check_program
from workaround.dim_order import DefaultDimOrderForOpenvino, DimOrderError
from workaround.exclusion import UnsafeCopyError, hand_back_unsafe_nodes
from workaround.partitioner import (
    CopySafeOpenvinoPartitioner,
    copy_safe_openvino,
    install,
    is_installed,
    uninstall,
)

__all__ = [
    "PRECISION_KEY",
    "CopySafeOpenvinoPartitioner",
    "DefaultDimOrderForOpenvino",
    "DimOrderError",
    "Finding",
    "UnsafeCopyError",
    "check_program",
    "copy_safe_openvino",
    "hand_back_unsafe_nodes",
    "install",
    "is_installed",
    "uninstall",
]
