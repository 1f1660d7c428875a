"""What keeping the delegate's blob costs in resident memory: a program with a 64 MiB blob (Linear(4096, 4096))
loaded by path with ExecuTorch's C++ Module, through its FileDataLoader (the blob read into the heap) and its
MmapDataLoader (the blob mapped from the file), with three fixes side by side:

  - the stock runtime (``OpenvinoBackend::init`` frees the blob after ``ov_core_import_model``),
  - the runtime with ``blob-lifetime`` (the blob kept as long as the method),
  - the stock runtime with the workaround's program (the blob inline in the flatbuffer, which stays loaded).

Per OpenVINO environment (each its own ExecuTorch + OpenVINO venv, ``--python``; before 2026.4 the import
copies the blob, from 2026.4.0 it keeps pointers into it), the programs are exported there, both runtimes
rebuilt from an ExecuTorch checkout against that environment's wheel, and ``blob_memory_runner.cpp`` built
against it; each combination runs in a fresh process ``--repeats`` times and reports the median of VmRSS after
``load_method``, after the first run, and VmHWM (peak), in MiB, with whether the output is right.

    python -m benchmarks.blob_memory --executorch-source DIR [--python .tox/ov2026.3/bin/python ...]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from repro.harness.lowering import executorch_patches as patches
from repro.harness.runtime.mmap_module_runner import build_runner

RUNNER = Path(__file__).with_name("blob_memory_runner.cpp")
FEATURES = 4096  # Linear(4096, 4096): 64 MiB of float32 weights
PROGRAMS = ("stock", "workaround")
LOADERS = ("file", "mmap")
# (name, runtime library, program)
FIXES = (("stock", "stock", "stock"), ("blob-lifetime", "blob-lifetime", "stock"),
         ("inline blob (workaround)", "stock", "workaround"))
ENVIRONMENT_SCRIPT = """
import glob, json, os, openvino, executorch
print(json.dumps({"openvino": openvino.get_version().split("-")[0], "executorch": list(executorch.__path__)[0],
                  "libopenvino_c": glob.glob(os.path.dirname(openvino.__file__) + "/libs/libopenvino_c.so*")[0]}))
"""


def export(folder):
    """(In the environment being measured.) The stock and the workaround's program, and eager's output sum."""
    import torch

    from repro.harness.lowering import to_edge
    from repro.harness.lowering.named import LOWERINGS
    from repro.harness.models import catalogue

    torch.manual_seed(0)
    model, x = torch.nn.Linear(FEATURES, FEATURES).eval(), torch.ones(1, FEATURES)
    for partitioner in PROGRAMS:
        case = catalogue.Case("blob_memory", "Linear(4096, 4096)", model, lambda: (x,))
        program = to_edge.lower(case, LOWERINGS[partitioner]).to_executorch()
        (Path(folder) / f"{partitioner}.pte").write_bytes(program.buffer)
    with torch.no_grad():
        (Path(folder) / "expected_sum").write_text(str(float(model(x).sum())))


def run_once(runner, program, loader, library, libopenvino_c):
    env = patches.with_search_paths(library_path=library,
                                    base={"OPENVINO_LIB_PATH": libopenvino_c, "PATH": "/usr/bin"})
    result = subprocess.run([str(runner), str(program), loader, str(FEATURES)], capture_output=True, text=True,
                            env=env, check=False, timeout=300)
    if result.returncode != 0:
        return {"exit_code": result.returncode}
    fields = result.stdout.split()
    values = dict(zip(fields[::2], fields[1::2], strict=True))
    return {"exit_code": 0, **{key: int(value) / 1024 for key, value in values.items() if key.endswith("_kb")},
            "sum": float(values["sum"])}


def measure(python, source, repeats, folder):
    """One OpenVINO environment: {"openvino", "runs": [{fix, loader, outcome, loaded/run/peak MiB}]}."""
    described = json.loads(subprocess.run([str(python), "-c", ENVIRONMENT_SCRIPT], capture_output=True, text=True,
                                          check=True).stdout)
    wheel = Path(described["executorch"])
    subprocess.run([str(python), "-m", "benchmarks.blob_memory", "--export", str(folder)], check=True,
                   capture_output=True, cwd=Path(__file__).resolve().parents[1])
    expected = float((folder / "expected_sum").read_text())
    libraries = {"stock": patches.build_backend(source, folder / "stock", wheel=wheel),
                 "blob-lifetime": patches.build_backend(source, folder / "blob-lifetime",
                                                        patches.patch_files(patches.BLOB_LIFETIME), wheel=wheel)}
    runner = folder / "runner"
    build_runner(wheel, RUNNER, runner)
    runs = []
    for fix, library, program in FIXES:
        for loader in LOADERS:
            samples = [run_once(runner, folder / f"{program}.pte", loader, libraries[library],
                                described["libopenvino_c"]) for _ in range(repeats)]
            ok = [sample for sample in samples if sample["exit_code"] == 0]
            row = {"fix": fix, "loader": loader, "exit_codes": sorted({s["exit_code"] for s in samples})}
            if ok:
                right = all(abs(sample["sum"] - expected) <= 1e-2 * max(1.0, abs(expected)) for sample in ok)
                row.update(outcome="right" if right else "wrong", **{
                    f"{key}_mib": round(statistics.median(sample[f"{key}_kb"] for sample in ok), 1)
                    for key in ("loaded", "run", "peak")})
            else:
                row["outcome"] = "crashed" if any(code < 0 or code == 139 for code in row["exit_codes"]) \
                    else "failed"
            runs.append(row)
    return {"openvino": described["openvino"], "runs": runs}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--executorch-source", type=Path, default=None,
                        help=f"an ExecuTorch checkout (default: ${patches.SOURCE_VARIABLE})")
    parser.add_argument("--python", action="append", type=Path,
                        help="an environment with executorch and OpenVINO (repeatable; default: this one)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--export", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.export:
        export(args.export)
        return
    source = patches.checkout_argument(parser, args.executorch_source)
    pythons = args.python or [Path(sys.executable)]
    missing = [python for python in pythons if not python.exists()]
    if missing:
        parser.error(f"no such interpreter: {missing[0]}")
    results = []
    for python in pythons:
        with tempfile.TemporaryDirectory() as temporary:
            results.append(measure(python, source, args.repeats, Path(temporary)))
    print(json.dumps({"benchmark": "blob_memory", "blob_mib": FEATURES * FEATURES * 4 / 2**20,
                      "repeats": args.repeats, "results": results}, indent=1))
    for result in results:
        for run in result["runs"]:
            figures = (f"loaded {run['loaded_mib']} MiB, after a run {run['run_mib']} MiB, "
                       f"peak {run['peak_mib']} MiB" if "peak_mib" in run else f"exit {run['exit_codes']}")
            print(f"OpenVINO {result['openvino']}, {run['fix']}, {run['loader']} loader: {run['outcome']}; "
                  f"{figures}", file=sys.stderr)


if __name__ == "__main__":
    main()
