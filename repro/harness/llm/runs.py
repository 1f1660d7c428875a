"""One LLM case of ExecuTorch's pipeline (``repro.harness.llm.pipeline``) exported in a child, then its program run
in the real runtime from bytes and by path (a prefill, then greedy decode steps on one loaded method), each call's
logits held to the reference's.

"Equal" is a relative difference of at most ``EQUAL_WITHIN`` on every call (the largest absolute difference over
the largest reference logit), at f32 (the gate's precision: ``repro.harness.cpu.precision``). The workaround's
programs measured 1e-6 to 3e-6 (f32 rounding through two layers); a stock program whose copies went stale, or
whose weights were decompressed otherwise than the reference does, differs by 1e-3 and more.
"""

import os
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from repro.harness.llm.pipeline import TIER, ExportRecord, LlmCase, PipelineSettings
from repro.harness.runtime.program_runner import PROJECT, ProgramRunner, RunStatus

EQUAL_WITHIN = 1e-4
EXPORT_TIMEOUT = 900


@dataclass(frozen=True)
class LoadRun:
    """One load's run of the calls: ``status`` the runner's; ``max_relative_difference`` over every call when it
    ran; ``detail`` why it did not."""

    status: str
    max_relative_difference: float | None = None
    detail: str = ""

    @property
    def equal(self) -> bool:
        return self.max_relative_difference is not None and self.max_relative_difference <= EQUAL_WITHIN


@dataclass(frozen=True)
class LlmRecord:
    export: ExportRecord
    runs: dict[str, LoadRun]  # by load; empty when the export failed

    @property
    def equal(self) -> bool:
        return bool(self.runs) and all(run.equal for run in self.runs.values())

    def as_json(self) -> dict:
        return {"export": asdict(self.export), "runs": {load: asdict(run) for load, run in self.runs.items()}}


def exported(case: LlmCase, lowering: str, folder: Path, settings: PipelineSettings = TIER,
             timeout: float = EXPORT_TIMEOUT) -> ExportRecord:
    """``case`` through the pipeline in a child (the pipeline and ``install()`` change process-wide state), its
    files in ``folder``; a child that dies is an export error saying how, with the tail of what it printed.
    ``settings``: the model's sizes, windows and group size where not the tiny tier's."""
    import json

    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "export.log"
    with log.open("w") as output:
        try:
            done = subprocess.run([sys.executable, "-m", "repro.harness.llm.pipeline", case.name, lowering,
                                   str(folder), json.dumps(asdict(settings))], check=False, cwd=PROJECT,
                                  stdout=output, stderr=subprocess.STDOUT, timeout=timeout,
                                  env={**os.environ, "PYTHONPATH": os.pathsep.join(
                                      filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")]))})
            code = done.returncode
        except subprocess.TimeoutExpired:
            code = None
    record_file = folder / "record.json"
    if code == 0 and record_file.exists():
        return ExportRecord(**json.loads(record_file.read_text()))
    tail = " / ".join(line for line in log.read_text(errors="replace").splitlines()[-3:] if line.strip())
    how = f"no answer within {timeout} s" if code is None else f"the export process ended with {code}"
    return ExportRecord(case.name, lowering, f"{how}: {tail[:300]}", None, None, None, None, None)


def max_relative_difference(outputs: list, reference: list) -> float:
    return max(float((output[0] - expected).abs().max() / expected.abs().max().clamp_min(1e-30))
               for output, expected in zip(outputs, reference, strict=True))


def run_loads(folder: Path, runners: dict[str, ProgramRunner]) -> dict[str, LoadRun]:
    """The program in ``folder`` run by each runner on the reference's calls."""
    import torch

    reference = torch.load(folder / "reference.pt")
    runs = {}
    for load, runner in runners.items():
        run = runner.run_calls(folder / "program.pte", reference["calls"])
        if run.status != RunStatus.OK:
            runs[load] = LoadRun(run.status, detail=run.detail.split("; log:")[0][:300])
        else:
            runs[load] = LoadRun(run.status, max_relative_difference(run.outputs, reference["outputs"]))
    return runs


def record_of(export: ExportRecord, folder: Path, runners: dict[str, ProgramRunner]) -> LlmRecord:
    """The record of an export whose files are in ``folder``: its program run by each runner, unless it failed."""
    return LlmRecord(export, {} if export.error is not None else run_loads(folder, runners))


def run_llm_case(case: LlmCase, lowering: str, runners: dict[str, ProgramRunner], folder: Path) -> LlmRecord:
    """``case`` exported into ``folder`` and run: the tests' route (the tier exports side by side first)."""
    files = folder / f"{case.name}.{lowering}"
    return record_of(exported(case, lowering, files), files, runners)
