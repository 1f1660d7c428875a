"""Sizes read inside the delegate.

OpenVINO's PyTorch frontend converts ``aten.sym_size.int`` (a ShapeOf and a Gather) and lists it as supported,
but ExecuTorch's ``OpenvinoOperatorsSupport`` looks an op up as ``"torch.ops." + target.__name__``, and this op
stays a plain ``OpOverload`` in the edge dialect, whose ``__name__`` is ``sym_size.int``: it is never delegated.
Each size a dynamic-shaped model reads then crosses into a partition as a SymInt input, which lowering cannot take
(``'SymInt' object has no attribute 'type'``) and the copy rule must hand back with everything it feeds. An LLM
exported with ExecuTorch's pipeline default (``enable_dynamic_shape=true``) lost 70 to 90 % of its nodes to
ExecuTorch's kernels that way, and then failed in the pipeline's ``ConvertToLinearPass``.

Enabled by name, through the stock partitioner's own ``_enabled_ops_by_name`` (which it fills for NNCF's
patterns), the sizes are read inside the delegate from its tensor inputs, for the one partitioning call. The
upstream fix looks such ops up by their qualified name (``repro/patches/executorch/symbolic-sizes``).
"""

import contextlib
from collections.abc import Iterator
from typing import Any

import torch
from torch.export import ExportedProgram

SIZE = torch.ops.aten.sym_size.int


def size_reads(exported_program: ExportedProgram) -> set[str]:
    return {node.name for node in exported_program.graph.nodes
            if node.op == "call_function" and node.target is SIZE}


@contextlib.contextmanager
def sizes_read_in_the_delegate(stock: Any, exported_program: ExportedProgram) -> Iterator[None]:
    """While the stock ``partition`` of ``stock`` (an ``OpenvinoPartitioner``) runs: its support check takes
    ``exported_program``'s ``sym_size`` nodes."""
    enabled: set[str] = stock._enabled_ops_by_name
    added = size_reads(exported_program) - enabled
    enabled |= added
    try:
        yield
    finally:
        enabled -= added
