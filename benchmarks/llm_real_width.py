"""An LLM at Llama-3.2-1B's shapes through ExecuTorch's own ``export_llm``: decode deep in a real context, a
prefill, tokens per second and resident memory, the workaround against its peers at equal weight bits.

Why: at the LLM tier's 256 width a decode step is mostly call overhead; a model people ship is 2048 wide, its
step bound by reading the weights and, deep in a long context, the KV cache. Random weights (the speed does not
depend on them), dim 2048, 32 heads, 8 KV heads, hidden 8192, a 128256-token vocabulary; ``--layers`` of them (16
is the model; fewer at full width where memory or time forces it: say so with the figures).

Programs, each exported in a child by the pipeline (``repro.harness.llm.pipeline``, static shapes):

- decode: a KV cache of ``--context`` tokens, one token a call at a position 16 from its end; and the workaround's
  4-bit program with a 32-token context, to show how the step grows with the context;
- prefill: no cache, one call over a ``--prefill``-token window.

At each weight width the candidates run interleaved in one process (``benchmarks.timing``): the workaround
(by path; its KV caches OpenVINO state inside the delegate), XNNPACK at the Llama example's settings for the
same bits (fp32, ``xnnpack_dynamic`` 8-bit, ``8da4w``; its SDPA and cache update in place,
``use_sdpa_with_kv_cache``; by path), plain OpenVINO running the workaround's delegate blob itself, and,
compressed, stock (from bytes: by path its programs crash on 2026.4; uncompressed, its pipeline fails before
lowering) and the workaround asking for OpenVINO's dynamic quantization of activations (the fast path: what stock
and XNNPACK compute, not exact). Each export's
seconds are printed too, and the workaround's held to stock's. f32 on every class by default (as the gate runs);
``--precision default`` runs at the importing class's own (bf16 on AVX-512 BF16). Prints one JSON object: medians,
tokens per second, resident memory each program added once loaded and run, and each ratio the LLM issue sets a
goal for, beside its goal.

``--record`` also keeps the result in ``docs/data/llm-real-width.json``, one entry per CPU class and precision
(runs of other weight widths at the same sizes add to it; other sizes replace it), from which README.md and
docs/measurements.md render their ratio table (``tests/tools/figures.py``).

    python -m benchmarks.llm_real_width [--layers 16] [--context 2048] [--prefill 128] [--repeats 20]
                                        [--compressions none,8wo,4wo] [--keep FOLDER] [--precision f32|default]
                                        [--record]
"""

import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from repro.harness import cli
from repro.harness.cpu.precision import F32_ISA_CAP
from repro.harness.llm.pipeline import LLAMA_3_2_1B, QUANTIZING_ACTIVATIONS, PipelineSettings
from tests.tools.figures import LLM_REAL_WIDTH, PROJECT
from tests.tools.gate_runs import commit, read_record, today

GROUP_SIZE = 128  # the OpenVINO example's group size for 4-bit weights (XNNPACK's 8da4w takes the same)
SHORT_CONTEXT = 32
COMPRESSIONS = ("none", "8wo", "4wo")
EXPORT_TIMEOUT = 3600
KEPT = "benchmark-export.json"  # in each program's folder: what it was asked and how long its export took
# Each goal: (numerator, denominator, at most), by the timings' names "<kind> <compression>: <candidate>" (exports:
# "export <kind> <compression>: <lowering>", in seconds).
GOALS = [
    *((f"decode {c}: workaround", f"decode {c}: xnnpack", 1.0) for c in ("8wo", "4wo")),
    *((f"decode {c}: workaround", f"decode {c}: plain OpenVINO", 1.05) for c in COMPRESSIONS),
    ("prefill none: workaround", "prefill none: xnnpack", 0.6),
    ("prefill 4wo: workaround", "prefill 4wo: xnnpack", 1.0),
    *((f"{kind} {c}: {lowering}", f"{kind} {c}: stock", 1.05)  # stock quantizes activations: both, side by side
      for kind in ("decode", "prefill") for c in ("8wo", "4wo")
      for lowering in ("workaround", QUANTIZING_ACTIVATIONS)),
    ("decode 4wo: workaround", f"decode 4wo at {SHORT_CONTEXT}: workaround", 1.25),
    *((f"{kind} {c}: {QUANTIZING_ACTIVATIONS}", f"{kind} {c}: xnnpack", 1.0)
      for kind in ("decode", "prefill") for c in ("8wo", "4wo")),
    *((f"export {kind} {c}: workaround", f"export {kind} {c}: stock", 1.1)
      for kind in ("decode", "prefill") for c in ("8wo", "4wo")),
]


