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
cap a program at 2 GiB, so a model whose OpenVINO blobs come near that cannot be kept inline.

The same hook drops the 0-size constants such a program's delegates left unused
(``workaround.partitioner.empty_constants``), the other reason a program can load from bytes but not by path.

``CopySafeOpenvinoPartitioner`` hooks ``to_executorch`` when constructed, ``workaround.install()``
does too, and ``workaround.uninstall()`` restores it.
"""

import dataclasses
from typing import Any

from executorch.exir import ExecutorchBackendConfig
from executorch.exir.lowered_backend_module import LoweredBackendModule
from executorch.exir.program._program import EdgeProgramManager

from workaround.contract.provenance import OPENVINO_BACKEND, made_by_workaround
from workaround.partitioner.empty_constants import drop_unused_empty_constants
from workaround.partitioner.method_patch import MethodPatch


def has_marked_openvino_delegate(edge_program_manager: EdgeProgramManager) -> bool:
    return any(isinstance(module, LoweredBackendModule) and module.backend_id == OPENVINO_BACKEND
               and made_by_workaround(module.original_module.graph)
               for name in edge_program_manager.methods
               for module in edge_program_manager.exported_program(name).graph_module.modules())


def _to_executorch_with_inline_openvino_blobs(  # returns an ExecutorchProgramManager (ExecuTorch is untyped)
        self: EdgeProgramManager, config: ExecutorchBackendConfig | None = None) -> Any:
    if has_marked_openvino_delegate(self):
        config = dataclasses.replace(config or ExecutorchBackendConfig(), extract_delegate_segments=False)
        for name in self.methods:
            drop_unused_empty_constants(self.exported_program(name))
    return INLINE_BLOBS.stock(self, config)


INLINE_BLOBS = MethodPatch(EdgeProgramManager, "to_executorch", _to_executorch_with_inline_openvino_blobs)
