"""The record of one catalogue case run through the real runtime (``repro.harness.cases.runs.run_case``): what
``repro/executorch_path.py --json`` prints, the matrix keeps under a row's ``executorch``, the gate shares
between its workers as JSON and ``tests/support/outcomes.py`` asserts on. Typed here so that the runner, the
reports and the tests name the same fields; a ``TypedDict`` is a dict, so the JSON is unchanged, key order
included.
"""

from typing import NotRequired, TypedDict

from repro.harness.cases.outcomes import Outcome


class OutputComparison(TypedDict):
    """One program output against eager PyTorch."""

    index: int
    shape: list[int]
    dtype: str  # torch's name without "torch."
    dim_order: list[int]  # what the lowered program declares (eager's, except where torch.export differs)
    eager_dim_order: list[int]
    actual_dim_order: list[int]
    tolerance: float  # 0.0 for a pure copy of an input
    max_abs_diff: float  # inf where shape, dtype or NaN positions differ
    ok: bool


class LoadRun(TypedDict):
    """The program loaded one way (from bytes, or by path) and run once."""

    outcome: Outcome
    detail: str  # why it did not run, or ""
    outputs: list[OutputComparison] | None  # None where it did not run
    inputs_intact: bool | None  # the runtime's input tensors unchanged by the run


class Replay(TypedDict):
    """Every delegate blob replayed in plain OpenVINO with the inputs the runtime gave it
    (``repro.harness.runtime.replay``), in the runtime's call order and in the control order."""

    delegates_replayed: int
    agrees_with_runtime: bool | None  # None: no program output comes straight from a delegate
    outputs_compared: int
    control_order_correct: bool


class CaseRecord(TypedDict):
    case: str
    what: str  # the model, in words
    group: str | None  # its group in the catalogue; None for a case made elsewhere
    partitioner: str  # the Lowering's name
    skip_dim_order: bool
    lowering_error: str | None
    delegates: int | None
    delegated_ops: list[str] | None
    ops_outside: list[str] | None
    declared_dim_orders: list[list[int]] | None
    runs: dict[str, LoadRun]  # by load: "bytes", "path"
    replay: Replay | None
    pte: str | None  # where the program was saved
    outcome: NotRequired[Outcome]  # set when the case ends: present in every record run_case returns
    traceback: NotRequired[str]  # where lowering failed