SHORT = f"decode at {SHORT_CONTEXT}"  # the group of the short-context program


def window(kind: str, context: int, prefill: int) -> int:
    return {"decode": context, SHORT: SHORT_CONTEXT}.get(kind, prefill)


def candidates(compressions: list[str]) -> list[tuple[str, str]]:
    """(lowering, compression) exported for each program kind. Compressed, also stock (its pipeline fails
    uncompressed) and the workaround asking for OpenVINO's dynamic quantization of activations: the fast path, not
    exact, that stock takes unasked and XNNPACK's 8-bit and ``8da4w`` take too."""
    compressed = ("stock", QUANTIZING_ACTIVATIONS)
    return [(lowering, compression) for compression in compressions
            for lowering in ("workaround", "xnnpack", *(compressed if compression != "none" else ()))]


@dataclass(frozen=True)
class PlannedExport:
    """One program the benchmark times: its group, lowering and compression, what the pipeline is asked, where."""

    kind: str
    lowering: str
    compression: str
    settings: PipelineSettings
    files: Path

    @property
    def label(self) -> str:
        return f"export {self.kind} {self.compression}: {self.lowering}"

    @property
    def asked(self) -> dict:
        return {"lowering": self.lowering, "compression": self.compression, **asdict(self.settings)}


def planned(folder: Path, layers: int, context: int, prefill: int, compressions: list[str]) -> list[PlannedExport]:
    """Every program to export, a group being "decode", "prefill" or the short decode (of the 4-bit program, when
    4wo is among ``compressions``)."""
    sizes = {**LLAMA_3_2_1B, "n_layers": layers}
    wanted = [(kind, *candidate) for kind in ("decode", "prefill") for candidate in candidates(compressions)]
    short = [(SHORT, "workaround", "4wo")] if "4wo" in compressions else []
    # a static KV-cache program takes one token a call whatever its max_seq_length, which the context bounds
    return [PlannedExport(kind, lowering, compression,
                          PipelineSettings(sizes, min(prefill, window(kind, context, prefill)),
                                           window(kind, context, prefill), GROUP_SIZE, reference=False),
                          folder / f"{kind.replace(' ', '-')}.{compression}.{lowering}")
            for kind, lowering, compression in [*wanted, *short]]


def kept_export(plan: PlannedExport) -> float | None:
    """The seconds a program kept from an earlier run took to export, if it was asked the same; None if absent."""
    done = plan.files / KEPT
    if not done.exists():
        return None
    kept = json.loads(done.read_text())
    return kept["seconds"] if kept["asked"] == plan.asked and (plan.files / "program.pte").exists() else None


def conflicts(plans: list[PlannedExport]) -> list[str]:
    """The program folders that exist but hold something else than what this run would export into them."""
    return [str(plan.files) for plan in plans if plan.files.exists() and kept_export(plan) is None]


