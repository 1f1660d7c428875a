"""What keeping OpenVINO blobs inline costs: file size, load time and run time.

The workaround serializes programs with an OpenVINO delegate with their blob inside the
flatbuffer (safe to load by path on OpenVINO 2026.4). The reference is the same model
serialized as ExecuTorch does by default (blob in a segment), loaded from Python bytes: the
only way that program loads safely on 2026.4. Both are loaded, then run, interleaved in one
process with the real runtime; loading counts from a path (or the file's bytes) to a method
ready to execute. Models: a 4-block conv-bn-relu net (small blob) and a Linear(2048, 2048)
(16 MiB blob). Prints one JSON object and a summary line per model.

    python benchmarks/by_path_cost.py [--repeats 30]
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

import torch

from benchmarks.timing import interleaved_timings
from repro.harness.lowering import to_edge
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models import catalogue
from repro.harness.runtime.available import check_runtime


def conv_net():
    torch.manual_seed(0)
    blocks = [layer for channels in ((3, 16), (16, 32), (32, 32), (32, 16))
              for layer in (torch.nn.Conv2d(*channels, 3, padding=1), torch.nn.BatchNorm2d(channels[1]),
                            torch.nn.ReLU())]
    return torch.nn.Sequential(*blocks).eval(), (torch.rand(1, 3, 64, 64),)


def big_linear():
    torch.manual_seed(0)
    return torch.nn.Linear(2048, 2048).eval(), (torch.rand(4, 2048),)


MODELS = {"conv_bn_relu_x4": conv_net, "linear_2048": big_linear}


def write_programs(name, folder):
    """{"inline": path, "segment": path}: the workaround's program and the stock serialization."""
    module, inputs = MODELS[name]()
    case = catalogue.Case(name, name, module, lambda: inputs)
    paths = {}
    for kind, partitioner in (("inline", "workaround"), ("segment", "stock")):
        program = to_edge.lower(case, LOWERINGS[partitioner]).to_executorch()
        paths[kind] = Path(folder) / f"{name}.{kind}.pte"
        paths[kind].write_bytes(program.buffer)
    return paths, inputs


def loader(source):
    """A function that loads ``source`` (a path, or a file whose bytes are read) to a ready method."""
    from executorch.runtime import Runtime

    path, from_bytes = source
    kept = []

    def load():
        program = Runtime.get().load_program(path.read_bytes() if from_bytes else path)
        kept[:] = [program, program.load_method("forward")]
        return kept

    return load


def measure(name, folder, repeats):
    paths, inputs = write_programs(name, folder)
    sources = {"inline_by_path": (paths["inline"], False), "segment_from_bytes": (paths["segment"], True),
               "inline_from_bytes": (paths["inline"], True)}
    loaders = {kind: loader(source) for kind, source in sources.items()}
    load_times = interleaved_timings(loaders, repeats)
    methods = {kind: load()[1] for kind, load in loaders.items()}
    run_times = interleaved_timings({kind: (lambda m=method: m.execute(list(inputs)))
                                     for kind, method in methods.items()}, repeats * 10)
    sizes = {kind: path.stat().st_size for kind, path in paths.items()}
    reference = "segment_from_bytes"
    return {"model": name, "file_bytes": sizes, "load": load_times, "run": run_times,
            "inline_by_path_over_segment_from_bytes": {
                "file_size": sizes["inline"] / sizes["segment"],
                "load": load_times["inline_by_path"]["median_ms"] / load_times[reference]["median_ms"],
                "run": run_times["inline_by_path"]["median_ms"] / run_times[reference]["median_ms"]}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="loads per program (runs: 10x as many)")
    args = parser.parse_args(argv)
    check_runtime()
    with tempfile.TemporaryDirectory() as folder:
        results = [measure(name, folder, args.repeats) for name in MODELS]
    print(json.dumps({"benchmark": "by_path_cost", "repeats": args.repeats, "models": results}, indent=1))
    for result in results:
        ratio, sizes = result["inline_by_path_over_segment_from_bytes"], result["file_bytes"]
        print(f"blob inline, loaded by path, vs the default segment loaded from bytes, {result['model']}: file "
              f"{sizes['inline']} vs {sizes['segment']} bytes ({ratio['file_size']:.3f}x), load "
              f"{result['load']['inline_by_path']['median_ms']:.2f} vs "
              f"{result['load']['segment_from_bytes']['median_ms']:.2f} ms ({ratio['load']:.2f}x), run "
              f"{result['run']['inline_by_path']['median_ms']:.3f} vs "
              f"{result['run']['segment_from_bytes']['median_ms']:.3f} ms ({ratio['run']:.2f}x)", file=sys.stderr)


if __name__ == "__main__":
    main()
