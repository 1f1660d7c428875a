"""A program whose only constants are 0-size loads from bytes but not by path: load_method fails with
error 0x23 ("constant_buffer path is disabled"), with any partitioner or none.

1. Export sin(cat([torch.tensor([]), x], -1) * 2 + 1) — a cache that starts empty, as every KV-cache
   decoder's does — with no partitioner (its constants: the empty tensor, 2 and 1), and
   cat([torch.tensor([]), x], -1) + x, whose only constant is the empty tensor, with no partitioner,
   with XNNPACK, and the first with OpenVINO (which takes every op and leaves the empty constant).
2. Run each in a fresh process from Python bytes and by path (Runtime.load_program(path)).

A program whose constants are all 0-size has a 0-byte constant segment. The file loaders return a null
buffer for a 0-byte load (extension/data_loader/mmap_data_loader.cpp, file_data_loader.cpp), and
Program::get_constant_buffer_data (runtime/executor/program.cpp) takes a null segment for "no segment"
and falls back to the deprecated constant_buffer, compiled out. The buffer loader returns a pointer into
the bytes, so from bytes it works.

Needs torch and executorch (nncf and openvino for the OpenVINO row); takes no arguments. Exit status
(git bisect run): 0 every run correct, 1 a run failed or was wrong, 2 usage error, 125 could not test.
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


def export(directory):
    from executorch.exir import to_edge_transform_and_lower

    x, found, files = torch.rand(2, 3), partitioners(), []
    for model, partitioner in ((ConcatOntoEmpty(), "none"), (OnlyAnEmptyConstant(), "none"),
                               (OnlyAnEmptyConstant(), "XNNPACK"), (ConcatOntoEmpty(), "OpenVINO")):
        if partitioner not in found:
            continue
        lowered = to_edge_transform_and_lower(torch.export.export(model, (x,)), partitioner=found[partitioner])
        path = f"{directory}/{type(model).__name__}-{partitioner}.pte"
        with open(path, "wb") as file:
            file.write(lowered.to_executorch().buffer)
        torch.save((x, model(x)), path + ".io")
        files.append((f"{type(model).__name__}, {partitioner} partitioner", path))
    return files


def run(pte, how):
    """Child: load by path or from bytes, execute once, print the max |diff| to eager."""
    from executorch.runtime import Runtime

    x, expected = torch.load(pte + ".io")
    program = Runtime.get().load_program(pte if how == "path" else open(pte, "rb").read())  # noqa: SIM115
    print(float((program.load_method("forward").execute([x])[0] - expected).abs().max()))


def main():
    try:
        import executorch.exir  # noqa: F401
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, torch {torch.__version__}")
    bad = False
    with tempfile.TemporaryDirectory() as directory:
        for what, path in export(directory):
            for how in ("bytes", "path"):
                child = subprocess.run([sys.executable, __file__, path, how], capture_output=True, text=True,
                                       check=False)
                failed = next((line for line in child.stderr.splitlines() if "0x" in line), None)
                diff = float(child.stdout.split()[-1]) if child.returncode == 0 else None
                bad |= diff is None or diff > 1e-5
                result = f"max |diff| {diff:.3g}" if diff is not None else (failed or f"exit {child.returncode}")
                print(f"{what}, loaded from {how:5}: {result.strip()}")
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
