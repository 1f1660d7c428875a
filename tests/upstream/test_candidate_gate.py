"""The gate run against a candidate partitioner named by import path (``--partitioner module:Class``).

Each run is a child pytest over a small subset of the catalogue, so that the option is parsed the
way a developer passes it (``tox -e ov2026.4 -- --partitioner ...``).
"""

from xml.etree import ElementTree

import pytest

from tests.support.helpers import END_TO_END, run_cli, skip_module_without_executorch_path
from tests.support.release_behaviour import stock_use_after_free

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
STOCK = "executorch.backends.openvino.partitioner:OpenvinoPartitioner"
# One case per capability: a copy, a channels-last input, a constant read in place, a 0-d input.
SUBSET_CASES = ("upstream_clone_sin", "conv_channels_last_input", "conv_bias_relu", "zero_d_input")
SUBSET = [option for case in SUBSET_CASES for option in ("--case", case)]


def gate(tmp_path, *options):
    """(exit code, stdout, [(case, outcome)]) of a child pytest holding the SUBSET cases to eager."""
    report = tmp_path / f"junit{len(list(tmp_path.glob('junit*')))}.xml"
    result = run_cli("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-m", "equals_eager", *SUBSET,
                     f"--junitxml={report}", END_TO_END, *options, timeout=1200)
    outcomes = []
    if report.exists():
        for case in ElementTree.parse(report).iter("testcase"):
            failed = case.find("failure") is not None or case.find("error") is not None
            name = case.get("name").partition("[")[2].removesuffix("]")
            outcomes.append((name, "failed" if failed else "skipped" if case.find("skipped") is not None
                             else "passed"))
    return result.returncode, result.stdout + result.stderr, outcomes


def test_the_workaround_named_as_a_candidate_gives_the_default_runs_results(tmp_path):
    """The default run of these four tests is this gate's own run of them (each must pass there): named as a
    candidate, the workaround passes the same four, and nothing else runs."""
    code, output, named = gate(tmp_path, "--partitioner", "workaround:CopySafeOpenvinoPartitioner")
    assert sorted(case for case, _ in named) == sorted(SUBSET_CASES), named
    assert (code, {outcome for _, outcome in named}) == (0, {"passed"}), output[-3000:]
    assert "candidate partitioner workaround:CopySafeOpenvinoPartitioner: per capability" in output
    for capability in ("copies", "channels-last", "by-path", "guards"):
        assert f"  {capability:15} PASSED: 1 passed, 0 failed" in output, output[-3000:]


def test_the_stock_partitioner_as_a_candidate_fails_naming_the_first_case_of_each_capability(tmp_path):
    code, output, _ = gate(tmp_path, "--partitioner", STOCK)
    assert code == 1, output[-3000:]
    assert "  copies          FAILED: 0 passed, 1 failed" in output
    first_copy = ("first failure: test_workaround_equals_eager[upstream_clone_sin]: "
                  "tests.support.outcomes.WrongValues: upstream_clone_sin (candidate partitioner, loaded from "
                  "bytes): output 0 differs from eager by")
    assert first_copy in output
    assert "  channels-last   FAILED: 0 passed, 1 failed" in output
    assert "first failure: test_workaround_equals_eager[conv_channels_last_input]" in output
    assert "  guards          FAILED: 0 passed, 1 failed" in output
    assert "RuntimeFailed: zero_d_input (candidate partitioner" in output
    by_path = "FAILED: 0 passed, 1 failed" if stock_use_after_free() else "PASSED: 1 passed, 0 failed"
    assert f"  by-path         {by_path}" in output, output[-3000:]


@pytest.mark.parametrize(("options", "message"), [
    (["--partitioner", "nosuch.module:Partitioner"], "cannot import nosuch.module: ModuleNotFoundError"),
    (["--partitioner", "workaround:NoSuchClass"], "workaround has no NoSuchClass"),
    (["--partitioner", "repro.harness.models.catalogue:Case"], "is not a subclass of ExecuTorch's"),
    (["--partitioner=workaround"], "expected module.path:ClassName"),
    (["--transform-pass", "workaround:DefaultDimOrderForOpenvino"], "--transform-pass goes with"),
    (["--case", "upstream_clone_sin", "--case", "nosuch"], "--case: not a catalogue case: nosuch"),
])
def test_a_bad_candidate_is_a_one_line_usage_error_before_any_test_runs(pytester, options, message):
    """In a pytest run of its own (in this process: the plugin's checks raise before anything is changed)."""
    result = pytester.runpytest_inprocess("-p", "tests.plugins.candidate_gate", "-p", "no:cacheprovider", "-q",
                                          *options)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, "\n".join(result.outlines + result.errlines)[-2000:]
    [line] = [line for line in result.errlines if line.startswith("ERROR:")]
    assert message in line
