"""Every op a semantics guard may hand back to ExecuTorch, lowered alone through the workaround with the values
that make its guard act (int32 and int64 beyond float32 and int32; NaN and infinities with
``special_values="torch"``), loads by path in the real runtime, or lowering is refused in one line
(``CannotHandBackError``): never a program that fails to load (0x14).

The calls are the conformance sweep's (PyTorch's OpInfo samples), with a hand-written call where the sweep has
none. A minute on this machine, so it runs with the evidence rather than in the gate; the gate holds the kernel
names it predicts to what programs call (``tests/gate/test_runtime_kernels.py``).
"""

import pytest

from tests.support.helpers import ad_hoc_case, skip_module_without_executorch_path

skip_module_without_executorch_path()
import torch  # noqa: E402

from repro.harness.conformance import per_op  # noqa: E402
from repro.harness.lowering.named import WORKAROUND, WORKAROUND_TORCH_SPECIAL_VALUES  # noqa: E402
from repro.harness.lowering.to_edge import lower  # noqa: E402
from repro.harness.runtime.program_runner import ProgramRunner, RunStatus  # noqa: E402
from workaround.partitioner.copy_safe_partitioner import openvino_supports  # noqa: E402
from workaround.partitioner.rules import openvino_hand_back  # noqa: E402
from workaround.partitioner.rules.exclusion import CannotHandBackError  # noqa: E402

pytestmark = pytest.mark.executorch
aten = torch.ops.aten
BEYOND_FLOAT32 = torch.tensor([[16777217, -16777219], [2**31 - 1, -7]], dtype=torch.int32)
SPECIAL = torch.tensor([[float("nan"), 1.0], [float("-inf"), float("inf")]])
# Calls for the ops the sweep cannot make (its OpInfo call returns a named tuple export cannot serialize, or no
# OpInfo calls the overload).
CALLS = {
    (aten.floor_divide.default, "openvino"): (lambda x: x // (x.abs() + 1), BEYOND_FLOAT32),
    (aten.floor_divide.Scalar, "openvino"): (lambda x: x // 3, BEYOND_FLOAT32),
    (aten.max.dim, "openvino"): (lambda x: x.max(1)[0], BEYOND_FLOAT32),
    (aten.max.default, "openvino"): (lambda x: x.max().reshape(1), BEYOND_FLOAT32),
    (aten.min.default, "openvino"): (lambda x: x.min().reshape(1), BEYOND_FLOAT32),
    (aten.min.dim, "openvino"): (lambda x: x.min(1)[0], BEYOND_FLOAT32),
    (aten.max.dim, "torch"): (lambda x: x.max(1)[0], SPECIAL),
    (aten.min.dim, "torch"): (lambda x: x.min(1)[0], SPECIAL),
    (aten.topk.default, "torch"): (lambda x: x.topk(1, 1)[0], SPECIAL),
}
# Exported as the overloads with indices, so never seen by a partitioner themselves.
NEVER_PARTITIONED = {aten.max_pool2d.default, aten.max_pool3d.default}


def guard_table_ops():
    """(ATen op, special values) for every op a guard table names, in each mode in which it is handed back."""
    differences = openvino_hand_back
    integer_tables = {*differences.DIVIDING, *differences.REMAINDER_OPS, *differences.INTEGERS_THROUGH_FLOAT32,
                      *differences.POWERS, *differences.AVERAGE_POOLS}
    pairs = {(op, "openvino") for op in integer_tables} | {(op, "torch") for op in differences.IEEE_DIFFERENCES}
    return sorted(pairs, key=str)


def case_for(op, special_values):
    """A hand-written call (CALLS), or the conformance sweep's call of ``op`` with the values its guard acts on
    (int32 and int64 beyond float32 and int32, or NaN and infinities); None where neither has one."""
    if (op, special_values) in CALLS:
        function, tensor = CALLS[op, special_values]
        return ad_hoc_case(function, (tensor,), str(op))
    name = op._schema.name.split("::")[1]
    wanted = ["special values"] + (["int32 bounds", "int64 bounds"] if special_values == "openvino" else [])
    cases = [case.case for case in per_op.sweep({name}).cases if case.variant in wanted]
    return cases[0] if cases else None


def program_or_refusal(case, lowering):
    """(the .pte's bytes, None), or (None, the workaround's one-line refusal)."""
    try:
        return lower(case, lowering).to_executorch().buffer, None
    except CannotHandBackError as refused:
        return None, str(refused)


@pytest.fixture(scope="module")
def loader():
    with ProgramRunner("path") as runner:
        yield runner


@pytest.mark.parametrize(("op", "special_values"), guard_table_ops(), ids=str)
def test_every_op_a_guard_hands_back_loads_by_path_or_is_refused(loader, tmp_path, op, special_values):
    if op in NEVER_PARTITIONED:
        pytest.skip(f"{op} is exported as its overload with indices")
    if not openvino_supports(op):
        pytest.skip(f"OpenVINO's support list lacks {op}: never delegated, so never handed back")
    case = case_for(op, special_values)
    assert case is not None, f"no call of {op}: add one to CALLS"
    lowering = WORKAROUND_TORCH_SPECIAL_VALUES if special_values == "torch" else WORKAROUND
    program, refusal = program_or_refusal(case, lowering)
    if refusal is not None:
        assert "\n" not in refusal
        return
    path = tmp_path / "program.pte"
    path.write_bytes(program)
    loaded = loader.run(path)
    assert loaded.status == RunStatus.OK, f"{case.name}: {loaded.detail}"


