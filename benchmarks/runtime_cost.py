"""What the workaround costs at run time, against the correct floor.

For each model, timed interleaved in one process with the real ExecuTorch runtime:
  (a) the workaround's program;
  (b) the correct floor: the model's delegated part alone (the same computation without the
      copies that leave the partition), lowered the same way, plus a raw numpy copy of the bytes
      the workaround moved out of the partition;
  (c) the stock partitioner's program — wrong, and possibly faster because it skips work, so
      context only, never a floor;
  (d) eager PyTorch, context only.
Prints one JSON object and a summary line per model.

    python benchmarks/runtime_cost.py [--repeats 50] [--models upstream_1m,...]
"""

import argparse
import json
import sys

import numpy as np
import torch

from benchmarks.timing import interleaved_timings, load
from repro.harness.models import policy
from repro.harness.runtime.available import check_runtime


def upstream(x):
    y = x.clone()
    return y, torch.sin(y)


def upstream_floor(x):
    return torch.sin(x)


def three_copies(x, y, z):
    return x.clone(), y.clone(), z.clone(), torch.sin(x) + torch.sin(y) + torch.sin(z)


def three_copies_floor(x, y, z):
    return torch.sin(x) + torch.sin(y) + torch.sin(z)


def flat(n, k=0):
    return torch.rand(n, generator=torch.Generator().manual_seed(k)) + 0.5


# name -> (model, its floor, inputs, the tensors the workaround moves out of the partition)
MODELS = {
    "upstream_1m": (upstream, upstream_floor, lambda: (flat(2**20),), lambda xs: [xs[0]]),
    "upstream_16m": (upstream, upstream_floor, lambda: (flat(2**24),), lambda xs: [xs[0]]),
    "three_copies_1m": (three_copies, three_copies_floor, lambda: tuple(flat(2**20, k) for k in range(3)),
                        list),
    "policy": (policy.Policy().eval(), policy.PolicyActionsOnly().eval(), policy.observation,
               lambda xs: [xs[0], xs[0][:, :policy.NORMALISED_SLICE]]),
}


def raw_copy(tensors):
    sources = [t.contiguous().numpy() for t in tensors]
    targets = [np.empty_like(s) for s in sources]

    def copy():
        for source, target in zip(sources, targets, strict=True):
            np.copyto(target, source)

    return copy


def measure(name, repeats):
    model, floor_model, make_inputs, moved = MODELS[name]
    inputs = make_inputs()
    keep = []
    stats = interleaved_timings({
        "workaround": load(model, inputs, "workaround", keep)[0],
        "delegated_part": load(floor_model, inputs, "workaround", keep)[0],
        "raw_copy": raw_copy(moved(inputs)),
        "stock": load(model, inputs, "stock", keep)[0],
        "eager": lambda: model(*inputs),
    }, repeats)
    floor = stats["delegated_part"]["median_ms"] + stats["raw_copy"]["median_ms"]
    extra = stats["workaround"]["median_ms"] - stats["delegated_part"]["median_ms"]
    return {"model": name, "moved_bytes": sum(t.numel() * t.element_size() for t in moved(inputs)),
            "timings": stats, "floor_ms": floor,
            "ratio_workaround_over_floor": stats["workaround"]["median_ms"] / floor,
            "extra_over_delegated_part_ms": extra,
            "extra_over_raw_copy": extra / stats["raw_copy"]["median_ms"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--models", default=",".join(MODELS))
    args = parser.parse_args(argv)
    check_runtime()
    results = [measure(name, args.repeats) for name in args.models.split(",")]
    print(json.dumps({"benchmark": "runtime_cost", "repeats": args.repeats, "results": results}, indent=1))
    for r in results:
        t = r["timings"]
        print(f"{r['model']}: workaround {t['workaround']['median_ms']:.2f} ms = "
              f"{r['ratio_workaround_over_floor']:.2f}x the floor ({r['floor_ms']:.2f} ms); "
              f"extra over the delegated part {r['extra_over_delegated_part_ms']:.2f} ms = "
              f"{r['extra_over_raw_copy']:.2f}x the raw copy of {r['moved_bytes'] / 2**20:.1f} MiB; "
              f"stock {t['stock']['median_ms']:.2f} ms (wrong), eager {t['eager']['median_ms']:.2f} ms",
              file=sys.stderr)


if __name__ == "__main__":
    main()
