"""Run a .pte in the real ExecuTorch runtime, in a child process, loaded the way deployments load it.

Why a child: on OpenVINO 2026.4 a program loaded from a file can crash the process (the
OpenVINO backend frees the compiled blob that OpenVINO still reads). Here a crash becomes a
result, ``crashed: SIGSEGV``, and the next program gets a fresh process. The child imports torch
and ExecuTorch's runtime once (about 2 s of CPU; without ``executorch.exir``, which the runtime's
pybindings import and which took 5 s more: ``runtime_import``) and then forks a worker that serves
program after program; when a worker dies, the child says how and forks the next. A crash so costs a
fork, not an import: on 2026.4.1 most stock programs crash by path, and re-importing for each was a
fifth of the gate's CPU time. A worker is a process that has imported the runtime and touched nothing
else (no OpenVINO core exists before the fork: OpenVINO is loaded by the first program a worker runs),
so it loads a program as a fresh process would.

The ways a program is loaded (``LOADS``):

- ``bytes``: the file read into Python bytes that stay referenced, then
  ``Runtime.load_program(bytes)``. ExecuTorch's ``Free()`` of a delegate's data is a no-op
  there, which is why a gate that only loads bytes never sees the crash.
- ``path``: ``Runtime.load_program(path)``, as a deployment does.
- ``module``: ``_load_for_executorch(path)``, the pybindings of ExecuTorch's C++ ``Module``
  (an mmap loader), the loader of C++ deployments.

The child answers one JSON line per program on its original stdout; anything else it prints
goes to a log whose tail explains a crash.
"""

import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import IO, Any


class Load(StrEnum):
    """How a program reaches the runtime (the module docstring says what each one exercises); the values are the
    strings the records, test ids and JSON already use."""
    BYTES = "bytes"
    PATH = "path"
    MODULE = "module"


LOADS = tuple(Load)
PROJECT = Path(__file__).resolve().parents[3]


# The child's line in the log before each program, so that a crash report shows only that program's lines.
STARTING = "program_runner: starting a program"


class RunStatus(StrEnum):
    """How running one program ended (the child's replies carry the values)."""

    OK = "ok"
    RUNTIME_FAILED = "runtime_failed"  # the runtime raised
    CRASHED = "crashed"  # the worker died
    TIMED_OUT = "timed_out"


@dataclass(frozen=True)
class ProgramRun:
    status: RunStatus
    detail: str = ""  # the error, or the signal and the tail of the child's log
    outputs: list[Any] | None = None  # the program's outputs (torch tensors) when status is OK
    fed: list[Any] | None = None  # the input tensors as the runtime left them


