"""Keep every OpenVINO delegate's compiled model inside the program's flatbuffer.

Why: ExecuTorch 1.5.1's OpenVINO backend imports a delegate with
``ov_core_import_model(core, processed->data(), size, ...)`` and then calls
``processed->Free()``. From OpenVINO 2026.4.0 that import no longer copies the content: the
CPU plugin keeps pointers into it for the constants it reads in place (biases, eltwise
operands). When the program is loaded from a file, its delegate data sits in a separate
segment that ``Free()`` unmaps or frees, so the first ``execute`` crashes (or, once the
pages are reused, reads other data). A blob stored inline in the flatbuffer is part of the
program's own data, which the runtime keeps for as long as the program lives, whatever the
loader (``Runtime.load_program(path)``, the C++ ``Module``'s mmap loader, bytes).

How: the copy-safe partition marks the nodes it hands to OpenVINO (``workaround.contract.provenance``;
the mark travels into the lowered module), and ``to_executorch`` serializes a program that has a
marked OpenVINO delegate with ``ExecutorchBackendConfig(extract_delegate_segments=False)``, the
rest of the caller's config kept as given. Every other program is serialized exactly as before,
so the rule follows the partitioner, not the order in which a process did things.
Measured cost: none beyond noise (docs/measurements.md, `by_path_cost`). Limit: flatbuffers
cap a program at 2 GiB. The partitioner keeps each method's blobs under 1 GiB of constants by leaving the largest
in ExecuTorch's constant segment (``workaround.partitioner.rules.large_constants``); a program whose blobs still
pass ``INLINE_LIMIT`` (constants it could not leave out, or many methods) is refused here in one line
(``ProgramTooLargeError``) before serializing, never with flatbuffers' traceback from the middle of it.

The same hook drops the 0-size constants such a program's delegates left unused
(``workaround.partitioner.hooks.empty_constants``), the other reason a program can load from bytes but not by path.

``CopySafeOpenvinoPartitioner`` hooks ``to_executorch`` when constructed, ``workaround.install()``
does too, and ``workaround.uninstall()`` restores it.
"""

import dataclasses
from collections.abc import Iterator
from typing import Any

from executorch.exir import ExecutorchBackendConfig
from executorch.exir.lowered_backend_module import LoweredBackendModule
from executorch.exir.program._program import EdgeProgramManager
from torch.export import ExportedProgram

from workaround.contract.provenance import OPENVINO_BACKEND, made_by_workaround
from workaround.partitioner.delegate.state import refuse_state_shared_across_methods
from workaround.partitioner.hooks.empty_constants import drop_unused_empty_constants
from workaround.partitioner.hooks.method_patch import MethodPatch
from workaround.partitioner.rules.large_constants import LIFTABLE_DTYPES, SMALLEST_LIFTED


def openvino_modules_of(exported_program: ExportedProgram) -> Iterator[LoweredBackendModule]:
    """Every OpenVINO delegate of one method, in its order."""
    for module in exported_program.graph_module.modules():
        if isinstance(module, LoweredBackendModule) and module.backend_id == OPENVINO_BACKEND:
            yield module


def lowered_openvino_modules(edge_program_manager: EdgeProgramManager) -> Iterator[LoweredBackendModule]:
    """Every OpenVINO delegate of every method, in the program's order."""
    for name in edge_program_manager.methods:
        yield from openvino_modules_of(edge_program_manager.exported_program(name))


def owned_state(exported_program: ExportedProgram) -> set[str]:
    """The buffers the method's OpenVINO delegates keep as state (``workaround.partitioner.delegate.state``)."""
    return {buffer for module in openvino_modules_of(exported_program)
            for buffer in module.original_module.graph_signature.buffers_to_mutate.values()}


def has_marked_openvino_delegate(edge_program_manager: EdgeProgramManager) -> bool:
    return any(made_by_workaround(module.original_module.graph)
               for module in lowered_openvino_modules(edge_program_manager))


# What the blobs may take of the flatbuffer's 2**31 - 1 bytes: the rest of the program (its plans, tensors'
# metadata, operator names) is a few MiB even for an LLM.
INLINE_LIMIT = (1 << 31) - (64 << 20)
_LIFTED_DTYPES = ", ".join(sorted(str(dtype).removeprefix("torch.") for dtype in LIFTABLE_DTYPES))
WAY_OUT = (f"keep fewer constants in OpenVINO (those of {_LIFTED_DTYPES} of {SMALLEST_LIFTED} bytes or more "
           "are left out on their own), or export with workaround.uninstall() (blobs in segments) and load with "
           "ExecuTorch's runtime rebuilt with the blob-lifetime fix: "
           "python -m repro.harness.lowering.executorch_patches build DIR --source EXECUTORCH_CHECKOUT")


class ProgramTooLargeError(ValueError):
    """The program's OpenVINO blobs cannot all be kept inline: the flatbuffer would pass 2 GiB."""


def openvino_blob_bytes(edge_program_manager: EdgeProgramManager) -> int:
    return sum(len(module.processed_bytes) for module in lowered_openvino_modules(edge_program_manager))


def refuse_past_the_flatbuffer_limit(edge_program_manager: EdgeProgramManager) -> None:
    size = openvino_blob_bytes(edge_program_manager)
    if size > INLINE_LIMIT:
        raise ProgramTooLargeError(
            f"the program's OpenVINO blobs take {size} bytes ({size / 2**30:.2f} GiB), over the {INLINE_LIMIT} "
            f"bytes a flatbuffer (2 GiB at most) can hold inline, where a blob is safe to load by path: {WAY_OUT}")


def _to_executorch_with_inline_openvino_blobs(  # returns an ExecutorchProgramManager (ExecuTorch is untyped)
        self: EdgeProgramManager, config: ExecutorchBackendConfig | None = None) -> Any:
    if has_marked_openvino_delegate(self):
        refuse_past_the_flatbuffer_limit(self)
        refuse_state_shared_across_methods(
            {name: owned_state(self.exported_program(name)) for name in self.methods},
            (config or ExecutorchBackendConfig()).memory_planning_pass)
        config = dataclasses.replace(config or ExecutorchBackendConfig(), extract_delegate_segments=False)
        for name in self.methods:
            drop_unused_empty_constants(self.exported_program(name))
    return INLINE_BLOBS.stock(self, config)


INLINE_BLOBS = MethodPatch(EdgeProgramManager, "to_executorch", _to_executorch_with_inline_openvino_blobs)
