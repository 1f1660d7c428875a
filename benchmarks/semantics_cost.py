"""What the semantics guards cost on real models: delegates, ops handed back, run time.

For each real model (``repro/harness/models/real_models.py``: transformers architectures, tiny configs, random
weights), lowered three ways and timed interleaved in one process with the real ExecuTorch runtime:
  (a) the workaround as shipped (semantics guards on, special values OpenVINO's);
  (b) the workaround without its semantics guards (what it was before them: the rest of its rules);
  (c) the workaround with ``special_values="torch"``.
Reports each one's delegate count, the ops it hands back for semantics (with their reasons) and the median
run time, and the ratios (a)/(b) and (c)/(b). Prints one JSON object and a summary line per model.

    python -m benchmarks.semantics_cost [--repeats 30] [--models bert,vit]
"""

import argparse
import contextlib
import json
import sys
from collections import Counter

from benchmarks.timing import interleaved_timings
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import WORKAROUND, WORKAROUND_TORCH_SPECIAL_VALUES
from repro.harness.models import real_models
from repro.harness.runtime.available import check_runtime


@contextlib.contextmanager
def without_semantics_guards():
    """The workaround with every semantics rule finding nothing (the benchmark's baseline only)."""
    from workaround.partitioner.rules import exclusion

    guards = exclusion.semantics_to_hand_back
    exclusion.semantics_to_hand_back = lambda *args, **kwargs: {}
    try:
        yield
    finally:
        exclusion.semantics_to_hand_back = guards


def lowered(case, lowering_value, keep):
    """(run, delegates, {reason: count} of the nodes handed back for semantics)."""
    from executorch.runtime import Runtime

    from workaround.partitioner.rules.exclusion import HANDED_BACK_BECAUSE

    lowered_program = to_edge.lower(case, lowering_value)
    reasons = Counter(node.meta[HANDED_BACK_BECAUSE].split(",")[0]
                      for node in lowered_program.exported_program().graph.nodes if HANDED_BACK_BECAUSE in
                      node.meta)
    program = lowered_program.to_executorch()
    loaded = Runtime.get().load_program(program.buffer)
    keep.append(loaded)
    method = loaded.load_method("forward")
    inputs = list(case.inputs())
    return (lambda: method.execute(inputs)), len(program.executorch_program.execution_plan[0].delegates), reasons


def measure(name, repeats):
    case, keep = real_models.case(name), []
    with without_semantics_guards():
        unguarded = lowered(case, WORKAROUND, keep)
    guarded = lowered(case, WORKAROUND, keep)
    torch_values = lowered(case, WORKAROUND_TORCH_SPECIAL_VALUES, keep)
    runs = {"without_guards": unguarded, "workaround": guarded, "torch_special_values": torch_values}
    stats = interleaved_timings({key: run for key, (run, _, _) in runs.items()}, repeats)
    base = stats["without_guards"]["median_ms"]
    return {"model": name, "timings": stats,
            "delegates": {key: delegates for key, (_, delegates, _) in runs.items()},
            "handed_back": {key: dict(reasons) for key, (_, _, reasons) in runs.items()},
            "ratio_workaround_over_unguarded": stats["workaround"]["median_ms"] / base,
            "ratio_torch_special_values_over_unguarded": stats["torch_special_values"]["median_ms"] / base}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--models", default=",".join(real_models.MODELS))
    args = parser.parse_args(argv)
    check_runtime()
    results = [measure(name, args.repeats) for name in args.models.split(",")]
    print(json.dumps({"benchmark": "semantics_cost", "repeats": args.repeats, "results": results}, indent=1))
    for r in results:
        handed = sum(r["handed_back"]["workaround"].values())
        print(f"{r['model']}: guards hand back {handed} node(s), delegates {r['delegates']['without_guards']} -> "
              f"{r['delegates']['workaround']}, run time {r['ratio_workaround_over_unguarded']:.2f}x; "
              f"special_values='torch': {r['delegates']['torch_special_values']} delegates, "
              f"{r['ratio_torch_special_values_over_unguarded']:.2f}x", file=sys.stderr)


if __name__ == "__main__":
    main()
