"""What a channels-last frame costs with the workaround, against a contiguous frame and eager PyTorch.

The same two-conv stack, per frame size: (a) the workaround's program on a channels-last frame
(the delegate reads the frame and writes the result in channels-last itself), (b) the stock
partitioner's program on a contiguous frame (nothing to convert; correct by construction),
timed interleaved in one process with the real ExecuTorch runtime, loaded by path; (c) eager
PyTorch on the channels-last frame. Eager is timed first, before any OpenVINO work in this
process: OpenVINO's worker threads keep both cores busy afterwards and slow torch by up to 70x.
Goals: workaround <= 0.5x the contiguous export at 224x224, <= 0.75x at 32x32, and no slower
than eager. Prints one JSON object and a summary line per size.

    python benchmarks/dim_order_cost.py [--repeats 200] [--sizes 32,224]
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

import torch

from benchmarks.timing import interleaved_timings
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import STOCK, WORKAROUND, Lowering
from repro.harness.models import catalogue
from repro.harness.runtime.available import check_runtime


class ConvStack(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.layers = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                                          torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.ReLU())

    def forward(self, x):
        return self.layers(x)


def frames(size):
    contiguous = torch.rand(1, 3, size, size, generator=torch.Generator().manual_seed(1))
    return contiguous, contiguous.to(memory_format=torch.channels_last)


def f32_workaround():
    """The workaround with OpenVINO's inference precision pinned to f32 (bf16 by default on CPUs with it)."""
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import PRECISION_KEY, CopySafeOpenvinoPartitioner

    return CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU"), CompileSpec(PRECISION_KEY, b"f32")]), []


BENCHED = {way.name: way for way in (WORKAROUND, Lowering("workaround_f32", f32_workaround), STOCK)}


def load_by_path(module, frame, partitioner, folder, keep):
    """(run, delegate count): lowered, written to a file with the blob inline (the stock program would
    crash by path on OpenVINO 2026.4 otherwise), loaded by path as a deployment does."""
    from executorch.exir import ExecutorchBackendConfig
    from executorch.runtime import Runtime

    case = catalogue.Case("bench", "bench", module, lambda: (frame,))
    program = to_edge.lower(case, BENCHED[partitioner]).to_executorch(
        ExecutorchBackendConfig(extract_delegate_segments=False))
    path = Path(folder) / f"{partitioner}.{frame.shape[-1]}.pte"
    path.write_bytes(program.buffer)
    loaded = Runtime.get().load_program(path)
    keep.append(loaded)  # a method must not outlive its program
    method = loaded.load_method("forward")
    return (lambda: method.execute([frame])), len(program.executorch_program.execution_plan[0].delegates)


def time_eager(module, frame, repeats):
    with torch.no_grad():
        return interleaved_timings({"eager": lambda: module(frame)}, repeats)["eager"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--sizes", default="32,224", help="comma-separated frame sizes")
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    module = ConvStack().eval()
    eager = {size: time_eager(module, frames(size)[1], args.repeats) for size in sizes}
    check_runtime()
    results, keep = [], []
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            contiguous, channels_last = frames(size)
            workaround, delegates = load_by_path(module, channels_last, "workaround", folder, keep)
            stock, stock_delegates = load_by_path(module, contiguous, "stock", folder, keep)
            pinned, _ = load_by_path(module, channels_last, "workaround_f32", folder, keep)
            error = float((workaround()[0] - module(contiguous)).abs().max())
            timings = interleaved_timings({"workaround_channels_last": workaround, "stock_contiguous": stock,
                                           "workaround_f32_channels_last": pinned}, args.repeats)
            timings["eager_channels_last"] = eager[size]
            median = {name: timing["median_ms"] for name, timing in timings.items()}
            results.append({"frame": [1, 3, size, size], "delegates": {"workaround": delegates,
                                                                       "stock": stock_delegates},
                            "workaround_max_abs_diff": error, "timings": timings,
                            "workaround_over_contiguous": median["workaround_channels_last"]
                            / median["stock_contiguous"],
                            "workaround_over_eager": median["workaround_channels_last"]
                            / median["eager_channels_last"],
                            "f32_pinned_over_default_precision": median["workaround_f32_channels_last"]
                            / median["workaround_channels_last"]})
    print(json.dumps({"benchmark": "dim_order_cost", "repeats": args.repeats,
                      "eager": "timed first, before any OpenVINO work in this process", "sizes": results},
                     indent=1))
    for result in results:
        timings = result["timings"]
        print(f"channels-last {result['frame'][-1]}x{result['frame'][-1]} conv stack, workaround: "
              f"{result['workaround_over_contiguous']:.2f}x the contiguous export "
              f"({timings['workaround_channels_last']['median_ms']:.3f} vs "
              f"{timings['stock_contiguous']['median_ms']:.3f} ms), {result['workaround_over_eager']:.2f}x eager "
              f"({timings['eager_channels_last']['median_ms']:.3f} ms), "
              f"max |diff| {result['workaround_max_abs_diff']:.2g}; f32 pinned "
              f"{result['f32_pinned_over_default_precision']:.2f}x the default precision", file=sys.stderr)


if __name__ == "__main__":
    main()
