"""What the workaround costs at export time.

1. The exclusion on synthetic edge graphs of about 100, 1 000 and 10 000 nodes (chains and fans
   of elementwise ops, every tenth value also returned through a copy): the stock
   ``OpenvinoPartitioner.partition`` alone against ``CopySafeOpenvinoPartitioner.partition``
   (stock + exclusion), alternating on fresh copies of the same program, in one run.
2. The post-lowering check against the lowering time of the policy model.
3. A whole lowering (``torch.export`` to ``to_executorch()``), stock ``OpenvinoPartitioner`` against the
   workaround, alternating, on a small model and on one with a reflect pad (an op kept undecomposed for the
   delegate): what an export script waits for, where the partitioning is a small part of it.
Prints one JSON object and a summary line per measurement.

    python benchmarks/export_cost.py [--sizes 100,1000,10000] [--repeats 3]
"""

import argparse
import contextlib
import copy
import json
import statistics
import sys
import time

import torch

from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue, policy
from repro.harness.runtime.available import check_runtime


def synthetic(n_ops):
    """x -> n_ops elementwise ops; each op reads the previous value and, every seventh, an older one
    (fans); every tenth value is also returned through a clone (a copy that leaves the partition)."""

    def forward(x):
        values, returned = [x], []
        for i in range(n_ops):
            previous = values[-1]
            value = torch.sin(previous) + values[i // 2] if i % 7 == 0 else torch.cos(previous)
            if i % 10 == 9:
                returned.append(value.clone())
            values.append(value)
        return (values[-1], *returned)

    return catalogue.Forward(forward)


def edge_program(module, inputs):
    from executorch.exir import to_edge

    return to_edge(torch.export.export(module, inputs)).exported_program()


def time_partition(partitioner, program):
    """Seconds one partition() takes on a fresh copy (partitioning tags the program in place)."""
    fresh = copy.deepcopy(program)
    started = time.perf_counter()
    partitioner.partition(fresh)
    return time.perf_counter() - started


def partition_cost(n_ops, repeats):
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    started = time.perf_counter()
    program = edge_program(synthetic(n_ops), (torch.rand(4, 4),))
    export_seconds = time.perf_counter() - started
    spec = [CompileSpec("device", b"CPU")]
    stock, safe = [], []
    for _ in range(repeats):  # alternate so drift hits both alike
        stock.append(time_partition(OpenvinoPartitioner(spec), program))
        safe.append(time_partition(CopySafeOpenvinoPartitioner(spec), program))
    nodes = len(program.graph_module.graph.nodes)
    return {"ops": n_ops, "graph_nodes": nodes, "export_and_to_edge_s": export_seconds,
            "stock_partition_s": statistics.median(stock), "copy_safe_partition_s": statistics.median(safe),
            "ratio": statistics.median(safe) / statistics.median(stock),
            "copy_safe_us_per_node": statistics.median(safe) / nodes * 1e6}


def check_cost(repeats):
    from workaround import check_program

    case = catalogue.Case("policy", "policy", policy.Policy().eval(), policy.observation)
    started = time.perf_counter()
    program = to_edge.lower(case, LOWERINGS["workaround"]).to_executorch()
    lowering_s = time.perf_counter() - started
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        check_program(program)
        samples.append(time.perf_counter() - started)
    return {"policy_lowering_s": lowering_s, "check_s": statistics.median(samples),
            "check_over_lowering": statistics.median(samples) / lowering_s}


def reflect_padded_conv(x):
    return torch.nn.functional.conv2d(torch.nn.functional.pad(x, (1, 1, 1, 1), mode="reflect"),
                                      torch.ones(4, 3, 3, 3)).sin()


LOWERED_MODELS = {"sin_clone_add": (lambda x: x.sin().clone() + 1, (2, 3)),
                  "reflect_padded_conv": (reflect_padded_conv, (1, 3, 16, 16))}


def lowering_cost(repeats):
    """Median seconds of a whole lowering, stock against the workaround, per model, alternating."""
    rows = []
    for name, (function, shape) in LOWERED_MODELS.items():
        case = catalogue.Case(name, name, catalogue.Forward(function), lambda shape=shape: (torch.rand(*shape),))
        samples = {"stock": [], "workaround": []}
        for _ in range(repeats):
            for lowering_name, times in samples.items():
                started = time.perf_counter()
                to_edge.lower(case, LOWERINGS[lowering_name]).to_executorch()
                times.append(time.perf_counter() - started)
        stock, safe = statistics.median(samples["stock"]), statistics.median(samples["workaround"])
        rows.append({"model": name, "stock_s": stock, "workaround_s": safe, "ratio": safe / stock})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,10000")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    check_runtime()
    with contextlib.redirect_stdout(sys.stderr):  # the stock partitioner prints every op it rejects
        partitions = [partition_cost(int(n), args.repeats) for n in args.sizes.split(",")]
        check = check_cost(args.repeats)
        lowerings = lowering_cost(args.repeats)
    print(json.dumps({"benchmark": "export_cost", "partition": partitions, "check": check, "lowering": lowerings},
                     indent=1))
    for row in partitions:
        print(f"{row['graph_nodes']} nodes: stock partition {row['stock_partition_s'] * 1e3:.1f} ms, copy-safe "
              f"{row['copy_safe_partition_s'] * 1e3:.1f} ms ({row['ratio']:.2f}x; "
              f"{row['copy_safe_us_per_node']:.1f} us/node)", file=sys.stderr)
    for row in lowerings:
        print(f"{row['model']}: lowering stock {row['stock_s']:.2f} s, workaround {row['workaround_s']:.2f} s "
              f"({row['ratio']:.2f}x)", file=sys.stderr)
    print(f"post-lowering check {check['check_s'] * 1e3:.0f} ms = {check['check_over_lowering']:.1%} of the "
          f"policy's lowering ({check['policy_lowering_s']:.1f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
