"""ExecuTorch's C++ ``Module`` loading a program by mmap, as its LLM runner does (``mmap_module_runner.cpp``):
built against the installed executorch wheel (its headers and ``libexecutorch.so`` hold ``Module`` and the mmap
loader), linked with the wheel's OpenVINO backend, and run on raw float32 files."""

import subprocess
from dataclasses import dataclass
from pathlib import Path

from repro.harness.lowering import executorch_patches as patches

SOURCE = Path(__file__).with_name("mmap_module_runner.cpp")


def build_runner(wheel: str | Path, source: Path, output: Path, compiler: str = "g++") -> None:
    """An executable, not a library: the runner links the backend (its static registration) and the runtime."""
    command = [part for part in patches.build_command(compiler, wheel, source, output)
               if part not in ("-shared", "-fPIC", "-lexecutorch", "-ldl")]
    command += [f"-I{SOURCE.parent}",  # process_memory.h
                "-Wl,--no-as-needed", "-lexecutorch_backend_openvino", "-lexecutorch", f"-Wl,-rpath,{wheel}/lib"]
    subprocess.run(command, check=True, capture_output=True, text=True)


@dataclass(frozen=True)
class MmapRun:
    error: str | None  # how the runner ended, when it did not write its output
    peak_bytes: int | None = None


def run(runner: Path, program: Path, input_file: Path, output_file: Path, *, environment: dict[str, str],
        timeout: float = 1200) -> MmapRun:
    from repro.harness.runtime.program_runner import how_it_ended

    done = subprocess.run([str(runner), str(program), str(input_file), str(output_file)], capture_output=True,
                          text=True, env=environment, timeout=timeout, check=False)
    if done.returncode != 0:
        return MmapRun(f"{how_it_ended(done.returncode)}: {done.stderr.strip()[-300:]}")
    return MmapRun(None, int(done.stdout.split()[1]) * 1024)
