"""repro/executorch_path.py as users type it: JSON and saved programs, a candidate partitioner named by import
path, an unloadable OpenVINO library (exit 125), and bad options as one line and exit 2 before any case runs.
(The stock pipeline case by case, as the gate holds it: ``tests/gate/test_executorch_path.py``.)
"""

import json
import os

import pytest

from repro.harness.cli import ExitStatus
from tests.support.helpers import (
    REPRO,
    THIRD_PARTY_NOISE,
    cli_run_once,
    run_cli,
    skip_module_without_executorch_path,
)

skip_module_without_executorch_path()
executorch_path = pytest.importorskip("repro.executorch_path")

pytestmark = pytest.mark.executorch


def run_script(*args):
    return run_cli("python", REPRO / "executorch_path.py", *args)


SAVED_EARLIER = b"a program saved earlier"


@pytest.fixture
def stock_run(shared_dir, once_per_run):
    """One run of the script as a user runs it, stock partitioner: JSON on stdout, every .pte saved into a folder
    that already holds one of them, overwritten as --force says; made once per test run; (result, save folder)."""
    saved = shared_dir / "executorch_path-stock_run"

    def save_a_program_earlier():
        saved.mkdir()
        (saved / "upstream_clone_sin.stock.pte").write_bytes(SAVED_EARLIER)

    cases = [item for case in ["upstream_clone_sin", "conv_channels_last_input"] for item in ("--case", case)]
    result = cli_run_once(once_per_run, "executorch_path-stock_run", "python", REPRO / "executorch_path.py",
                          "--json", *cases, "--save-dir", saved, "--force", before=save_a_program_earlier)
    return result, saved


def test_script_json_and_saved_pte(stock_run):
    from repro.harness.cases.outcomes import outcome_counts

    result, saved = stock_run
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == ExitStatus.BUG, result.stderr[-2000:]
    record = next(record for record in report["cases"] if record["case"] == "upstream_clone_sin")
    assert record["outcome"] == "wrong"
    assert record["group"] == "copies"
    assert {load: run["outcome"] for load, run in record["runs"].items()} == {"bytes": "wrong", "path": "wrong"}
    assert report["counts"] == json.loads(json.dumps(outcome_counts(report["cases"])))
    assert report["counts"]["bytes"]["wrong"] == 2, "the copy and the channels-last conv"
    assert (saved / "conv_channels_last_input.stock.pte").read_bytes()[4:8] == b"ET12"


def test_force_overwrites_the_programs_saved_earlier(stock_run):
    """(Without --force the run stops before any case: ``test_executorch_path_bad_input.py``.)"""
    _, saved = stock_run
    assert (saved / "upstream_clone_sin.stock.pte").read_bytes()[4:8] == b"ET12", "still the earlier bytes"


@pytest.fixture
def unloadable_run(shared_dir, once_per_run):
    """The script with -v where OPENVINO_LIB_PATH names no library: it stops right after its imports; made once
    per test run."""
    return cli_run_once(once_per_run, "executorch_path-unloadable_run", "python", REPRO / "executorch_path.py",
                        "-v", "--case", "clone_only",
                        env={**os.environ, "OPENVINO_LIB_PATH": str(shared_dir / "missing.so")})


def test_unloadable_openvino_library_exits_125(unloadable_run):
    assert unloadable_run.returncode == ExitStatus.UNTESTABLE, unloadable_run.stderr[-2000:]
    assert "COULD NOT TEST: cannot load OPENVINO_LIB_PATH" in unloadable_run.stderr


def test_the_script_hides_the_import_chatter_unless_verbose(stock_run, unloadable_run):
    """What the export stack prints on import is hidden (the stock run's stderr), and shown with -v (the run that
    stops right after the imports prints it). The chatter comes only while importing
    (``repro/harness/runtime/quiet.py``), so the imports are all the verbose run needs."""
    quiet, _ = stock_run
    assert [line for line in quiet.stderr.splitlines() if THIRD_PARTY_NOISE.search(line)] == []
    assert THIRD_PARTY_NOISE.search(unloadable_run.stderr), "with -v the chatter is shown"


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


def test_script_runs_a_candidate_partitioner_named_by_import_path(tmp_path):
    result = run_script("--json", "--case", "upstream_clone_sin", "--save-dir", str(tmp_path),
                        "--partitioner", "workaround:CopySafeOpenvinoPartitioner")
    report = json.loads(result.stdout)
    assert result.returncode == report["exit_code"] == ExitStatus.CORRECT, result.stderr[-2000:]
    assert report["partitioner"] == "candidate"
    assert (tmp_path / "upstream_clone_sin.candidate.pte").exists()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--partitioner", "nosuch.module:Partitioner"], "cannot import nosuch.module"),
    (["--partitioner", "repro.harness.models.catalogue:Case"], "is not a subclass of ExecuTorch's"),
    (["--partitioner", "bogus"],
     "is neither one of none, stock, workaround, workaround-torch-special-values nor module.path:ClassName"),
    (["--transform-pass", "workaround:DefaultDimOrderForOpenvino"], "goes with a candidate partitioner"),
])
def test_a_bad_candidate_is_a_usage_error(capsys, arguments, message):
    assert message in usage_error(capsys, *arguments)


def test_an_unwritable_save_dir_is_a_usage_error_before_any_case_runs(capsys):
    assert usage_error(capsys, "--save-dir", "/proc/forbidden").startswith(
        "executorch_path.py: error: --save-dir: cannot write into /proc/forbidden")
