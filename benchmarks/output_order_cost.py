"""What each fix of the stale copy costs at run time: the runtime's (``output-order``: execute() sets the
outputs before the inputs, so the programs already shipped are right) against the partitioner's (the copy
left to ExecuTorch's kernel: programs exported again are right on the runtimes already deployed).

For each model, three candidates, each checked against eager and timed:
  (a) the stock program on the stock runtime: wrong, context only;
  (b) the stock program on the runtime with ``output-order``: the runtime fix;
  (c) the workaround's program (the copy left out of the delegate) on the stock runtime: the partitioner fix.
The runtime is a library chosen when a process starts (``LD_LIBRARY_PATH``), so the candidates cannot share
one process: each round runs one child per runtime, in turn, and a candidate's figure is the median of its
rounds' medians (the rounds interleave, so drift on a 2-core machine hits both runtimes alike). Both
runtimes are rebuilt from the same ExecuTorch checkout (``repro.harness.lowering.executorch_patches``).

    python -m benchmarks.output_order_cost --executorch-source DIR [--rounds 7] [--repeats 20]
"""

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import torch

from benchmarks.runtime_cost import MODELS
from benchmarks.timing import child_rounds
from repro.harness.lowering import executorch_patches as patches
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue

BENCHMARKED = ("upstream_1m", "upstream_16m")
# (candidate, program's partitioner, runtime)
CANDIDATES = (("stock_program_stock_runtime", "stock", "stock"),
              ("stock_program_output_order_runtime", "stock", "output-order"),
              ("workaround_program_stock_runtime", "workaround", "stock"))


def export_programs(folder):
    """Each benchmarked model lowered stock and with the workaround, with its inputs and eager outputs."""
    for name in BENCHMARKED:
        model, _, make_inputs, _ = MODELS[name]
        inputs = make_inputs()
        torch.save((inputs, model(*inputs)), folder / f"{name}.io")
        for partitioner in ("stock", "workaround"):
            case = catalogue.Case(name, name, model, lambda inputs=inputs: inputs)
            program = to_edge.lower(case, LOWERINGS[partitioner]).to_executorch()
            (folder / f"{name}-{partitioner}.pte").write_bytes(program.buffer)


def child(folder, runtime_name, repeats):
    """In a process whose runtime is ``runtime_name``'s: {candidate: {"samples_ms", "correct"}}."""
    from executorch.runtime import Runtime

    results = {}
    for name in BENCHMARKED:
        inputs, expected = torch.load(folder / f"{name}.io")
        for candidate, partitioner, runtime in CANDIDATES:
            if runtime != runtime_name:
                continue
            program = Runtime.get().load_program((folder / f"{name}-{partitioner}.pte").read_bytes())
            method = program.load_method("forward")
            outputs = method.execute(list(inputs))
            correct = all(torch.allclose(got, want, atol=1e-2)
                          for got, want in zip(outputs, expected, strict=True))
            samples = []
            for _ in range(repeats):
                started = time.perf_counter()
                method.execute(list(inputs))
                samples.append((time.perf_counter() - started) * 1e3)
            results[f"{name}/{candidate}"] = {"samples_ms": samples, "correct": correct}
    print(json.dumps(results))


def run_rounds(folder, libraries, rounds, repeats):
    """{model/candidate: {"median_ms": median of round medians, "correct": bool}}."""
    children = {runtime_name: ([sys.executable, "-m", "benchmarks.output_order_cost", "--child", runtime_name,
                                "--folder", str(folder), "--repeats", str(repeats)],
                               patches.with_search_paths(library_path=library))
                for runtime_name, library in libraries.items()}
    return {key: run for (_, key), run in child_rounds(children, rounds).items()}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executorch-source", type=Path, default=None,
                        help=f"an ExecuTorch checkout (default: ${patches.SOURCE_VARIABLE})")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--child", choices=("stock", "output-order"), help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.folder, args.child, args.repeats)
        return
    source = patches.checkout_argument(parser, args.executorch_source)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        libraries = {"stock": patches.build_backend(source, folder / "stock"),
                     "output-order": patches.build_backend(source, folder / "output-order",
                                                           patches.patch_files(patches.OUTPUT_ORDER))}
        export_programs(folder)
        results = run_rounds(folder, libraries, args.rounds, args.repeats)
    ratios = {name: results[f"{name}/stock_program_output_order_runtime"]["median_ms"]
              / results[f"{name}/workaround_program_stock_runtime"]["median_ms"] for name in BENCHMARKED}
    print(json.dumps({"benchmark": "output_order_cost", "rounds": args.rounds, "repeats": args.repeats,
                      "cpus": os.cpu_count(), "results": results,
                      "ratio_runtime_fix_over_partitioner_fix": ratios}, indent=1))
    for name in BENCHMARKED:
        line = ", ".join(f"{candidate} {results[f'{name}/{candidate}']['median_ms']:.2f} ms"
                         f" ({'right' if results[f'{name}/{candidate}']['correct'] else 'WRONG'})"
                         for candidate, _, _ in CANDIDATES)
        print(f"{name}: {line}; runtime fix / partitioner fix {ratios[name]:.2f}x", file=sys.stderr)


if __name__ == "__main__":
    main()
