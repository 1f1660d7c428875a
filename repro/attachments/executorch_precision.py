"""ExecuTorch's OpenVINO delegate cannot run an f32 model in f32 on CPUs with AVX-512 BF16 or AMX: there the
CPU plugin computes in bf16 by default, and neither the partitioner's compile specs nor anything else reaches
the import that decides.

1. Export forward(x) = x @ weight (256 x 256, f32) with the stock OpenvinoPartitioner, asking for f32 the
   way its compile specs take options: CompileSpec("INFERENCE_PRECISION_HINT", b"f32").
2. Load it by path in a fresh process and run it; compare with float64. f32 leaves about 2e-5, bf16 about 0.1.

OpenvinoBackend::init imports the blob with ov_core_import_model, which takes no properties, and the exported
blob does not keep the precision it was compiled with, so the importing CPU decides.

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 the delegate runs at f32 accuracy, 1 it does not (or the run failed), 2 usage error, 125 could not test
(this CPU computes f32 by default, so it cannot show the bug).
"""

import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch

F32_ERROR = 1e-4  # f32 leaves about 2e-5 on this matmul, bf16 about 0.1


class MatMul(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(256, 256))

    def forward(self, x):
        return x @ self.weight


def run(pte):
    """Child: load by path, execute once, print the max error against float64."""
    from executorch.runtime import Runtime

    x, weight = torch.load(pte + ".io")
    (output,) = Runtime.get().load_program(pte).load_method("forward").execute([x])
    print(f"{float((output.double() - x.double() @ weight.double()).abs().max()):.2g}")


def export(directory):
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    torch.manual_seed(0)
    module, x = MatMul().eval(), torch.randn(1, 256)
    specs = [CompileSpec("device", b"CPU"), CompileSpec("INFERENCE_PRECISION_HINT", b"f32")]
    edge = to_edge_transform_and_lower(torch.export.export(module, (x,)),
                                       partitioner=[OpenvinoPartitioner(specs)])
    path = f"{directory}/matmul.pte"
    with open(path, "wb") as file:
        file.write(edge.to_executorch().buffer)
    torch.save((x, module.weight.detach()), path + ".io")
    return path


def main():
    try:
        import openvino
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: F401 (needs nncf)
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    default = openvino.Core().get_property("CPU", "INFERENCE_PRECISION_HINT").get_type_name()
    print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, torch {torch.__version__}; "
          f"the CPU plugin's default precision here: {default}")
    if default == "f32":
        print("COULD NOT TEST: this CPU computes f32 by default (no AVX-512 BF16 or AMX, or OV_CPU_MAX_ISA "
              "caps it)")
        return 125
    with tempfile.TemporaryDirectory() as directory:
        path = export(directory)
        child = subprocess.run([sys.executable, __file__, path], capture_output=True, text=True, check=False)
    if child.returncode != 0:
        print(f"loaded by path: exit {child.returncode}\nBUG REPRODUCED")
        return 1
    error = float(child.stdout.strip().splitlines()[-1])
    print(f"compile specs ask for INFERENCE_PRECISION_HINT=f32; max error against float64: {error:.2g} "
          f"(f32 leaves < {F32_ERROR:g})")
    print("BUG REPRODUCED: the delegate ran below f32" if error > F32_ERROR else "OK: the delegate ran at f32")
    return 1 if error > F32_ERROR else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif len(sys.argv) == 2 and sys.argv[1].endswith(".pte"):  # the child, started by main()
        run(sys.argv[1])
    elif sys.argv[1:]:
        print("executorch_precision.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
