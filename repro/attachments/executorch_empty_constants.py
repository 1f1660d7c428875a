"""A program whose only constants are 0-size loads from bytes but not by path: load_method fails with
error 0x23 ("constant_buffer path is disabled"), with any partitioner or none.

1. Export sin(cat([torch.tensor([]), x], -1) * 2 + 1) — a cache that starts empty, as every KV-cache
   decoder's does — with no partitioner (its constants: the empty tensor, 2 and 1), and
   cat([torch.tensor([]), x], -1) + x, whose only constant is the empty tensor, with no partitioner,
   with XNNPACK, and the first with OpenVINO (which takes every op and leaves the empty constant);
   where transformers imports, a tiny-config GPT-2 prompt step with its KV cache (2 layers, random
   weights) with OpenVINO, which takes every weight and leaves the empty caches behind.
2. Run each in a fresh process from Python bytes and by path (Runtime.load_program(path)).

A program whose constants are all 0-size has a 0-byte constant segment. The file loaders return a null
buffer for a 0-byte load (extension/data_loader/mmap_data_loader.cpp, file_data_loader.cpp), and
Program::get_constant_buffer_data (runtime/executor/program.cpp) takes a null segment for "no segment"
and falls back to the deprecated constant_buffer, compiled out. The buffer loader returns a pointer into
the bytes, so from bytes it works.

Needs torch and executorch (nncf and openvino for the OpenVINO rows, transformers for GPT-2); takes no
arguments. A model that fails to export is a row saying so, not a result. Exit status (git bisect run):
0 every run correct, 1 a run failed or was wrong, 2 usage error, 125 could not test (nothing exported).
"""

import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch


class ConcatOntoEmpty(torch.nn.Module):
    def forward(self, x):
        return (torch.cat([torch.tensor([]), x], -1) * 2 + 1).sin()


class OnlyAnEmptyConstant(torch.nn.Module):
    def forward(self, x):
        return torch.cat([torch.tensor([]), x], -1) + x


class Gpt2Prompt(torch.nn.Module):
    """Logits and every layer's keys and values of a tiny GPT-2 on a prompt (its cache starts empty)."""

    def __init__(self):
        super().__init__()
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(n_embd=32, n_layer=2, n_head=2, vocab_size=96, n_positions=64, bos_token_id=0,
                            eos_token_id=0)
        self.model = GPT2LMHeadModel(config).eval()

    def forward(self, input_ids):
        output = self.model(input_ids, use_cache=True)
        layers = output.past_key_values.layers
        return (output.logits, *(tensor for layer in layers for tensor in (layer.keys, layer.values)))


def partitioners():
    """{name: partitioner list}; OpenVINO only where its partitioner imports."""
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner

    found = {"none": [], "XNNPACK": [XnnpackPartitioner()]}
    try:
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner
        from executorch.exir.backend.backend_details import CompileSpec
    except ImportError:
        return found
    found["OpenVINO"] = [OpenvinoPartitioner([CompileSpec("device", b"CPU")])]
    return found


def models():
    """(model, its inputs, partitioner name, tolerance) to export; GPT-2 only where transformers imports.
    GPT-2's tolerance allows for bf16, which OpenVINO's CPU plugin picks on CPUs with AVX-512 BF16 or AMX."""
    torch.manual_seed(0)
    x = torch.rand(2, 3)
    chosen = [(ConcatOntoEmpty(), (x,), "none", 1e-5), (OnlyAnEmptyConstant(), (x,), "none", 1e-5),
              (OnlyAnEmptyConstant(), (x,), "XNNPACK", 1e-5), (ConcatOntoEmpty(), (x,), "OpenVINO", 1e-5)]
    try:
        chosen.append((Gpt2Prompt(), (torch.randint(0, 96, (1, 6)),), "OpenVINO", 0.1))
    except ImportError:
        print("GPT-2 not run: transformers is not installed")
    return chosen


def export(directory):
    """[(what, path of the program or None, export error or None)]."""
    from executorch.exir import to_edge_transform_and_lower

    found, files = partitioners(), []
    for model, inputs, partitioner, tolerance in models():
        if partitioner not in found:
            continue
        what = f"{type(model).__name__}, {partitioner} partitioner"
        try:
            lowered = to_edge_transform_and_lower(torch.export.export(model, inputs),
                                                  partitioner=found[partitioner]).to_executorch()
        except Exception as error:  # a release that cannot export this model: say so, do not count it
            files.append((what, None, f"{type(error).__name__}: {str(error).strip().splitlines()[0]}"))
            continue
        path = f"{directory}/{type(model).__name__}-{partitioner}.pte"
        with open(path, "wb") as file:
            file.write(lowered.buffer)
        with torch.no_grad():
            torch.save((inputs, model(*inputs), tolerance), path + ".io")
        files.append((what, path, None))
    return files


def run(pte, how):
    """Child: load by path or from bytes, execute once, print the max |diff| of each output to eager."""
    from executorch.runtime import Runtime

    inputs, expected, _ = torch.load(pte + ".io")
    expected = expected if isinstance(expected, tuple) else (expected,)
    program = Runtime.get().load_program(pte if how == "path" else open(pte, "rb").read())  # noqa: SIM115
    outputs = program.load_method("forward").execute(list(inputs))
    print(max(float((output - want).abs().max()) for output, want in zip(outputs, expected, strict=True)))


def main():
    try:
        import executorch.exir  # noqa: F401
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, torch {torch.__version__}")
    bad = tested = False
    with tempfile.TemporaryDirectory() as directory:
        for what, path, export_error in export(directory):
            if path is None:
                print(f"{what}: could not export ({export_error})")
                continue
            tolerance = torch.load(path + ".io")[2]
            for how in ("bytes", "path"):
                child = subprocess.run([sys.executable, __file__, path, how], capture_output=True, text=True,
                                       check=False)
                failed = next((line for line in child.stderr.splitlines() if "0x" in line), None)
                diff = float(child.stdout.split()[-1]) if child.returncode == 0 else None
                bad |= diff is None or diff > tolerance
                tested = True
                result = f"max |diff| {diff:.3g}" if diff is not None else (failed or f"exit {child.returncode}")
                print(f"{what}, loaded from {how:5}: {result.strip()}")
    if not tested:
        print("COULD NOT TEST: no model exported")
        return 125
    print("BUG REPRODUCED" if bad else "OK: every run equals eager")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif len(sys.argv) == 3:  # the child, started by main()
        sys.exit(run(sys.argv[1], sys.argv[2]))
    elif sys.argv[1:]:
        print("executorch_empty_constants.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