def export_all(plans: list[PlannedExport]) -> tuple[dict[tuple[str, str, str], Path], dict[str, float]]:
    """({(group, lowering, compression): program}, {"export <group> <compression>: <lowering>": seconds}). Each
    export's seconds are its child's, end to end (the pipeline's load, export, lowering and serialization), one
    after the other on an otherwise idle host; a program kept from an earlier run with the same settings
    (``--keep``) is not exported again, its seconds read back."""
    from repro.harness.llm.pipeline import LlmCase
    from repro.harness.llm.runs import exported

    programs, seconds = {}, {}
    for plan in plans:
        if (took := kept_export(plan)) is None:
            weights = None if plan.compression == "none" else f"openvino_{plan.compression}"
            started = time.perf_counter()
            record = exported(LlmCase("llama3_2", plan.kind != "prefill", False, weights), plan.lowering,
                              plan.files, plan.settings, EXPORT_TIMEOUT)
            took = round(time.perf_counter() - started, 1)
            (plan.files / "checkpoint.pth").unlink(missing_ok=True)  # as large as the model: 19 fill a disk
            if record.error is not None:
                sys.exit(f"{plan.kind} {plan.compression} ({plan.lowering}) did not export: {record.error}")
            (plan.files / KEPT).write_text(json.dumps({"asked": plan.asked, "seconds": took}))
        seconds[plan.label] = took
        size = (plan.files / "program.pte").stat().st_size / 1e9
        print(f"{plan.label.replace('export', 'exported')}: {size:.2f} GB, {took} s", file=sys.stderr, flush=True)
        programs[plan.kind, plan.lowering, plan.compression] = plan.files / "program.pte"
    return programs, seconds


def call(kind: str, context: int, prefill: int) -> list:
    """One timed call's inputs: the prefill's window, or a decode step's token at 16 from its context's end."""
    import torch

    if kind == "prefill":
        return [torch.arange(1, prefill + 1).reshape(1, -1)]
    return [torch.tensor([[7]]), torch.tensor([window(kind, context, prefill) - 16])]


def measure_group(programs: dict[str, Path], inputs: list, repeats: int, plain_of: Path | None) -> dict:
    """Timings and added resident memory of each candidate of one group, interleaved in this process."""
    from benchmarks.llm_decode_cost import executorch_call, plain_openvino_call
    from benchmarks.timing import interleaved_timings
    from repro.harness.runtime.process_memory import resident_bytes

    keep: list = []
    makers = {name: (lambda program=program, name=name: executorch_call(program, inputs, name != "stock", keep))
              for name, program in programs.items()}
    if plain_of is not None:
        makers["plain OpenVINO"] = lambda: plain_openvino_call(plain_of, inputs)
    runners, added = {}, {}
    for name, make in makers.items():  # each loaded and run once, what it added to this process measured
        before = resident_bytes()
        runners[name] = make()
        runners[name]()
        added[name] = resident_bytes() - before
    timings = interleaved_timings(runners, repeats)
    return {name: {**timing, "resident_added_mb": round(added[name] / 1e6)} for name, timing in timings.items()}


def ratios_of(timings: dict, export_seconds: dict) -> dict:
    """Each goal's ratio the timings (medians, ms) and export seconds hold both sides of, beside its goal."""
    median = {**{name: timing["median_ms"] for name, timing in timings.items()}, **export_seconds}
    return {f"{top} / {bottom}": {"ratio": round(median[top] / median[bottom], 3), "at most": goal,
                                   "met": median[top] / median[bottom] <= goal}
            for top, bottom, goal in GOALS if top in median and bottom in median}


def measure(plans: list[PlannedExport], *, layers: int, context: int, prefill: int, repeats: int) -> dict:
    from repro.harness.cpu.classes import process_class

    programs, export_seconds = export_all(plans)
    timings = {}
    groups = sorted({(kind, compression) for kind, _, compression in programs})
    for kind, compression in groups:
        members = {lowering: path for (k, lowering, c), path in programs.items() if (k, c) == (kind, compression)}
        plain = members.get("workaround") if kind != SHORT else None
        for name, timing in measure_group(members, call(kind, context, prefill), repeats, plain).items():
            label = f"decode {compression} at {SHORT_CONTEXT}" if kind == SHORT else f"{kind} {compression}"
            tokens = prefill if kind == "prefill" else 1
            timings[f"{label}: {name}"] = {**timing, "tokens_per_s": round(tokens * 1e3 / timing["median_ms"], 2)}
    ratios = ratios_of(timings, export_seconds)
    return {"model": {**LLAMA_3_2_1B, "n_layers": layers, "context": context, "prefill": prefill,
                      "group_size": GROUP_SIZE},
            "host": {"cpu_class": str(process_class()), "machine": platform.processor() or platform.machine(),
                     "precision": "f32" if os.environ.get("OV_CPU_MAX_ISA") else "the class's default"},
            "repeats": repeats, "timings": timings, "export_seconds": export_seconds, "ratios": ratios}


