"""What one materialization of torch's CIA registry per collection saves a lowering (how the gate's processes
lower: ``repro/harness/lowering/cia_collection.py``): catalogue cases lowered with the workaround, torch as it is
against the collection materializing once, interleaved case by case in one process. Prints one JSON object and a
summary line.

    python -m benchmarks.cia_collection_cost [--cases 13] [--repeats 2]
"""

import contextlib
import json
import statistics
import sys
import time

from repro.harness import cli


def lowering_seconds(case):
    from repro.harness.lowering.named import WORKAROUND
    from repro.harness.lowering.to_edge import lower

    started = time.perf_counter()
    with contextlib.suppress(Exception):  # a case the workaround refuses costs its lowering all the same
        lower(case, WORKAROUND)
    return time.perf_counter() - started


def main(argv=None):
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 measured, 2 usage error",
                        prog="python -m benchmarks.cia_collection_cost")
    parser.add_argument("--cases", type=cli.positive_int, default=13,
                        help="catalogue cases, spread over it (default 13)")
    parser.add_argument("--repeats", type=cli.positive_int, default=2,
                        help="lowerings of each case each way (default 2)")
    args = parser.parse_args(argv)
    from repro.harness.lowering import cia_collection
    from repro.harness.models.catalogue import CATALOGUE

    if args.cases > len(CATALOGUE):
        parser.error(f"--cases: the catalogue has {len(CATALOGUE)}")
    ways = {"as torch does": cia_collection.as_torch_does,
            "materialized once": cia_collection.materialize_once_per_collection}
    cases = CATALOGUE[::len(CATALOGUE) // args.cases][:args.cases]
    lowering_seconds(cases[0])  # warm: the first lowering of a process imports and caches what all share
    seconds = {way: [] for way in ways}
    for repeat in range(args.repeats):
        for case in cases:
            for way in (ways if repeat % 2 == 0 else reversed(ways)):  # each way first as often
                ways[way]()
                seconds[way].append(lowering_seconds(case))
    totals = {way: sum(values) for way, values in seconds.items()}
    result = {"cases": [case.name for case in cases], "repeats": args.repeats, "total_s": totals,
              "median_lowering_s": {way: statistics.median(values) for way, values in seconds.items()},
              "ratio": totals["as torch does"] / totals["materialized once"]}
    print(json.dumps(result, indent=1))
    print(f"{len(cases)} cases x {args.repeats}: lowering as torch does {totals['as torch does']:.1f} s, with one "
          f"materialization per collection {totals['materialized once']:.1f} s ({result['ratio']:.2f}x)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
