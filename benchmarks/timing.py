"""Shared by the benchmarks: loading a lowered program into the real runtime, and timing
candidates interleaved in one process (each repetition runs every candidate once, so drift
and noise on a 2-core machine hit all of them alike), reported as median and 10th/90th
percentiles."""

import json
import statistics
import subprocess
import time

import numpy as np

from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue


def load(function, inputs, partitioner, keep):
    """(run, delegate count) for ``function`` lowered with the named partitioner; the loaded
    program is appended to ``keep`` because a method must not outlive its program."""
    from executorch.runtime import Runtime

    case = catalogue.Case("bench", "bench", function, lambda: inputs)
    program = to_edge.lower(case, LOWERINGS[partitioner]).to_executorch()
    loaded = Runtime.get().load_program(program.buffer)
    keep.append(loaded)
    method = loaded.load_method("forward")
    return (lambda: method.execute(list(inputs))), len(program.executorch_program.execution_plan[0].delegates)


def interleaved_timings(runners, repeats):
    samples = {name: [] for name in runners}
    for _ in range(repeats):
        for name, run in runners.items():
            started = time.perf_counter()
            run()
            samples[name].append((time.perf_counter() - started) * 1e3)
    return {name: {"median_ms": statistics.median(values), "p10_ms": float(np.percentile(values, 10)),
                   "p90_ms": float(np.percentile(values, 90))} for name, values in samples.items()}


def child_rounds(children, rounds):
    """Candidates that cannot share a process (a runtime library, a process-wide precision): ``children``
    {way: (argv, environment)}, each printing one JSON line {key: {"samples_ms": [...], ...}}, run in turn,
    round after round, so drift on a 2-core machine hits every way alike. Returns {(way, key): the rest of
    its last run, with "median_ms" the median of its rounds' medians}."""
    medians, last = {}, {}
    for _ in range(rounds):
        for way, (argv, environment) in children.items():
            result = subprocess.run(argv, capture_output=True, text=True, check=True, env=environment)
            for key, run in json.loads(result.stdout.splitlines()[-1]).items():
                medians.setdefault((way, key), []).append(statistics.median(run.pop("samples_ms")))
                last[way, key] = run
    return {both: {**last[both], "median_ms": statistics.median(values)} for both, values in medians.items()}
