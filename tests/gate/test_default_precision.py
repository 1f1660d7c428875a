"""The bf16 leg: the gate runs at f32 (``tests/conftest.py`` caps OpenVINO's instruction set), so a bug that
shows only in the CPU's default kernels is held here: a copy, a channels-last convolution, a by-path load of a
program with constants, and the policy, each in a child without the cap, with the workaround, at the
default precision's tolerances. On a CPU whose default is f32 (AVX2, AVX-512 without bf16) the cap changes
nothing, so those runs would be the gate's own (the same cases by bytes and by path, the policy, at f32): they
are skipped there, and only the leg's precision is checked."""

import json

import pytest

from repro.harness.cpu import precision
from tests.support.helpers import cpu_default_is_bf16, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
DEFAULT = precision.without_cap()
at_bf16_only = pytest.mark.skipif(not cpu_default_is_bf16(), reason=(
    "this CPU's default precision is f32, so without the cap these children would compute what the gate's own "
    "runs compute"))
CASES = ("upstream_clone_sin", "conv_channels_last_input", "conv_bias_relu")
POLICY_CHILD = """
import json
from repro.harness.models import catalogue, policy
from repro.harness.lowering import to_edge
from repro.harness.cpu import precision
from repro.harness.cases.runs import max_abs_diff
from repro.harness.lowering.named import LOWERINGS
from executorch.runtime import Runtime

model, inputs = policy.Policy().eval(), policy.observation()
case = catalogue.Case("policy", "the policy", model, lambda: inputs)
program = to_edge.lower(case, LOWERINGS["workaround"]).to_executorch()
outputs = Runtime.get().load_program(program.buffer).load_method("forward").execute(list(inputs))
print(json.dumps({"f32": precision.default_is_f32(), "tolerance": precision.tolerance(precision.CONV),
                  "actions": max_abs_diff(outputs[0], model(*inputs)[0])}))
"""


def test_the_leg_runs_at_the_cpus_default_precision():
    child = run_cli("python", "-c",
                    "from repro.harness.cpu.precision import default_is_f32; print(default_is_f32())",
                    env=DEFAULT, timeout=120)
    assert child.stdout.strip() == str(not cpu_default_is_bf16()), child.stderr[-2000:]


@at_bf16_only
def test_the_workaround_equals_eager_at_the_default_precision_both_loads():
    result = run_cli("python", "-m", "repro.executorch_path", "--partitioner", "workaround", "--json",
                     *(part for case in CASES for part in ("--case", case)), env=DEFAULT, timeout=900)
    report = json.loads(result.stdout)
    outcomes = {(case["case"], load): run["outcome"] for case in report["cases"]
                for load, run in case["runs"].items()}
    assert len(outcomes) == 2 * len(CASES), outcomes
    assert set(outcomes.values()) == {"correct"}, outcomes


@at_bf16_only
def test_the_policy_equals_eager_at_the_default_precision():
    result = run_cli("python", "-c", POLICY_CHILD, env=DEFAULT, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    measured = json.loads(result.stdout.strip().splitlines()[-1])
    assert not measured["f32"], measured
    assert measured["actions"] <= 5e-3, measured
