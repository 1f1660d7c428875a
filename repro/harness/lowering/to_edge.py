"""Lowering a catalogue case: ``torch.export`` -> ``to_edge_transform_and_lower`` with a ``Lowering``."""

import contextlib
import sys
from typing import TYPE_CHECKING

import torch

from repro.harness.lowering.named import Lowering
from repro.harness.models.catalogue import Case

if TYPE_CHECKING:  # ExecuTorch is imported where it is used, as before (its import takes seconds)
    from executorch.exir import EdgeCompileConfig, EdgeProgramManager


def compile_config(case: Case) -> "EdgeCompileConfig":
    from executorch.exir import EdgeCompileConfig

    return EdgeCompileConfig(_skip_dim_order=case.skip_dim_order)


def lower(case: Case, lowering: Lowering, config: "EdgeCompileConfig | None" = None) -> "EdgeProgramManager":
    """torch.export -> edge dialect (``config`` or the case's), lowered as ``lowering`` (a
    ``repro.harness.lowering.named.Lowering``) says."""
    from executorch.exir import to_edge_transform_and_lower

    partitioner, passes = lowering.make()
    dynamic_shapes = case.dynamic_shapes() if case.dynamic_shapes else None
    exported = torch.export.export(case.module(), case.inputs(), dynamic_shapes=dynamic_shapes)
    config = config or compile_config(case)
    with contextlib.redirect_stdout(sys.stderr):  # the partitioner prints every op it rejects
        return to_edge_transform_and_lower(exported, partitioner=[partitioner] if partitioner else None,
                                           transform_passes=passes, compile_config=config)
