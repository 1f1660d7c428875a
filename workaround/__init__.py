"""Workaround for the OpenVINO delegate's silent failures in ExecuTorch programs.

Two-line fix for an export script::

    from workaround import CopySafeOpenvinoPartitioner
    to_edge_transform_and_lower(ep, partitioner=[CopySafeOpenvinoPartitioner(compile_spec)])

It keeps pass-through copies out of OpenVINO partitions; compiles each partition to read and
write its boundary tensors in their own dim order, so channels-last frames and results are right
(``workaround.partitioner.hooks.preprocess``); and keeps the OpenVINO blobs of the programs it makes inside
the flatbuffer, so they load safely by path (``workaround.partitioner.hooks.inline_blobs``). Add
``CompileSpec(PRECISION_KEY, b"f32")`` to pin OpenVINO's inference precision.

Or, without editing the script: ``with copy_safe_openvino(): ...`` / ``install()``.
Check the result with ``check_program(...)`` or ``python -m workaround.check model.pte``. With OpenVINO 2026.4 a
program loads only on the CPU class that exported it: ``openvino-pte-restamp model.pte`` on the deploying host
(``python -m workaround.restamp_command``) rewrites its blobs' stamps for that host. ExecuTorch's runtime finds
OpenVINO only through ``OPENVINO_LIB_PATH``: ``eval "$(openvino-runtime-env)"`` in a shell, or
``point_executorch_at_openvino()`` before loading a program in Python.
"""

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what a user's type checker sees: the real names, not ``object`` from ``__getattr__``
    from workaround.checker.findings import Finding as Finding
    from workaround.checker.program_check import check_program as check_program
    from workaround.contract.openvino_library import point_executorch_at_openvino as point_executorch_at_openvino
    from workaround.partitioner.copy_safe_partitioner import (
        CopySafeOpenvinoPartitioner as CopySafeOpenvinoPartitioner,
    )
    from workaround.partitioner.copy_safe_partitioner import copy_safe_openvino as copy_safe_openvino
    from workaround.partitioner.copy_safe_partitioner import install as install
    from workaround.partitioner.copy_safe_partitioner import is_installed as is_installed
    from workaround.partitioner.copy_safe_partitioner import uninstall as uninstall
    from workaround.partitioner.hooks.preprocess import PRECISION_KEY as PRECISION_KEY
    from workaround.partitioner.layouts.dim_order_off import DimOrderError as DimOrderError
    from workaround.partitioner.layouts.legacy_pass import DefaultDimOrderForOpenvino as DefaultDimOrderForOpenvino
    from workaround.partitioner.rules.exclusion import CannotHandBackError as CannotHandBackError
    from workaround.partitioner.rules.exclusion import UnsafeCopyError as UnsafeCopyError
    from workaround.partitioner.rules.exclusion import hand_back_unsafe_nodes as hand_back_unsafe_nodes

# Each public name and the module it lives in. Imported on first use (PEP 562), so that importing
# the package stays cheap and ``python -m workaround.check`` does not import the module it runs twice.
_HOMES = {
    "PRECISION_KEY": "workaround.partitioner.hooks.preprocess",
    "CannotHandBackError": "workaround.partitioner.rules.exclusion",
    "CopySafeOpenvinoPartitioner": "workaround.partitioner.copy_safe_partitioner",
    "DefaultDimOrderForOpenvino": "workaround.partitioner.layouts.legacy_pass",
    "DimOrderError": "workaround.partitioner.layouts.dim_order_off",
    "Finding": "workaround.checker.findings",
    "UnsafeCopyError": "workaround.partitioner.rules.exclusion",
    "check_program": "workaround.checker.program_check",
    "copy_safe_openvino": "workaround.partitioner.copy_safe_partitioner",
    "point_executorch_at_openvino": "workaround.contract.openvino_library",
    "hand_back_unsafe_nodes": "workaround.partitioner.rules.exclusion",
    "install": "workaround.partitioner.copy_safe_partitioner",
    "is_installed": "workaround.partitioner.copy_safe_partitioner",
    "uninstall": "workaround.partitioner.copy_safe_partitioner",
}
__all__ = list(_HOMES)


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module 'workaround' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
