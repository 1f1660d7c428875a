"""The bug through the real pipeline: torch.export -> OpenvinoPartitioner -> .pte -> ExecuTorch runtime.

With the stock partitioner every case the release table marks wrong is a strict xfail
that names what is wrong; an upstream fix turns it into a failure (XPASS) saying the
workaround may be retired. Cases that are correct are asserted correct.
"""

import json
import os

import pytest

from repro.harness import precision
from repro.harness.cli import ExitStatus
from repro.reports import markdown as report_markdown
from tests.helpers import ATTACHMENTS, REPRO, cpu_default_is_bf16, run_cli, skip_module_without_executorch_path
from tests.outcomes import assert_equals_eager, expected_failure
from tests.release_behaviour import (
    ABS_OF_CONSTANTS_DROPPED_FROM,
    ALIAS_COPY_DELEGATED_FROM,
    installed_openvino,
    stock_outcome,
)

skip_module_without_executorch_path()
executorch_path = pytest.importorskip("repro.executorch_path")
from repro.harness.case_runs import GATE_LOADS  # noqa: E402
from repro.harness.catalogue import CASES, NOT_RESIZED, group_of  # noqa: E402

pytestmark = pytest.mark.executorch

CLONE_OPS = {"aten.clone.default", "dim_order_ops._clone_dim_order.default"}


def stock_cases():
    for name in CASES:
        for load in GATE_LOADS:
            outcome, why = stock_outcome(CASES[name], load)
            yield pytest.param(name, load, id=f"{name}-{load}",
                               marks=[] if outcome == "correct" else [expected_failure(outcome, why)])


@pytest.mark.parametrize(("case", "load"), list(stock_cases()))
def test_stock_partitioner_equals_eager(lowered_case, case, load):
    assert_equals_eager(lowered_case(case), loads=[load])


def replayable_cases():
    """The cases whose stock program runs, except those whose only fault is the runtime's: a dynamic output
    it never resizes (their blobs, replayed in plain OpenVINO, return the right shape)."""
    ran = {"correct", "wrong", "crashed_or_wrong"}
    return [name for name, case in CASES.items()
            if stock_outcome(case)[0] in ran and case.stock.why != NOT_RESIZED]


@pytest.mark.parametrize("case", replayable_cases())
def test_replayed_blob_gives_the_runtimes_values(lowered_case, case):
    """Plain OpenVINO, fed the delegate's inputs in the runtime's order, returns exactly what the runtime did.
    (Not for dynamic-shaped outputs: OpenVINO returns the right shape, the runtime never resizes to it.)"""
    replay = lowered_case(case)["replay"]
    assert replay["outputs_compared"] > 0
    assert replay["agrees_with_runtime"], replay


@pytest.mark.parametrize("case", [n for n in replayable_cases() if "channels_last" not in n
                                  and group_of(n) != "semantics"])
def test_replayed_blob_is_correct_when_outputs_are_set_first(lowered_case, case):
    """The undocumented detail the workaround must not rely on: outputs first avoids the bug.
    (Channels-last cases are excluded: there the runtime's dim-order bug makes both orders wrong; so are
    semantics cases: OpenVINO computes them differently whatever the order.)"""
    assert lowered_case(case)["replay"]["control_order_correct"]


def test_copy_used_only_inside_stays_delegated(lowered_case):
    record = lowered_case("clone_used_inside")
    assert record["delegates"] == 1
    assert CLONE_OPS & set(record["delegated_ops"]), record["delegated_ops"]
    assert record["ops_outside"] == []


@pytest.mark.parametrize("case", ["detach", "full_slice", "transpose_0_0"])
def test_alias_copy_is_delegated_from_2025_4(lowered_case, case):
    record = lowered_case(case)
    delegated = "aten.alias_copy.default" in record["delegated_ops"]
    assert delegated == (installed_openvino() >= ALIAS_COPY_DELEGATED_FROM), record


def test_atan2_runs_outside_after_the_delegate_and_reads_a_clobbered_input(lowered_case):
    record = lowered_case("input_read_after_delegate")
    assert record["ops_outside"] == ["aten.atan2.default"]
    for run in record["runs"].values():
        assert run["inputs_intact"], "the caller's tensor is copied into planned memory and stays intact"
        assert not run["outputs"][1]["ok"], "atan2(x, ...) should read the overwritten planned copy of x"


def run_script(*args, **env):
    return run_cli("python", REPRO / "executorch_path.py", *args, env={**os.environ, **env})


@pytest.fixture(scope="module")
def stock_run(tmp_path_factory):
    """One run of the script as a user runs it, stock partitioner: JSON on stdout, every .pte saved;
    (result, save folder)."""
    folder = tmp_path_factory.mktemp("stock_run")
    cases = [item for case in ["upstream_clone_sin", "conv_channels_last_input"] for item in ("--case", case)]
    result = run_script("--json", *cases, "--save-dir", str(folder / "pte"))
    return result, folder / "pte"


def test_script_json_and_saved_pte(stock_run):
    from repro.harness.outcomes import outcome_counts

    result, saved = stock_run
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == ExitStatus.BUG, result.stderr[-2000:]
    record = next(record for record in report["cases"] if record["case"] == "upstream_clone_sin")
    assert record["outcome"] == "wrong"
    assert record["group"] == "copies"
    assert {load: run["outcome"] for load, run in record["runs"].items()} == {"bytes": "wrong", "path": "wrong"}
    assert report["counts"] == json.loads(json.dumps(outcome_counts(report["cases"])))
    assert report["counts"]["bytes"]["wrong"] == 2, "the copy and the channels-last conv"
    assert (saved / "upstream_clone_sin.stock.pte").read_bytes()[4:8] == b"ET12"


