"""ExecuTorch's LLM pipeline (``export_llm``) with the OpenVINO backend and weights left uncompressed.

``export_llama_lib._to_edge_and_lower_llama_openvino`` hands ``quantizers[0]`` to NNCF's data-aware compression
whatever the config says, so every OpenVINO export without ``quantization.pt2e_quantize`` fails with
``IndexError: list index out of range`` (executorch 1.4.1 to 1.5.1 and main; reported upstream with a one-line
fix, ``repro/patches/executorch/llm-unquantized``). ``install()`` lets such an export through without touching
the pipeline's code: an empty quantizer list becomes one marker, which the compression step, patched to know it,
returns the model uncompressed for. Compressed exports are passed on as they were.

LFM2's short convolution (``examples/models/lfm2/short_conv.py``) keeps the last inputs of each sequence in a
``conv_state`` buffer and reads it as the left padding of the next call; only ``reset_cache()``, which no runner
calls, zeroes it. ExecuTorch's ``TextLLMRunner.reset()`` starts the next conversation at position 0 and leaves
every buffer as it is: the new conversation begins with the last one's state, in every backend (measured, tiny
LFM2-class model: XNNPACK's and the workaround's programs gave the same different text after ``reset()``).
``install()`` makes the block zero its state when a call starts at position 0 (what the pipeline's other
convolution state, in ``examples/models/llama/attention.py``, already does), so an exported program starts each
conversation as eager's ``reset_cache()`` would; positions past 0 compute as before. Reported upstream with the fix
in the model (``repro/patches/executorch/lfm2-conversation-start``).

The pipeline is imported only when ``install()`` runs and the installed wheel ships it (it costs 0.4 s).
"""

import functools
import importlib.util
from typing import Any

from workaround.partitioner.hooks.method_patch import MethodPatch

PIPELINE = "executorch.examples.models.llama.export_llama_lib"
COMPRESSION = "executorch.backends.openvino.quantizer"
SHORT_CONVOLUTION = "executorch.examples.models.lfm2.short_conv"


class _Uncompressed:
    """The quantizer the pipeline is given when the config names none: compression passes the model on."""

    def __repr__(self) -> str:
        return "no weight compression"


UNCOMPRESSED = _Uncompressed()


@functools.cache
def patches() -> tuple[MethodPatch, ...]:
    """The module functions replaced, or none where the installed wheel has no LLM pipeline."""
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
            MethodPatch(compression, "apply_nncf_data_aware_compression", compress),  # type: ignore[arg-type]
            *_conversation_start())


def _conversation_start() -> tuple[MethodPatch, ...]:
    """``ShortConvBlock.forward`` zeroing its convolution's state at position 0 (see the module docstring)."""
    if importlib.util.find_spec(SHORT_CONVOLUTION) is None:
        return ()
    block = importlib.import_module(SHORT_CONVOLUTION).ShortConvBlock
    forward_stock = block.__dict__["forward"]

    def forward(self: Any, x: Any, freqs_cos: Any = None, freqs_sin: Any = None, options: Any = None) -> Any:
        position = (options or {}).get("input_pos")
        if position is not None:  # a program with a KV cache: zero at 0, unchanged elsewhere, with no branch
            state = self.conv.conv_state
            state.mul_((position.reshape(-1)[:1] != 0).to(state.dtype))
        return forward_stock(self, x, freqs_cos, freqs_sin, options)

    return (MethodPatch(block, "forward", forward),)
