"""INT8 models made with ExecuTorch's documented flow (``OpenVINOQuantizer``, ``prepare_pt2e``,
calibration, ``convert_pt2e``), and the reference a lowering of them is held to.

Why not the fake-quant eager model: OpenVINO runs the quantized graph in real INT8 arithmetic, whose
rounding differs from PyTorch's fake quantization by an amount that depends on the CPU (measured: 0.3 %
of the output's range on an AVX-512 VNNI EPYC, up to 26 % on an AVX2-only one), identically with or
without the workaround. What a copy or layout bug changes is the value itself, so the reference is
OpenVINO's own result for the same quantized graph: ``openvino.convert_model`` of the exported quantized
program, compiled for CPU and run by plain OpenVINO (its convenience call allocates the outputs itself,
so no stale copy), on contiguous inputs. A lowering that equals it to ``REFERENCE_ATOL`` is right; the
stale copy and the channels-last bug differ from it by the size of the values.

``python -m repro.harness.models.int8`` prints, per model, how far plain OpenVINO is from the fake-quant eager
model on this CPU (JSON, with the ISA flags OpenVINO sees).
"""

import json
import sys
from collections.abc import Mapping, Sequence

import numpy as np
import torch

from repro.harness.models.seed import SEED

# Measured: the workaround's programs equal the reference exactly (0.0) where the inputs are contiguous; with a
# channels-last input converted inside the delegate, other kernels run: 0.0039 (two bf16 steps at ~0.4). The bugs
# differ by the size of the values: 0.18 to 1.0 with the stock partitioner (tests/gate/test_int8.py).
REFERENCE_ATOL = 1e-2


class CopyAndConvolve(torch.nn.Module):
    """Returns a copy of its input beside two convolutions of it."""

    def __init__(self) -> None:
        super().__init__()
        self.first, self.second = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x.clone(), self.second(torch.relu(self.first(x)))


class Convolve(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first, self.second = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.Conv2d(8, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.second(torch.relu(self.first(x)))


def mlp() -> torch.nn.Sequential:
    return torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 8))


# name -> (what, the float model, one input, channels-last input)
MODELS = {
    "int8_cnn_returning_input_copy": ("x.clone() and conv(relu(conv(x))), INT8", CopyAndConvolve, (1, 3, 16, 16),
                                      False),
    "int8_channels_last_cnn": ("conv(relu(conv(x))), x channels-last, INT8", Convolve, (1, 3, 16, 16), True),
    "int8_mlp": ("Linear(16, 32), ReLU, Linear(32, 8), INT8", mlp, (4, 16), False),
}


def example(name: str, generator: torch.Generator) -> torch.Tensor:
    _, _, shape, channels_last = MODELS[name]
    x = torch.rand(*shape, generator=generator)
    return x.contiguous(memory_format=torch.channels_last) if channels_last else x


def quantized(name: str) -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    """(the quantized GraphModule, its inputs): seeded weights, 8 seeded calibration inputs."""
    from executorch.backends.openvino.quantizer.quantizer import OpenVINOQuantizer
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e

    generator = torch.Generator().manual_seed(SEED)
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        model = MODELS[name][1]().eval()
    inputs = (example(name, generator),)
    prepared = prepare_pt2e(torch.export.export(model, inputs).module(), OpenVINOQuantizer())
    for _ in range(8):
        prepared(example(name, generator))
    return convert_pt2e(prepared, fold_quantize=False), inputs


def openvino_reference(module: torch.nn.Module, inputs: Sequence[torch.Tensor],
                       config: Mapping[str, str] | None = None) -> list[np.ndarray]:
    """Plain OpenVINO's outputs (numpy) for ``module`` on ``inputs`` (made contiguous), on CPU."""
    import openvino

    contiguous = tuple(tensor.contiguous() for tensor in inputs)
    model = openvino.convert_model(torch.export.export(module, contiguous))
    compiled = openvino.Core().compile_model(model, "CPU", config or {})
    return [np.asarray(value) for value in compiled([tensor.numpy() for tensor in contiguous]).values()]


def fake_quant_gap(name: str) -> list[dict[str, float]]:
    """How far plain OpenVINO's INT8 result is from the fake-quant eager model, per output."""
    module, inputs = quantized(name)
    outputs = module(*inputs)
    eager = [output.detach().numpy() for output in (outputs if isinstance(outputs, tuple) else (outputs,))]
    reference = openvino_reference(module, inputs)
    return [{"max_abs_diff": float(np.abs(ov - ref).max()), "output_range": float(ref.max() - ref.min())}
            for ov, ref in zip(reference, eager, strict=True)]


def main(argv: list[str] | None = None) -> int:
    from repro.harness import cli

    cli.parser("Print, per model, how far plain OpenVINO is from the fake-quant eager model on this CPU (JSON, "
               "with the ISA flags OpenVINO sees).", "exit status: 0 the gaps were printed, 2 usage error",
               prog="python -m repro.harness.models.int8").parse_args(argv)
    import openvino

    core = openvino.Core()
    report = {"cpu": core.get_property("CPU", "FULL_DEVICE_NAME"),
              "optimization_capabilities": core.get_property("CPU", "OPTIMIZATION_CAPABILITIES"),
              "openvino": openvino.get_version(), "models": {name: fake_quant_gap(name) for name in MODELS}}
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
