"""What f32 costs against the CPU's default precision (bf16 on CPUs with AVX-512 BF16 or AMX), through
ExecuTorch with the workaround, so a model owner can choose: run time and max error against eager PyTorch.

The precision is the importing process's (``repro/harness/cpu/precision.py``): one child runs with OpenVINO's
instruction set capped (``OV_CPU_MAX_ISA``: f32), one without (the default), in turn, round after round, each
loading the same programs from bytes; a figure is the median of its rounds' medians (the rounds interleave,
so drift on a 2-core machine hits both alike). Models: the catalogue's conv net (``conv_bias_relu``), a
224x224 CNN and a transformer encoder block.

    python -m benchmarks.precision_cost [--rounds 5] [--repeats 20]
"""

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import torch

from benchmarks.timing import child_rounds
from repro.harness.cpu import precision
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue


def cnn_224():
    layers = [torch.nn.Conv2d(3, 32, 3, 2, 1), torch.nn.ReLU(), torch.nn.Conv2d(32, 64, 3, 2, 1), torch.nn.ReLU(),
              torch.nn.Conv2d(64, 128, 3, 2, 1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
              torch.nn.Flatten(), torch.nn.Linear(128, 10)]
    return torch.nn.Sequential(*layers)


def models():
    """{name: (model, inputs)}, seeded."""
    torch.manual_seed(0)
    conv_net = next(case for case in catalogue.CATALOGUE if case.name == "conv_bias_relu")
    block = torch.nn.TransformerEncoderLayer(256, 4, 512, dropout=0.0, batch_first=True).eval()
    return {"catalogue_conv_net": (conv_net.module(), conv_net.inputs()),
            "cnn_224": (cnn_224().eval(), (torch.rand(1, 3, 224, 224),)),
            "transformer_block": (block, (torch.rand(1, 64, 256),))}


def export(folder):
    for name, (model, inputs) in models().items():
        case = catalogue.Case(name, name, model, lambda inputs=inputs: inputs)
        program = to_edge.lower(case, LOWERINGS["workaround"]).to_executorch()
        (folder / f"{name}.pte").write_bytes(program.buffer)
        with torch.no_grad():
            torch.save((inputs, model(*inputs)), folder / f"{name}.io")


def child(folder, repeats):
    """{model: {"samples_ms", "max_error", "f32"}} in this process's precision."""
    from executorch.runtime import Runtime

    results, programs = {}, []  # a method must not outlive its program
    for path in sorted(folder.glob("*.pte")):
        inputs, expected = torch.load(path.with_suffix(".io"))
        programs.append(Runtime.get().load_program(path.read_bytes()))
        method = programs[-1].load_method("forward")
        (output,) = method.execute(list(inputs))[:1]
        error = float((output - expected).abs().max())
        samples = []
        for _ in range(repeats):
            started = time.perf_counter()
            method.execute(list(inputs))
            samples.append((time.perf_counter() - started) * 1e3)
        results[path.stem] = {"samples_ms": samples, "max_error": error, "f32": precision.default_is_f32()}
    print(json.dumps(results))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.repeats < 1:
        parser.error("--rounds and --repeats must be at least 1")
    if args.child:
        child(args.child, args.repeats)
        return
    default = precision.without_cap()
    environments = {"f32": {**default, **precision.F32_ISA_CAP}, "default": default}
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        export(folder)
        command = [sys.executable, "-m", "benchmarks.precision_cost", "--child", str(folder), "--repeats",
                   str(args.repeats)]
        runs = child_rounds({mode: (command, env) for mode, env in environments.items()}, args.rounds)
    results = {name: {mode: {"median_ms": runs[mode, name]["median_ms"],
                             "max_error": runs[mode, name]["max_error"], "computes_f32": runs[mode, name]["f32"]}
                      for mode in environments}
               for name in sorted({name for _, name in runs})}
    for result in results.values():
        result["time_ratio_f32_over_default"] = result["f32"]["median_ms"] / result["default"]["median_ms"]
    print(json.dumps({"benchmark": "precision_cost", "rounds": args.rounds, "repeats": args.repeats,
                      "results": results}, indent=1))
    for name, result in results.items():
        default = "bf16" if not result["default"]["computes_f32"] else "f32 (this CPU's default)"
        print(f"{name}: f32 {result['f32']['median_ms']:.2f} ms (max error {result['f32']['max_error']:.2g}), "
              f"default {default} {result['default']['median_ms']:.2f} ms (max error "
              f"{result['default']['max_error']:.2g}): f32 takes {result['time_ratio_f32_over_default']:.2f}x",
              file=sys.stderr)


if __name__ == "__main__":
    main()
