"""A program past the flatbuffer's 2 GiB, as a new user makes one: nine ``Linear(8192, 8192)`` with biases,
float32, 2.25 GiB of weights, one OpenVINO delegate; exported and run each in a child of its own, which reports its
peak memory (a model this size is what memory is measured on, and what a crash must not take down).

    python -m repro.harness.models.large_program export LOWERING FOLDER [without-biases]
        # program.pte, input.bin, eager.bin; a JSON line
    python -m repro.harness.models.large_program run LOAD FOLDER
        # one JSON line: the run's difference, peak

``LOAD`` is ``path`` or ``bytes`` (``Runtime.load_program``, as ``repro.harness.runtime.program_runner`` loads);
the C++ ``Module``'s mmap load is ``repro.harness.runtime.mmap_module_runner``. Input and eager's output are raw
float32, so the C++ runner reads them as they are. ``without-biases`` makes the same layers without biases: stock,
its blob in a segment is then safe by path (the CPU plugin repacks every weight it holds at import, and reads a
bias in place).
"""

import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from repro.harness.lowering.executorch_patches import with_search_paths
from repro.harness.runtime.process_memory import peak_bytes
from repro.harness.runtime.program_runner import PROJECT, how_it_ended

FEATURES, LAYERS = 8192, 9
WEIGHT_BYTES = LAYERS * (FEATURES * FEATURES + FEATURES) * 4
PROGRAM, INPUT, EAGER = "program.pte", "input.bin", "eager.bin"
WITHOUT_BIASES = "without-biases"
CHILD_TIMEOUT = 1200


@dataclass(frozen=True)
class LargeExport:
    lowering: str
    error: str | None  # the last line of what the export raised, or how its process ended
    seconds: float | None = None
    peak_bytes: int | None = None  # the export process's peak resident memory
    file_bytes: int | None = None


@dataclass(frozen=True)
class LargeRun:
    load: str
    error: str | None  # what the runtime raised, or how the process ended (crashed: SIGSEGV)
    max_abs_difference: float | None = None  # against eager, over every output value
    peak_bytes: int | None = None


def model(biases: bool = True):
    import torch

    torch.manual_seed(0)
    layers = [torch.nn.Linear(FEATURES, FEATURES, bias=biases) for _ in range(LAYERS)]
    with torch.no_grad():  # weights of the default init's scale, so that values stay of order 1 through 9 layers
        for layer in layers:
            layer.weight.normal_(0.0, FEATURES ** -0.5)
    return torch.nn.Sequential(*layers).eval()


def export(lowering: str, folder: Path, biases: bool = True) -> LargeExport:
    """The model lowered as ``lowering`` (``repro.harness.lowering.named``) and serialized, in this process."""
    import torch
    from executorch.exir import to_edge_transform_and_lower

    from repro.harness.lowering.named import LOWERINGS

    started = time.monotonic()
    module, x = model(biases), torch.randn(1, FEATURES, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = module(x)
    x.numpy().tofile(folder / INPUT)
    expected.numpy().tofile(folder / EAGER)
    partitioner, _ = LOWERINGS[lowering].make()
    try:
        edge = to_edge_transform_and_lower(torch.export.export(module, (x,)), partitioner=[partitioner])
        with (folder / PROGRAM).open("wb") as file:
            edge.to_executorch().write_to_file(file)
    except Exception as exception:  # a refusal or a failure to serialize is the finding
        lines = str(exception).strip().splitlines() or [""]
        return LargeExport(lowering, f"{type(exception).__name__}: {lines[-1][:400]}")
    return LargeExport(lowering, None, round(time.monotonic() - started, 1), peak_bytes(),
                        (folder / PROGRAM).stat().st_size)


def run(load: str, folder: Path) -> LargeRun:
    """The program loaded as ``load`` and run once on the input, in this process."""
    import numpy as np
    import torch

    from repro.harness.runtime.child_import import import_runtime_without_the_compiler

    import_runtime_without_the_compiler()
    from executorch.runtime import Runtime

    x = torch.from_numpy(np.fromfile(folder / INPUT, dtype=np.float32).reshape(1, FEATURES))
    expected = np.fromfile(folder / EAGER, dtype=np.float32)
    data = (folder / PROGRAM).read_bytes() if load == "bytes" else str(folder / PROGRAM)
    program = Runtime.get().load_program(data)  # `data` and `program` stay referenced while the method runs
    try:
        output = program.load_method("forward").execute([x])[0]
    except RuntimeError as error:
        return LargeRun(load, f"RuntimeError: {str(error).splitlines()[-1][:300]}", peak_bytes=peak_bytes())
    difference = float(np.abs(output.numpy().reshape(-1) - expected).max())
    return LargeRun(load, None, difference, peak_bytes())


def in_child(command: str, choice: str, folder: Path, environment: dict[str, str] | None = None,
             options: tuple[str, ...] = ()) -> dict:
    """``python -m repro.harness.models.large_program COMMAND CHOICE FOLDER [OPTION]`` in a child; its record, or
    one saying how the child ended when it wrote none (a crash by path is a row, not the end of the caller)."""
    done = subprocess.run([sys.executable, "-m", "repro.harness.models.large_program", command, choice,
                           str(folder), *options],
                          cwd=PROJECT, capture_output=True, text=True, timeout=CHILD_TIMEOUT, check=False,
                          env=with_search_paths(python_path=PROJECT, base={**os.environ, **(environment or {})}))
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode == 0 and lines:
        return json.loads(lines[-1])
    tail = " / ".join(done.stderr.strip().splitlines()[-2:])[:300]
    return {"error": f"{how_it_ended(done.returncode)}: {tail}"}


def main(argv: list[str]) -> None:
    command, choice, folder = argv[0], argv[1], Path(argv[2])
    record = (export(choice, folder, biases=WITHOUT_BIASES not in argv[3:]) if command == "export"
              else run(choice, folder))
    print(json.dumps(asdict(record)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