def record_key(result: dict) -> str:
    """One record per CPU class, precision and depth: a model memory forced to fewer layers sits beside the
    full one, not in its place."""
    return f"{result['host']['cpu_class']}, {result['host']['precision']}, {result['model']['n_layers']} layers"


def recorded(result: dict, records: dict) -> dict:
    """``records`` with ``result`` kept under its class, precision and layers: added to a run of the same sizes
    (another weight width measured separately), replacing one of other sizes (another context or window)."""
    key, stamp = record_key(result), {"date": today(), "commit": commit()}
    earlier = records.get(key)
    if earlier is None or earlier["model"] != result["model"]:
        earlier = {**result, "timings": {}, "export_seconds": {}, "runs": []}
    merged = {field: {**earlier[field], **result[field]} for field in ("timings", "export_seconds")}
    ratios = ratios_of(merged["timings"], merged["export_seconds"])
    return {**records, key: {**earlier, **merged, "ratios": ratios, "runs": [*earlier["runs"], stamp]}}


def main(argv: list[str] | None = None) -> None:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 measured, 2 usage error",
                        prog="python -m benchmarks.llm_real_width")
    parser.add_argument("--layers", type=cli.positive_int, default=LLAMA_3_2_1B["n_layers"],
                        help="transformer layers at full width (default 16, the model's)")
    parser.add_argument("--context", type=cli.positive_int, default=2048,
                        help="the decode programs' KV cache, in tokens (default 2048)")
    parser.add_argument("--prefill", type=cli.positive_int, default=128,
                        help="the prefill program's window, in tokens (default 128)")
    parser.add_argument("--repeats", type=cli.positive_int, default=20, help="timed calls of each (default 20)")
    parser.add_argument("--compressions", type=cli.comma_separated, default=list(COMPRESSIONS),
                        help=f"weight widths to measure, comma-separated (default {','.join(COMPRESSIONS)})")
    parser.add_argument("--keep", type=Path, help="export into this folder and keep the programs; one kept there "
                        "by an earlier run with the same sizes is timed again, not exported again")
    parser.add_argument("--precision", choices=("f32", "default"), default="f32",
                        help="f32 on every CPU class (default), or the importing class's own")
    parser.add_argument("--record", action="store_true",
                        help=f"also keep the result for the docs' table ({LLM_REAL_WIDTH.relative_to(PROJECT)})")
    options = parser.parse_args(argv)
    if (unknown := sorted(set(options.compressions) - set(COMPRESSIONS))) or not options.compressions:
        parser.error(f"--compressions: each one of {','.join(COMPRESSIONS)}, got {unknown or 'none'}")
    if options.context <= SHORT_CONTEXT:
        parser.error(f"--context: must be above the short program's {SHORT_CONTEXT}, got {options.context}")
    if options.prefill > options.context:
        parser.error(f"--prefill: must fit the context ({options.context}), got {options.prefill}")
    if options.precision == "f32":
        os.environ.update(F32_ISA_CAP)  # before OpenVINO loads, and for the export children
    if options.keep:
        cli.require_writable(parser, "--keep", options.keep)
    with contextlib.ExitStack() as stack:
        folder = options.keep or Path(stack.enter_context(tempfile.TemporaryDirectory()))
        plans = planned(folder, options.layers, options.context, options.prefill, options.compressions)
        if taken := conflicts(plans):
            parser.error(f"--keep: {taken[0]} holds another export (other sizes); choose another folder")
        result = measure(plans, layers=options.layers, context=options.context, prefill=options.prefill,
                         repeats=options.repeats)
    print(json.dumps(result, indent=1))
    if options.record:
        LLM_REAL_WIDTH.write_text(json.dumps(recorded(result, read_record(LLM_REAL_WIDTH)), indent=1) + "\n")


if __name__ == "__main__":
    main()
