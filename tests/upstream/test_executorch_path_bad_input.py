"""repro/executorch_path.py given bad input, run as users run it: one line, exit 2, before any case runs, and
the programs already in --save-dir kept without --force (overwritten with it: test_executorch_path_command.py)."""

import pytest

from tests.support.bad_input import assert_one_line, digests
from tests.support.helpers import REPRO, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
SAVED = "upstream_clone_sin.stock.pte"  # what --case upstream_clone_sin writes with the stock partitioner


def run_script(*arguments):
    return run_cli("python", REPRO / "executorch_path.py", *arguments, timeout=600)


def test_programs_already_saved_are_not_overwritten_without_force(tmp_path):
    (tmp_path / SAVED).write_bytes(b"a program saved earlier")
    before = digests(tmp_path)
    result = run_script("--case", "upstream_clone_sin", "--save-dir", tmp_path)
    assert_one_line(result, 2, f"--save-dir: {tmp_path} already holds 1 of the programs this run writes "
                               f"({SAVED}): give another folder, or --force to overwrite them")
    assert digests(tmp_path) == before


@pytest.mark.parametrize(("arguments", "says"), [
    (["--force"], "--force goes with --save-dir"),
    (["--case", "nosuch"], "--case: no such case: nosuch"),
    (["--save-dir", "{file}/sub"], "is not a folder"),
    (["--frobnicate"], "unrecognized arguments: --frobnicate"),
], ids=["force_alone", "unknown_case", "save_dir_under_a_file", "unknown_flag"])
def test_bad_input_is_one_line_and_creates_nothing(tmp_path, arguments, says):
    (tmp_path / "file").write_text("a file")
    before = digests(tmp_path)
    result = run_script(*[part.format(file=tmp_path / "file") for part in arguments])
    assert assert_one_line(result, 2, says).startswith("executorch_path.py: error: ")
    assert digests(tmp_path) == before
    assert sorted(tmp_path.iterdir()) == [tmp_path / "file"]
