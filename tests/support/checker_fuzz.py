"""The checker against ExecuTorch's runtime, on corrupted copies of the tracked sample programs.

A model owner's script reads the checker's exit code as the verdict (``openvino-pte-check model.pte ||
block_release``), so a file the runtime refuses must never be called clean (0), and no file may make the checker
fail (3) or print a traceback. The corpus is generated here, never stored: every truncation and every single-byte
flip (``^ 0xff``) of ``tests/data/stock_upstream_clone_sin.pte`` and ``workaround_upstream_clone_sin.pte``
(13,250 files). The gate checks a property-based sample of it (``tests/gate/test_checker_fuzz.py``), the
benchmark the whole of it (``python -m benchmarks.checker_fuzz``).

Both sides run each file in a process of their own, so a crash is a verdict, not the end of the run: the runtime
through ``ProgramRunner("path")`` (loaded by path, as deployments do, program and ``forward`` method), the checker
through ``CheckerRunner``, a child that imports the checker once and forks one worker per file, which runs the
entry point's ``main`` as the command line does.
"""

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from repro.harness.runtime.program_runner import ProgramRunner, RunStatus, how_it_ended
from workaround.checker.check_command import EXIT_AFFECTED, EXIT_CLEAN, EXIT_UNREADABLE

PROJECT = Path(__file__).resolve().parents[2]
SAMPLES = tuple(PROJECT / "tests" / "data" / name
                for name in ("stock_upstream_clone_sin.pte", "workaround_upstream_clone_sin.pte"))
FLIP = 0xFF


@dataclass(frozen=True)
class Mutant:
    sample: Path
    change: str  # "cut to N bytes" or "byte N ^ 0xff"
    data: bytes

    def __str__(self) -> str:
        return f"{self.sample.name} {self.change}"


def truncated(sample: Path, length: int) -> Mutant:
    return Mutant(sample, f"cut to {length} bytes", sample.read_bytes()[:length])


def flipped(sample: Path, position: int) -> Mutant:
    data = bytearray(sample.read_bytes())
    data[position] ^= FLIP
    return Mutant(sample, f"byte {position} ^ {FLIP:#x}", bytes(data))


def with_blob(blob: bytes, sample: Path = SAMPLES[0]) -> bytes:
    """The stock sample (its one OpenVINO blob in the file's one segment, at its end) with ``blob`` in the
    segment instead: a program whose delegate carries anything, for the checker's cost and its IR reading."""
    data = sample.read_bytes()
    old_size = int.from_bytes(data[32:40], "little")  # the extended header's segment data size: the blob's
    segment_base = int.from_bytes(data[24:32], "little")
    flatbuffer = data[40:segment_base]
    stored, size = old_size.to_bytes(8, "little"), len(blob).to_bytes(8, "little")
    assert flatbuffer.count(stored) == 1, "the segment's size is stored once in the flatbuffer"
    return data[:32] + size + flatbuffer.replace(stored, size) + blob


def mutant_count(sample: Path) -> int:
    """Truncations (0 to size - 1 bytes) and flips (one per byte): twice the file's size."""
    return 2 * sample.stat().st_size


def mutant(sample: Path, number: int) -> Mutant:
    """The sample's ``number``-th mutant: its truncations first, then its flips."""
    size = sample.stat().st_size
    return truncated(sample, number) if number < size else flipped(sample, number - size)


def corpus(samples: tuple[Path, ...] = SAMPLES) -> Iterator[Mutant]:
    for sample in samples:
        for number in range(mutant_count(sample)):
            yield mutant(sample, number)


@dataclass(frozen=True)
class CheckerRun:
    exit: int | None  # the entry point's exit code; None when the worker died
    ended: str  # "exit N", or the signal that killed the worker
    output: str  # what it printed, stdout and stderr


class CheckerRunner:
    """``with CheckerRunner() as checker: checker.run(path, "--json")`` -> CheckerRun."""

    def __init__(self) -> None:
        self.child = subprocess.Popen([sys.executable, "-m", "tests.support.checker_fuzz"], cwd=PROJECT, text=True,
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def __enter__(self) -> "CheckerRunner":
        return self

    def __exit__(self, *_: object) -> None:
        self.child.stdin.close()
        self.child.wait(timeout=60)

    def run(self, *argv: str | Path) -> CheckerRun:
        self.child.stdin.write(json.dumps([str(arg) for arg in argv]) + "\n")
        self.child.stdin.flush()
        reply = json.loads(self.child.stdout.readline())
        return CheckerRun(reply["exit"], reply["ended"], reply["output"])


def serve() -> None:
    """The checker's child: one worker forked per request, its exit code and output the reply."""
    from workaround.checker import check_command

    with tempfile.TemporaryFile("w+b") as output:
        for line in sys.stdin:
            argv = json.loads(line)
            output.seek(0)
            output.truncate()
            worker = os.fork()
            if worker == 0:
                os.dup2(output.fileno(), 1)
                os.dup2(output.fileno(), 2)
                sys.stdout = os.fdopen(1, "w")
                sys.stderr = os.fdopen(2, "w")
                code = check_command.main(argv)
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
            code = os.waitstatus_to_exitcode(os.waitpid(worker, 0)[1])
            output.seek(0)
            reply = {"exit": code if code >= 0 else None, "ended": how_it_ended(code),
                     "output": output.read().decode(errors="replace")}
            print(json.dumps(reply), flush=True)


RUNTIME_VERDICTS = {RunStatus.OK: "loads", RunStatus.RUNTIME_FAILED: "refuses", RunStatus.CRASHED: "crashes",
                    RunStatus.TIMED_OUT: "hangs"}


@dataclass(frozen=True)
class Disagreement:
    mutant: str
    runtime: str  # "loads" or how it refused
    checker: str  # the exit, and the output's last line


def disagreement(mutant: Mutant, runtime_status: RunStatus, runtime_detail: str,
                 checked: CheckerRun) -> Disagreement | None:
    """Why the pair breaks the checker's contract, or None: the checker's exit is 0, 1 or 2, it prints no
    traceback, and a file the runtime refuses is not clean."""
    refused = runtime_status != RunStatus.OK
    broken = (checked.exit not in (EXIT_CLEAN, EXIT_AFFECTED, EXIT_UNREADABLE) or "Traceback" in checked.output
              or (refused and checked.exit == EXIT_CLEAN))
    if not broken:
        return None
    last = (checked.output.strip().splitlines() or [""])[-1]
    runtime = "loads" if not refused else f"{runtime_status}: {runtime_detail[:200]}"
    return Disagreement(str(mutant), runtime, f"{checked.ended}: {last[:300]}")


def differ(mutants: list[Mutant], runtime: ProgramRunner, checker: CheckerRunner,
           folder: Path) -> tuple[list[Disagreement], dict[str, int]]:
    """Every disagreement over ``mutants``, and how many files each pair of verdicts had ("runtime loads,
    checker 2": the runtime loads it and the checker calls it unreadable; "runtime crashes": it killed the
    process)."""
    found: list[Disagreement] = []
    counts: dict[str, int] = {}
    for mutant_ in mutants:
        path = folder / "mutant.pte"
        path.write_bytes(mutant_.data)
        loaded = runtime.run(path)
        checked = checker.run(path, "--json")
        pair = f"runtime {RUNTIME_VERDICTS[loaded.status]}, checker {checked.exit}"
        counts[pair] = counts.get(pair, 0) + 1
        if (problem := disagreement(mutant_, loaded.status, loaded.detail, checked)) is not None:
            found.append(problem)
    return found, counts


if __name__ == "__main__":
    serve()
