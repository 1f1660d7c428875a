"""What the dim-order guard's conversions cost on a channels-last conv model.

Two programs of the same conv stack, timed interleaved in one process with the real
ExecuTorch runtime: (a) the workaround on a channels-last frame (ExecuTorch converts the
frame to contiguous before the delegate, and the result back after it), (b) the stock
partitioner on a contiguous frame (nothing to convert; correct by construction). Also a
raw numpy copy of the frame's bytes, for scale. Prints one JSON object and a summary line.

    python benchmarks/dim_order_cost.py [--repeats 200] [--size 224]
"""

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.timing import interleaved_timings, load
from repro import lowering


class ConvStack(torch.nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.layers = torch.nn.Sequential(torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
                                          torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.ReLU())

    def forward(self, x):
        return self.layers(x)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--size", type=int, default=224)
    args = parser.parse_args(argv)
    lowering.check_runtime()
    module = ConvStack().eval()
    contiguous = torch.rand(1, 3, args.size, args.size, generator=torch.Generator().manual_seed(1))
    channels_last = contiguous.to(memory_format=torch.channels_last)
    keep = []
    workaround, delegates_a = load(module, (channels_last,), "workaround", keep)
    stock, delegates_b = load(module, (contiguous,), "stock", keep)
    error = float((workaround()[0] - module(contiguous)).abs().max())
    source, target = contiguous.numpy(), np.empty_like(contiguous.numpy())
    timings = interleaved_timings({
        "workaround_channels_last": workaround,
        "stock_contiguous": stock,
        "raw_copy_of_frame": lambda: np.copyto(target, source),
    }, args.repeats)
    ratio = timings["workaround_channels_last"]["median_ms"] / timings["stock_contiguous"]["median_ms"]
    result = {"benchmark": "dim_order_cost", "frame": [1, 3, args.size, args.size], "repeats": args.repeats,
              "delegates": {"workaround": delegates_a, "stock": delegates_b}, "workaround_max_abs_diff": error,
              "timings": timings, "ratio_workaround_over_contiguous": ratio}
    print(json.dumps(result, indent=1))
    print(f"dim-order guard on a channels-last {args.size}x{args.size} conv stack: {ratio:.3f}x the contiguous "
          f"export ({timings['workaround_channels_last']['median_ms']:.2f} ms vs "
          f"{timings['stock_contiguous']['median_ms']:.2f} ms median), max |diff| {error:.2g}", file=sys.stderr)


if __name__ == "__main__":
    main()
