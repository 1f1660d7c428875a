"""One catalogue case through the real runtime: lower, save the ``.pte``, run it with every way of
loading, and compare each output with eager PyTorch (values, dtype, shape and dim order).

The result is a record (a ``CaseRecord``, JSON-ready) in which a failure at any step is an outcome, not an
exception: ``repro/executorch_path.py`` prints the records, the tests assert on them
(``tests/support/outcomes.py``).
"""

import os
import traceback
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

from repro.harness.cases.outcomes import AT_EXPORT, Outcome, overall_outcome
from repro.harness.cases.program_contents import delegated_and_outside_ops
from repro.harness.cases.record import CaseRecord, LoadRun, OutputComparison
from repro.harness.lowering.named import Lowering
from repro.harness.lowering.to_edge import lower
from repro.harness.models.catalogue import Case, group_of
from repro.harness.runtime.program_runner import Load, ProgramRun, ProgramRunner, RunStatus
from repro.harness.runtime.replay import capture_delegate_calls, replay

# How the gate loads every program: from bytes (what Python users often do) and by path (deployments).
GATE_LOADS = (Load.BYTES, Load.PATH)
# The workaround refuses what it cannot make correct, with one of these: not the bug.
REFUSALS = ("UnsafeCopyError", "DimOrderError", "CannotHandBackError")


def max_abs_diff(actual: torch.Tensor, expected: torch.Tensor, signed_zeros: bool = False) -> float:
    """The largest difference between two tensors of one shape and dtype (inf when those differ). Integers
    are compared exactly (an int64 beyond 2**53 too); NaN must stand where eager has NaN, and an infinity
    must match eager's; with ``signed_zeros`` a zero's sign must be eager's too (inf where it is not)."""
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return float("inf")
    if signed_zeros and actual.is_floating_point() and bool(
            ((actual == 0) & (expected == 0) & (actual.signbit() != expected.signbit())).any()):
        return float("inf")
    if actual.numel() == 0 or torch.equal(actual, expected):
        return 0.0
    if not (actual.is_floating_point() or actual.is_complex()):  # unequal integers (or bools)
        return max(float((actual.double() - expected.double()).abs().max()), 1.0)
    actual, expected = actual.detach().double(), expected.detach().double()
    if not torch.equal(actual.isnan(), expected.isnan()):
        return float("inf")
    differs = (actual != expected) & ~expected.isnan()
    return float((actual - expected).abs()[differs].max()) if differs.any() else 0.0


def tensor_dim_order(tensor: torch.Tensor) -> list[int]:
    """A real tensor's dim order as a list (JSON-ready; [] for a 0-d tensor)."""
    return list(tensor.dim_order()) if tensor.dim() else []


def declared_dim_orders(edge: Any) -> list[list[int]]:
    """The dim order the lowered program declares for each output. It is eager's, except where
    torch.export itself returns a contiguous copy for a view eager keeps strided (reshape of a
    channels-last tensor): no ExecuTorch program can return eager's dim order there. A buffer the program
    writes (a KV cache) is an output of the graph but not of the program: not counted."""
    from torch.export.graph_signature import OutputKind

    program = edge.exported_program()
    output = next(node for node in program.graph.nodes if node.op == "output")
    kinds = [spec.kind for spec in program.graph_signature.output_specs]
    return [tensor_dim_order(arg.meta["val"]) for arg, kind in zip(output.args[0], kinds, strict=True)
            if kind == OutputKind.USER_OUTPUT]


def compare_outputs(case: Case, actual: Sequence[torch.Tensor], expected: Sequence[torch.Tensor],
                    declared: Sequence[list[int]], *, signed_zeros: bool = False) -> list[OutputComparison]:
    """Per output: shape, dtype, values against eager (copies exactly; zeros' signs too with ``signed_zeros``)
    and dim order against the program's declared one (eager's recorded beside it)."""
    rows: list[OutputComparison] = []
    for index, want in enumerate(expected):
        got = actual[index] if index < len(actual) else torch.empty(0)
        tolerance = 0.0 if index in case.exact_outputs else case.atol
        diff = max_abs_diff(got, want, signed_zeros)
        rows.append({"index": index, "shape": list(want.shape), "dtype": str(want.dtype).removeprefix("torch."),
                     "dim_order": declared[index], "eager_dim_order": tensor_dim_order(want),
                     "actual_dim_order": tensor_dim_order(got), "tolerance": tolerance, "max_abs_diff": diff,
                     "ok": diff <= tolerance and tensor_dim_order(got) == declared[index]})
    return rows


def eager_outputs(case: Case, inputs: Sequence[torch.Tensor]) -> list[torch.Tensor]:
    expected = case.module()(*[t.clone() for t in inputs])
    return list(expected) if isinstance(expected, tuple | list) else [expected]


