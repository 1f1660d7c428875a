"""What the copy rule costs on a model full of returned copies of computed values.

``clone_sin_chain(n)``: y = x; n times: c = y.clone(); y = sin(c); every c returned. Only the first
copy is of a partition input; every other one copies a value computed in the partition, which the
stock partitioner already gets right. An earlier rule handed every returned copy back (41
delegates at 40 steps); the current one hands back only the first, so the program keeps the
stock program's single delegate. Timed interleaved in one process with the real runtime:
lowering (torch.export -> to_executorch) and execution, workaround against stock (wrong here:
its first copy is stale, so it is context, a speed reference, not a floor). Prints one JSON object
and a summary line per chain length.

    python benchmarks/copy_chain_cost.py [--repeats 200] [--steps 40,100]
"""

import argparse
import json
import sys
import time

from benchmarks.timing import interleaved_timings, load
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue
from repro.harness.runtime.available import check_runtime

LOWERING_REPEATS = 3


def lowering_seconds(case, partitioner):
    started = time.perf_counter()
    to_edge.lower(case, LOWERINGS[partitioner]).to_executorch()
    return time.perf_counter() - started


def measure(steps, repeats):
    function, inputs = catalogue.clone_sin_chain(steps), (catalogue.uniform(2, 3),)
    case = catalogue.Case(f"chain_{steps}", "bench", function, lambda: inputs)
    lowered = {name: [] for name in ("workaround", "stock")}
    for _ in range(LOWERING_REPEATS):
        for name, seconds in lowered.items():
            seconds.append(lowering_seconds(case, name))
    keep = []
    (workaround, workaround_delegates), (stock, stock_delegates) = (load(function, inputs, name, keep)
                                                                    for name in ("workaround", "stock"))
    stats = interleaved_timings({"workaround": workaround, "stock": stock}, repeats)
    return {"steps": steps, "delegates": {"workaround": workaround_delegates, "stock": stock_delegates},
            "lowering_s": {name: min(seconds) for name, seconds in lowered.items()}, "timings": stats,
            "ratio_workaround_over_stock": stats["workaround"]["median_ms"] / stats["stock"]["median_ms"]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=200, help="interleaved executions per program")
    parser.add_argument("--steps", default="40,100", help="comma-separated chain lengths")
    args = parser.parse_args(argv)
    check_runtime()
    results = [measure(int(steps), args.repeats) for steps in args.steps.split(",")]
    print(json.dumps({"benchmark": "copy_chain_cost", "repeats": args.repeats, "results": results}, indent=1))
    for r in results:
        t = r["timings"]
        print(f"chain of {r['steps']}: workaround {r['delegates']['workaround']} delegate(s), "
              f"{t['workaround']['median_ms']:.3f} ms = {r['ratio_workaround_over_stock']:.2f}x stock "
              f"({r['delegates']['stock']} delegate(s), {t['stock']['median_ms']:.3f} ms, wrong); lowering "
              f"{r['lowering_s']['workaround']:.2f} s vs {r['lowering_s']['stock']:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
