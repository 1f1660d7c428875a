"""``DefaultDimOrderForOpenvino``, the transform pass earlier versions of the workaround needed, kept so that
export scripts that still pass it keep working; it now changes nothing and says so."""

import warnings

import torch
from executorch.exir.pass_base import ExportPass, PassResult


class DefaultDimOrderForOpenvino(ExportPass):  # type: ignore[misc]  # ExecuTorch is untyped
    """No longer needed, and now a no-op: the copy-safe partitioner compiles each OpenVINO partition to
    honour its boundary dim orders. Kept so that export scripts written for earlier versions run."""

    def call(self, graph_module: torch.fx.GraphModule) -> PassResult:
        warnings.warn("DefaultDimOrderForOpenvino is no longer needed and does nothing: "
                      "CopySafeOpenvinoPartitioner alone handles channels-last tensors at partition boundaries. "
                      "Remove it from transform_passes.", DeprecationWarning, stacklevel=2)
        return PassResult(graph_module, False)
