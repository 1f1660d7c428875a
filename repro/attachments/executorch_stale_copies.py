"""ExecuTorch's OpenVINO delegate returns a stale copy: a partition output that is a copy of a partition
input (x.clone(), x.detach(), x[:, :]) comes back as whatever its buffer held, and what is computed from
the input is computed from that.

1. Export forward(x): y = x.clone(); return y, sin(y) with the stock OpenvinoPartitioner, which takes both
   ops, so the delegate's first output is a Result fed by its Parameter.
2. Run it in a fresh process from Python bytes and by path (Runtime.load_program(path)); compare with
   eager PyTorch, and check that the caller's x is left as it was.

OpenvinoBackend::execute sets every input tensor, then every output tensor. OpenVINO gives such a Result
the Parameter's tensor, so setting the output replaces the input's: the CPU plugin never writes the
output and reads the output's buffer as the input.

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 every run correct, 1 a run was wrong or failed, 2 usage error, 125 could not test.
"""

import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch


class CopyThenSin(torch.nn.Module):
    def forward(self, x):
        y = x.clone()
        return y, torch.sin(y)


def run(pte, how):
    """Child: load by path or from bytes, execute once, print what is right."""
    from executorch.runtime import Runtime

    x = torch.load(pte + ".io")
    given = x.clone()
    program = Runtime.get().load_program(pte if how == "path" else open(pte, "rb").read())  # noqa: SIM115
    copy, sin = program.load_method("forward").execute([given])
    print(f"copy == x: {torch.equal(copy, x)}; sin == sin(x): {torch.allclose(sin, torch.sin(x), atol=1e-2)}; "
          f"x intact: {torch.equal(given, x)}")


def export(directory):
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    torch.manual_seed(0)
    x = torch.rand(2, 3) + 0.5
    edge = to_edge_transform_and_lower(torch.export.export(CopyThenSin(), (x,)),
                                       partitioner=[OpenvinoPartitioner([CompileSpec("device", b"CPU")])])
    path = f"{directory}/copy_then_sin.pte"
    with open(path, "wb") as file:
        file.write(edge.to_executorch().buffer)
    torch.save(x, path + ".io")
    return path


def main():
    try:
        import openvino
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: F401 (needs nncf)
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, torch {torch.__version__}")
    bad = False
    with tempfile.TemporaryDirectory() as directory:
        path = export(directory)
        for how in ("bytes", "path"):
            child = subprocess.run([sys.executable, __file__, path, how], capture_output=True, text=True,
                                   check=False)
            result = child.stdout.strip().splitlines()[-1] if child.returncode == 0 else f"exit {child.returncode}"
            bad |= child.returncode != 0 or "False" in result
            print(f"loaded from {how:5}: {result}")
    print("BUG REPRODUCED" if bad else "OK: every run equals eager")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif len(sys.argv) == 3:  # the child, started by main()
        run(sys.argv[1], sys.argv[2])
    elif sys.argv[1:]:
        print("executorch_stale_copies.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
