"""ExecuTorch's OpenVINO backend frees a delegate's blob right after importing it: loading a .pte by
path crashes with OpenVINO 2026.4.x.

1. Export relu(Conv2d(3, 8, 3)(x)) with the stock OpenvinoPartitioner and write two .pte files:
   the default (delegate blob in a segment after the flatbuffer) and one with
   ExecutorchBackendConfig(extract_delegate_segments=False) (blob inside the flatbuffer).
2. Run each in a fresh process, loaded by path with Runtime.load_program(path) as deployments
   do, and the default one also from Python bytes; compare with eager PyTorch.

OpenvinoBackend::init calls ov_core_import_model(core, processed->data(), ...) and then
processed->Free(): for a segment loaded from a file that unmaps it, while OpenVINO 2026.4 keeps
reading the conv's bias from it. From bytes Free() is a no-op; inline, the flatbuffer stays alive.

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 every run correct, 1 a run crashed or was wrong, 2 usage error, 125 could not test.
"""

import glob
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch


def run(pte, how):
    """Child: load by path or from bytes, execute once, print the max |diff| to eager."""
    import openvino
    from executorch.runtime import Runtime

    libs = glob.glob(f"{os.path.dirname(openvino.__file__)}/libs/libopenvino_c.so*")
    os.environ.setdefault("OPENVINO_LIB_PATH", libs[0])
    x, expected = torch.load(pte + ".io")
    program = Runtime.get().load_program(pte if how == "path" else open(pte, "rb").read())  # noqa: SIM115
    actual = program.load_method("forward").execute([x])[0]
    print(float((actual - expected).abs().max()))


def export(directory):
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU()).eval()
    x = torch.rand(1, 3, 16, 16)
    files = {}
    for name, extract in (("segment", True), ("inline", False)):
        edge = to_edge_transform_and_lower(torch.export.export(model, (x,)),
                                           partitioner=[OpenvinoPartitioner([CompileSpec("device", b"CPU")])])
        files[name] = f"{directory}/{name}.pte"
        with open(files[name], "wb") as file:
            file.write(edge.to_executorch(ExecutorchBackendConfig(extract_delegate_segments=extract)).buffer)
        torch.save((x, model(x)), files[name] + ".io")
    return files


def main():
    try:
        import openvino
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: F401 (needs nncf)
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, torch {torch.__version__}")
    with tempfile.TemporaryDirectory() as directory:
        files = export(directory)
        bad = False
        for name, how in (("segment", "bytes"), ("segment", "path"), ("inline", "path")):
            child = subprocess.run([sys.executable, __file__, files[name], how], capture_output=True, text=True,
                                   check=False)
            diff = float(child.stdout.split()[-1]) if child.returncode == 0 else None
            bad |= diff is None or diff > 1e-2
            result = f"max |diff| {diff:.3g}" if diff is not None else f"exit {child.returncode}"
            print(f"blob in {name:7}, loaded from {how:5}: {result}")
    print("BUG REPRODUCED" if bad else "OK: every run equals eager")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif len(sys.argv) == 3:  # the child, started by main()
        sys.exit(run(sys.argv[1], sys.argv[2]))
    elif sys.argv[1:]:
        print("executorch_frees_blob.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
