"""With OpenVINO 2026.4, every OpenVINO-delegated .pte loads only on the CPU class of the machine that exported
it.

1. Export relu(Linear(16, 8)(x)) with the stock OpenvinoPartitioner, blob inline (so that loading by path is not
   also the freed-blob bug), and print the compatibility header OpenVINO 2026.4 writes before the blob:
   ``meta=1.0;ov=<release>;isa=<the exporting CPU's ISA>``.
2. Load it from bytes and by path in a process computing as this CPU, then in one whose kernels oneDNN caps one
   class lower (``ONEDNN_MAX_CPU_ISA``: AVX2 on an AVX-512 host, SSE4.1 on an AVX2 one),
   which is what any machine of that class is. ``load_method`` fails there with error 0x1 (OpenVINO: "built for
   a different runtime configuration"), while the same model exported in that process loads and runs.

OpenvinoBackend::init imports the blob with ov_core_import_model; OpenVINO 2026.4's CPU plugin refuses a blob
whose header is not the importer's own (openvino PR #36969), and the backend logs only "failed to import model".

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 the program loads in both classes, 1 it does not load in the other class, 2 usage error, 125 could not test.
"""

import glob
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch

LOWER = {True: "AVX2", False: "SSE41"}  # oneDNN's cap one class below this CPU: by whether it has AVX-512


def run(*ptes):
    """Child: each program loaded from bytes and by path and executed once; one line each: the max |diff| to
    eager, or the load's error."""
    import openvino
    from executorch.runtime import Runtime

    libs = glob.glob(f"{os.path.dirname(openvino.__file__)}/libs/libopenvino_c.so*")
    os.environ.setdefault("OPENVINO_LIB_PATH", libs[0])
    for pte in ptes:
        x, expected = torch.load(pte + ".io")
        for how in ("bytes", "path"):
            try:
                program = Runtime.get().load_program(pte if how == "path" else open(pte, "rb").read())  # noqa: SIM115
                actual = program.load_method("forward").execute([x])[0]
                print(f"max |diff| {float((actual - expected).abs().max()):.3g}", flush=True)
            except RuntimeError as error:
                print(f"fails: {' '.join(str(error).split())[:120]}", flush=True)


def export(path):
    """Parent or child: the stock program, written to ``path``; returns its blob's header text."""
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(16, 8), torch.nn.ReLU()).eval()
    x = torch.rand(2, 16)
    edge = to_edge_transform_and_lower(torch.export.export(model, (x,)),
                                       partitioner=[OpenvinoPartitioner([CompileSpec("device", b"CPU")])])
    program = edge.to_executorch(ExecutorchBackendConfig(extract_delegate_segments=False))
    with open(path, "wb") as file:
        file.write(program.buffer)
    torch.save((x, model(x)), path + ".io")
    blob = program.executorch_program.backend_delegate_data[0].data
    header = blob[20:20 + int.from_bytes(blob[12:20], "little")] if blob.startswith(b"RR_UPCVO") else b""
    return header.decode(errors="replace") or "(no header: OpenVINO before 2026.4)"


def child(*arguments, environment=None):
    return subprocess.run([sys.executable, __file__, *arguments], capture_output=True, text=True, check=False,
                          env={**os.environ, **(environment or {})})


def main():
    try:
        import openvino
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: F401 (needs nncf)
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, torch {torch.__version__}")
    with open("/proc/cpuinfo") as cpuinfo:
        lower = LOWER["avx512f" in cpuinfo.read()]
    capped = {"ONEDNN_MAX_CPU_ISA": lower, "OV_CPU_MAX_ISA": lower}
    with tempfile.TemporaryDirectory() as directory:
        here, there = f"{directory}/here.pte", f"{directory}/capped.pte"
        print("exported here, the blob's header:", export(here))
        header = child("--export", there, environment=capped).stdout.strip()
        print(f"exported capped at {lower}, its header:", header)
        loads = {"here": child("--run", here).stdout.split("\n"),
                 f"capped at {lower}": child("--run", here, there, environment=capped).stdout.split("\n")}
        results = [("exported here", "here", loads["here"][:2]),
                   ("exported here", f"capped at {lower}", loads[f"capped at {lower}"][:2]),
                   (f"exported capped at {lower}", f"capped at {lower}", loads[f"capped at {lower}"][2:4])]
        for made, where, lines in results:
            for how, line in zip(("bytes", "path"), lines, strict=True):
                print(f"{made:26} loaded from {how:5} in a process {where:15}: {line or 'crashed'}")
        refused = not all(line.startswith("max") for line in loads[f"capped at {lower}"][:2])
    print("BUG REPRODUCED: the program loads only on the CPU class that exported it" if refused else
          "OK: the program loads on both classes")
    return 1 if refused else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif len(sys.argv) == 3 and sys.argv[1] == "--export":  # a child, started by main()
        print(export(sys.argv[2]))
    elif len(sys.argv) >= 3 and sys.argv[1] == "--run":  # a child, started by main()
        run(*sys.argv[2:])
    elif sys.argv[1:]:
        print("executorch_cpu_stamp.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