def load_outcome(case: Case, run: ProgramRun, inputs: Sequence[torch.Tensor], expected: Sequence[torch.Tensor],
                 declared: Sequence[list[int]], *, signed_zeros: bool = False) -> LoadRun:
    """One load of a program, run once, against eager."""
    if run.status != RunStatus.OK:  # a run's failure is the load's outcome of the same name
        return {"outcome": Outcome(run.status), "detail": run.detail, "outputs": None, "inputs_intact": None}
    rows = compare_outputs(case, run.outputs, expected, declared, signed_zeros=signed_zeros)
    outcome = Outcome.CORRECT if all(row["ok"] for row in rows) else Outcome.WRONG
    return {"outcome": outcome, "detail": "", "outputs": rows,
            "inputs_intact": all(max_abs_diff(a, b) == 0 for a, b in zip(run.fed, inputs, strict=True))}


def saved_program(save_dir: str | Path, case: Case, lowering: Lowering) -> Path:
    """Where ``run_case`` saves the case's program."""
    return Path(save_dir) / f"{case.name}.{lowering.name}.pte"


def run_case(case: Case, lowering: Lowering, runners: Mapping[str, ProgramRunner], save_dir: str | Path, *,
             with_replay: bool = False, config: Any = None) -> CaseRecord:
    """Lower (as the ``Lowering`` says), save, run with every runner and compare one case; failures become
    part of the record."""
    record: CaseRecord = {
        "case": case.name, "what": case.what, "group": group_of(case.name), "partitioner": lowering.name,
        "skip_dim_order": case.skip_dim_order, "lowering_error": None, "delegates": None, "delegated_ops": None,
        "ops_outside": None, "declared_dim_orders": None, "runs": {}, "replay": None, "pte": None}
    inputs = case.inputs()
    expected = eager_outputs(case, inputs)
    try:
        edge = lower(case, lowering, config)
        inside, outside = delegated_and_outside_ops(edge)
        declared = declared_dim_orders(edge)
        calls = capture_delegate_calls(edge, case) if with_replay else None
        program = edge.to_executorch()
    except Exception as error:
        # The workaround refuses what it cannot make correct: not the bug.
        outcome = Outcome.REFUSED if type(error).__name__ in REFUSALS else Outcome.LOWERING_FAILED
        record["outcome"] = outcome
        record["lowering_error"] = f"{type(error).__name__}: {error}".strip()
        record["traceback"] = traceback.format_exc()
        return record
    record["delegates"] = len(program.executorch_program.execution_plan[0].delegates)
    record["delegated_ops"], record["ops_outside"], record["declared_dim_orders"] = inside, outside, declared
    path = saved_program(save_dir, case, lowering)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(program.buffer)
    record["pte"] = str(path)
    runs = {load: runner.run(path, inputs) for load, runner in runners.items()}
    record["runs"] = {load: load_outcome(case, run, inputs, expected, declared, signed_zeros=lowering.signed_zeros)
                      for load, run in runs.items()}
    record["outcome"] = overall_outcome(record["runs"])
    if with_replay and record["delegates"] and runs.get("bytes") and runs["bytes"].status == RunStatus.OK:
        record["replay"] = replay(calls, case, runs["bytes"].outputs)
    return record


def run_as(case: Case, lowering: Lowering, record: CaseRecord, *, cpu_class: str, runner: ProgramRunner,
           text: str | None) -> CaseRecord:
    """The record another CPU class gives for the same lowering: ``record``'s program, its OpenVINO blobs
    re-stamped with the compatibility ``text`` that class's importer builds (``repro.harness.cpu.restamp``; None
    for a release that stamps nothing), run by
    ``runner`` (a process computing as ``cpu_class``, loading as it loads: from bytes or by path) and held to eager
    as ``run_case`` holds it. A lowering that failed or was refused is the same on every class: its record comes
    back as it is."""
    from repro.harness.cpu.restamp import restamped

    if record["outcome"] in AT_EXPORT or record["pte"] is None:
        return record
    original = Path(record["pte"])
    path = original.with_name(f"{original.stem}.{cpu_class}.pte")
    written = path.with_name(f"{path.name}.{os.getpid()}")  # another worker may rerun the same record
    program = original.read_bytes()
    written.write_bytes(program if text is None else restamped(program, text))  # None: a release before the stamp
    os.replace(written, path)
    inputs = case.inputs()
    run = load_outcome(case, runner.run(path, inputs), inputs, eager_outputs(case, inputs),
                       record["declared_dim_orders"] or [], signed_zeros=lowering.signed_zeros)
    return {**record, "runs": {runner.load: run}, "outcome": overall_outcome({runner.load: run}), "replay": None,
            "pte": str(path)}