class ProgramRunner:
    """``with ProgramRunner("path") as runner: runner.run(pte_path, inputs)`` -> ProgramRun;
    ``runner.run(pte_path)`` only loads the program and its ``forward`` method (OK: the runtime accepts it);
    ``runner.run_calls(pte_path, [inputs, ...])`` calls one loaded method once per inputs, in order (an LLM's
    prefill and decode steps: its KV cache lives in the method's mutable buffers between calls)."""

    def __init__(self, load: str, timeout: float = 300, environment: Mapping[str, str] | None = None) -> None:
        """``environment``: variables set for the child on top of this process's (``OV_CPU_MAX_ISA`` to make
        OpenVINO compute in f32, say: the precision is decided by the process that imports the blob)."""
        if load not in set(Load):
            raise ValueError(f"load must be one of {[str(mode) for mode in Load]}, not {load!r}")
        self.load, self.timeout, self.environment = Load(load), timeout, dict(environment or {})
        self.workdir = Path(tempfile.mkdtemp(prefix=f"pte-{load}-"))
        self.log = self.workdir / "child.log"
        self.child = None

    def __enter__(self) -> "ProgramRunner":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.child and self.child.poll() is None:
            self.child.stdin.close()
            try:
                self.child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.child.kill()
        self.child = None
        shutil.rmtree(self.workdir, ignore_errors=True)

    def _start(self):
        self.workdir.mkdir(exist_ok=True)
        with self.log.open("w") as log:
            self.child = subprocess.Popen(
                [sys.executable, "-m", "repro.harness.runtime.program_runner", self.load], cwd=PROJECT, text=True,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, start_new_session=True,
                env={**os.environ, **self.environment,
                     "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))})

    def run(self, pte_path: str | Path, inputs: Sequence[Any] | None = None) -> ProgramRun:
        return self._request(pte_path, None if inputs is None else [tensor.clone() for tensor in inputs], False)

    def run_calls(self, pte_path: str | Path, calls: Sequence[Sequence[Any]]) -> ProgramRun:
        """One ``ProgramRun`` for the calls: its outputs and fed are lists with one entry per call."""
        return self._request(pte_path, [[tensor.clone() for tensor in call] for call in calls], True)

    def _request(self, pte_path: str | Path, inputs: list[Any] | None, calls: bool) -> ProgramRun:
        if self.child is None or self.child.poll() is not None:
            self._start()
        request: dict[str, Any] = {"pte": str(pte_path), "calls": calls}
        if inputs is not None:
            import torch

            request |= {"inputs": str(self.workdir / "inputs.pt"), "outputs": str(self.workdir / "outputs.pt")}
            torch.save(inputs, request["inputs"])
        self.log_offset = self.log.stat().st_size  # what the child prints from here on is about this program
        try:
            self.child.stdin.write(json.dumps(request) + "\n")
            self.child.stdin.flush()
        except BrokenPipeError:  # the child died before it read the request (e.g. it could not start)
            return self._ended(timed_out=False)
        ready, _, _ = select.select([self.child.stdout], [], [], self.timeout)
        answer = self.child.stdout.readline() if ready else None
        if not answer:
            return self._ended(timed_out=not ready)
        reply = json.loads(answer)
        status = RunStatus(reply["status"])
        if status == RunStatus.CRASHED:  # the worker died; the child has forked the next one
            return ProgramRun(status, f"crashed: {reply['detail']}; log: {self._log_tail()}")
        if status != RunStatus.OK:
            return ProgramRun(status, reply["detail"])
        if inputs is None:
            return ProgramRun(status)
        import torch

        result = torch.load(request["outputs"])
        return ProgramRun(status, outputs=result["outputs"], fed=result["fed"])

    def _ended(self, timed_out):
        """The child died or hung on this program: say how, with the tail of what it printed."""
        if timed_out:
            os.killpg(self.child.pid, signal.SIGKILL)  # the child and its worker
        code = self.child.wait()
        self.child = None
        tail = self._log_tail()
        if timed_out:
            return ProgramRun(RunStatus.TIMED_OUT, f"no answer within {self.timeout} s; log: {tail}")
        return ProgramRun(RunStatus.CRASHED, f"crashed: {how_it_ended(code)}; log: {tail}")

    def _log_tail(self):
        """The last lines the child printed about the current program."""
        with self.log.open("rb") as log:
            log.seek(self.log_offset)
            lines = [line for line in log.read().decode(errors="replace").splitlines() if line.strip()]
        if STARTING in lines:  # a fresh child's import chatter comes before its first program
            lines = lines[len(lines) - lines[::-1].index(STARTING):]
        return " / ".join(lines[-3:])


def how_it_ended(code: int) -> str:
    """A dead process's exit code (negative: the signal that killed it) as the detail says it: "SIGSEGV",
    "exit 1"."""
    return signal.Signals(-code).name if code < 0 else f"exit {code}"


# --- The child ----------------------------------------------------------------------------


def _load_and_run(load, pte, inputs, calls=False):
    """The program's outputs for ``inputs``; with inputs None, only load it and its forward method (None); with
    ``calls``, ``inputs`` is a list of calls to the one loaded method, and so are the outputs."""
    if load == Load.MODULE:
        from executorch.extension.pybindings.portable_lib import _load_for_executorch

        module = _load_for_executorch(pte)
        if inputs is None:
            module.load_method("forward")
            return None
        forward = module.forward
    else:
        from executorch.runtime import Runtime

        data = Path(pte).read_bytes() if load == Load.BYTES else pte
        program = Runtime.get().load_program(data)  # keep alive (and `data` with it) while the method runs
        method = program.load_method("forward")
        if inputs is None:
            return None
        forward = method.execute
    if calls:
        return [list(forward(call)) for call in inputs]
    return list(forward(inputs))


def child_main(load: str) -> None:
    """Import the runtime, then fork workers one after another: each serves programs until stdin ends (it
    exits 0, and so does the child) or it dies (the child answers the program it was running with how)."""
    import torch  # noqa: F401  (imported before the fork, for every worker)

    from repro.harness.runtime.child_import import import_runtime_without_the_compiler

    import_runtime_without_the_compiler()

    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # whatever else prints (the runtime, warnings) goes to the log, not the replies
    while True:
        worker = os.fork()
        if worker == 0:  # leave by os._exit only: the child's atexit handlers and buffers are not the worker's
            try:
                serve(load, replies)
            except BaseException:
                traceback.print_exc()
                os._exit(1)
            os._exit(0)
        code = os.waitstatus_to_exitcode(os.waitpid(worker, 0)[1])
        if code == 0:
            return
        replies.write(json.dumps({"status": RunStatus.CRASHED, "detail": how_it_ended(code)}) + "\n")
        replies.flush()


def serve(load: str, replies: IO[str]) -> None:
    """A worker: one reply line per request line, until stdin ends. Requests come one at a time (the parent
    waits for each reply), so a worker that dies leaves nothing unread in stdin's buffer for the next."""
    import torch

    for line in sys.stdin:
        request = json.loads(line)
        print(STARTING, file=sys.stderr, flush=True)
        fed = torch.load(request["inputs"]) if "inputs" in request else None
        try:
            outputs = _load_and_run(load, request["pte"], fed, request.get("calls", False))
        except Exception as error:
            reply = {"status": RunStatus.RUNTIME_FAILED, "detail": f"{type(error).__name__}: {error}"}
        else:
            if fed is not None:
                torch.save({"outputs": outputs, "fed": fed}, request["outputs"])
            reply = {"status": RunStatus.OK, "detail": ""}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


if __name__ == "__main__":
    child_main(sys.argv[1])
    # Every reply is written and flushed: leave without the interpreter's teardown of torch, ExecuTorch and
    # OpenVINO, a second of CPU per child (measured: 4.9 s to import the runtime and exit, 3.9 s with _exit).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
