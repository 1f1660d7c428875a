"""ExecuTorch's LLM pipeline (``export_llm``) with the OpenVINO backend and weights left uncompressed.

``export_llama_lib._to_edge_and_lower_llama_openvino`` hands ``quantizers[0]`` to NNCF's data-aware compression
whatever the config says, so every OpenVINO export without ``quantization.pt2e_quantize`` fails with
``IndexError: list index out of range`` (executorch 1.4.1 to 1.5.1 and main; reported upstream with a one-line
fix, ``repro/patches/executorch/llm-unquantized``). ``install()`` lets such an export through without touching
the pipeline's code: an empty quantizer list becomes one marker, which the compression step, patched to know it,
returns the model uncompressed for. Compressed exports are passed on as they were.

The pipeline is imported only when ``install()`` runs and the installed wheel ships it (it costs 0.4 s).
"""

import functools
import importlib.util
from typing import Any

from workaround.partitioner.hooks.method_patch import MethodPatch

PIPELINE = "executorch.examples.models.llama.export_llama_lib"
COMPRESSION = "executorch.backends.openvino.quantizer"


class _Uncompressed:
    """The quantizer the pipeline is given when the config names none: compression passes the model on."""

    def __repr__(self) -> str:
        return "no weight compression"


UNCOMPRESSED = _Uncompressed()


@functools.cache
def patches() -> tuple[MethodPatch, ...]:
    """The two module functions replaced, or none where the installed wheel has no LLM pipeline."""
    if importlib.util.find_spec(PIPELINE) is None:
        return ()
    pipeline, compression = importlib.import_module(PIPELINE), importlib.import_module(COMPRESSION)
    lower_stock = pipeline.__dict__["_to_edge_and_lower_llama_openvino"]
    compress_stock = compression.__dict__["apply_nncf_data_aware_compression"]

    def lower(builder_exported: Any, modelname: Any, quantizers: Any, *arguments: Any, **options: Any) -> Any:
        return lower_stock(builder_exported, modelname, quantizers or [UNCOMPRESSED], *arguments, **options)

    def compress(builder_exported: Any, quantizer: Any, *arguments: Any, **options: Any) -> Any:
        if quantizer is UNCOMPRESSED:
            return builder_exported
        return compress_stock(builder_exported, quantizer, *arguments, **options)

    return (MethodPatch(pipeline, "_to_edge_and_lower_llama_openvino", lower),  # type: ignore[arg-type]
            MethodPatch(compression, "apply_nncf_data_aware_compression", compress))  # type: ignore[arg-type]