def test_unloadable_openvino_library_exits_125(tmp_path):
    result = run_script("--case", "clone_only", OPENVINO_LIB_PATH=str(tmp_path / "missing.so"))
    assert result.returncode == ExitStatus.UNTESTABLE
    assert "COULD NOT TEST: cannot load OPENVINO_LIB_PATH" in result.stderr


def usage_error(capsys, *arguments):
    """The one line ``executorch_path.py ARGUMENTS`` prints before exiting 2 (parsed in this process: options
    are checked before anything is imported or run, so a child would only add its start-up)."""
    with pytest.raises(SystemExit) as exited:
        executorch_path.main(list(arguments))
    assert exited.value.code == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    return line


def test_unknown_case_is_a_usage_error(capsys):
    assert "--case: no such case: no_such_case" in usage_error(capsys, "--case", "no_such_case")


def test_minimal_channels_last_reproducer_reproduces():
    """repro/attachments/executorch_channels_last.py, the reproducer in the ExecuTorch report (ExecuTorch's
    bug: every OpenVINO release that runs the ExecuTorch path shows it)."""
    result = run_cli("python", ATTACHMENTS / "executorch_channels_last.py")
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    contiguous, channels_last = (float(line.rsplit(" ", 1)[1]) for line in lines[1:3])
    assert contiguous < 1e-2
    assert channels_last > 0.1


def test_minimal_stale_copies_reproducer_shows_the_stale_copy_both_loads():
    """repro/attachments/executorch_stale_copies.py, the reproducer in the ExecuTorch stale-copies report: the
    copy and what is computed from it are wrong from bytes and by path (every release that runs the
    ExecuTorch path sets outputs after inputs, and none writes such an output then)."""
    result = run_cli("python", ATTACHMENTS / "executorch_stale_copies.py")
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert [line.split(":")[0] for line in lines[1:3]] == ["loaded from bytes", "loaded from path "]
    assert all("copy == x: False; sin == sin(x): False" in line for line in lines[1:3]), lines
    assert lines[-1] == "BUG REPRODUCED"


def test_minimal_precision_reproducer_shows_bf16_where_the_cpu_defaults_to_it():
    """repro/attachments/executorch_precision.py, the reproducer in the ExecuTorch precision report, run at the
    CPU's default (the gate's f32 cap taken away, as a user runs it): where that default is bf16 the f32 compile
    spec is lost and the matmul is bf16-far from float64; where it is f32 the reproducer cannot show the bug."""
    result = run_cli("python", ATTACHMENTS / "executorch_precision.py", env=precision.without_cap())
    if not cpu_default_is_bf16():
        assert result.returncode == 125, result.stdout + result.stderr[-2000:]
        return
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    error = float(result.stdout.split("max error against float64: ")[1].split()[0])
    assert error > 1e-2, result.stdout
    assert result.stdout.splitlines()[-1] == "BUG REPRODUCED: the delegate ran below f32"


def test_minimal_semantics_reproducer_shows_each_class_and_what_the_abs_report_states():
    """repro/attachments/executorch_semantics.py, the reproducer in the ExecuTorch semantics report: every model
    differs from eager on every release that runs the ExecuTorch path, reflection padding from the first release
    that drops the Abs of constants; its reflection line is what the OpenVINO Abs comment quotes."""
    result = run_cli("python", ATTACHMENTS / "executorch_semantics.py")
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines()[1:-1])
    reflection_wrong = installed_openvino() >= ABS_OF_CONSTANTS_DROPPED_FROM
    assert {what: verdict.split(":")[0] for what, verdict in lines.items()} == {
        "int64 x * x": "WRONG", "uint8 x + y": "WRONG", "int32 x // y": "WRONG", "float64 x * 2": "WRONG",
        "reflection pad (2, 1)": "WRONG" if reflection_wrong else "equal"}, result.stdout + result.stderr[-2000:]
    assert result.returncode == 1
    if reflection_wrong:
        quoted = "[3 4 0 1 2 3 4 0]` instead of `[2 1 0 1 2 3 4 3]"
        assert quoted in (report_markdown.TEMPLATES / "openvino_constant_abs.md").read_text()
        assert lines["reflection pad (2, 1)"].endswith("delegate [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0]")


def test_script_runs_a_candidate_partitioner_named_by_import_path(tmp_path):
    result = run_script("--json", "--case", "upstream_clone_sin", "--save-dir", str(tmp_path),
                        "--partitioner", "workaround:CopySafeOpenvinoPartitioner")
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == ExitStatus.CORRECT, result.stderr[-2000:]
    assert report["partitioner"] == "candidate"
    assert (tmp_path / "upstream_clone_sin.candidate.pte").exists()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--partitioner", "nosuch.module:Partitioner"], "cannot import nosuch.module"),
    (["--partitioner", "repro.harness.catalogue:Case"], "is not a subclass of ExecuTorch's"),
    (["--partitioner", "bogus"],
     "is neither one of none, stock, workaround, workaround-torch-special-values nor module.path:ClassName"),
    (["--transform-pass", "workaround:DefaultDimOrderForOpenvino"], "goes with a candidate partitioner"),
])
def test_a_bad_candidate_is_a_usage_error(capsys, arguments, message):
    assert message in usage_error(capsys, *arguments)


def test_an_unwritable_save_dir_is_a_usage_error_before_any_case_runs(capsys):
    assert usage_error(capsys, "--save-dir", "/proc/forbidden").startswith(
        "executorch_path.py: error: --save-dir: cannot write into /proc/forbidden")
