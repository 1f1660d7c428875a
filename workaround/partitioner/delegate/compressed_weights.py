"""Compressed weights keep their activations in floating point inside OpenVINO.

Why: a partition holding a compressed weight (NNCF's ``openvino_8wo`` / ``openvino_4wo``: integer weights and a
float16 scale, ``workaround.partitioner.rules.openvino_hand_back.decompressed_weight``) compiles to a matmul
OpenVINO's CPU plugin runs on the compressed weight. On a CPU with AVX-512 VNNI it also quantizes that matmul's
*activations* to int8, in groups of 32 (``DYNAMIC_QUANTIZATION_GROUP_SIZE``, default 32): weight-only compression
silently becomes int8 x int8. Measured on 2026.4.1, one 64 x 16 uint8 Linear: 1.9e-3 from the exact decompression
with AVX-512 VNNI, 0.0 with ``DYNAMIC_QUANTIZATION_GROUP_SIZE=0`` or on an AVX2 CPU. A compile option does not
help: the blob is imported by ExecuTorch's runtime, with the importing plugin's defaults (the option exported as 0
imports as 32). A runtime option in the model's ``rt_info`` does: it travels in the blob and is applied at import
(imported as 0, exact).

Exactness costs prefill time: int8 VNNI matmuls are faster (measured on a 4-layer 256-wide llama, 16-token
prefill: 1.36x stock pinned, 1.00x with OpenVINO's default). Whoever prefers the speed asks for it with OpenVINO's
own name among the compile specs, ``CompileSpec("DYNAMIC_QUANTIZATION_GROUP_SIZE", b"32")``: that value goes into
the blob the same way (a compile option alone would be dropped at import), and the results are then OpenVINO's
int8 x int8, not equal to the exact decompression.
"""

from typing import cast

import torch
from torch.export import ExportedProgram

from workaround.contract.openvino_types import OpenvinoModel
from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.rules.constant_folding import ConstantFolding
from workaround.partitioner.rules.value_ranges import CONVERTING

DYNAMIC_QUANTIZATION = "DYNAMIC_QUANTIZATION_GROUP_SIZE"


def holds_compressed_weights(edge_program: ExportedProgram) -> bool:
    """Whether the partition converts an integer tensor computed from its constants alone (a compressed weight,
    unpacked or not) to floating point."""
    constants = ConstantFolding(edge_program).constant
    return any(node in constants and aten_op(node) in CONVERTING and fake(node).dtype.is_floating_point
               and not fake(node.args[0]).dtype.is_floating_point for node in edge_program.graph.nodes)


def fake(node: torch.fx.Node) -> torch.Tensor:
    return cast(torch.Tensor, node.meta["val"])


UNQUANTIZED = "0"  # the group size that leaves activations in floating point


def pin_dynamic_quantization(model: OpenvinoModel, group_size: str = UNQUANTIZED) -> None:
    """Pins ``DYNAMIC_QUANTIZATION_GROUP_SIZE`` for whichever runtime imports ``model``'s blob."""
    model.set_rt_info(group_size, ["runtime_options", DYNAMIC_QUANTIZATION])
