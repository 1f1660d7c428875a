"""repro/matrix.py as users type it: a malformed argument is one line on stderr and exit 2, checked before
anything is installed or written."""

import os

import pytest

from tests.support.helpers import REPRO, run_cli


@pytest.mark.parametrize("text", ["latest", "2024", "24.0.0", "2024.0.0rc1", ","])
def test_malformed_versions_are_a_usage_error(text):
    result = run_cli("python", REPRO / "matrix.py", "--versions", text, timeout=60)
    assert result.returncode == 2
    assert "not a release like 2024.0.0" in result.stderr


@pytest.mark.parametrize(("arguments", "message"), [
    (["--versions", "2024.0.0", "-j", "0"], "-j/--jobs: must be at least 1, got 0"),
    (["--versions", "2024.0.0", "-j", "-1"], "-j/--jobs: must be at least 1, got -1"),
    (["--versions", "2026.4.1", "--out", "/proc/forbidden"], "--out: cannot write into /proc/forbidden"),
    (["--versions", "2026.4.1", "--reports", "/proc/forbidden/reports"], "--reports: cannot write into"),
    (["--versions", "2026.4.1", "--cache", "/proc/forbidden"], "--cache: cannot write into"),
    (["--versions", "2026.4.1,9999.1"], "--versions: not on the package index: 9999.1"),
    (["--versions", "2026.4.1", "--executorch-source", "/tmp"], "--executorch-source goes with --executorch"),
    (["--versions", "2026.4.1", "--executorch", "--executorch-source", "/proc"], "is not an ExecuTorch checkout"),
    (["--versions", "2026.4.1", "--executorch-versions", "1.5"], "not an ExecuTorch release like 1.5.1: ['1.5']"),
], ids=["jobs_0", "jobs_negative", "out", "reports", "cache", "unknown_release", "source_alone",
        "source_not_a_checkout", "executorch_series"])
def test_bad_input_is_one_line_and_exit_2_before_anything_is_written(tmp_path, arguments, message):
    out = tmp_path / "matrix"
    out.mkdir()
    (out / "matrix.json").write_text("earlier results")
    defaults = [] if "--out" in arguments else ["--out", str(out)]
    defaults += [] if "--cache" in arguments else ["--cache", str(tmp_path / "envs")]
    # $EXECUTORCH_SOURCE (a real checkout or not) is read only with --executorch: it changes none of these.
    env = {**os.environ, "EXECUTORCH_SOURCE": str(tmp_path)}
    result = run_cli("python", REPRO / "matrix.py", *arguments, *defaults, env=env, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert message in line
    assert (out / "matrix.json").read_text() == "earlier results"
    assert not (tmp_path / "envs").exists() or not any((tmp_path / "envs").iterdir())


@pytest.mark.parametrize("arguments", [["--versions", "2026.4.1,9999.1"], ["--executorch-source", "/tmp"]],
                         ids=["unknown_release", "source_alone"])
def test_a_usage_error_creates_none_of_the_folders_it_was_given(tmp_path, arguments):
    """--out, --reports and --cache were created before a later check failed (with the defaults: out/matrix and
    .matrix/envs in the checkout)."""
    folders = {option: tmp_path / "new" / option.strip("-") / "nested"
               for option in ("--out", "--reports", "--cache")}
    given = [part for option, folder in folders.items() for part in (option, str(folder))]
    result = run_cli("python", REPRO / "matrix.py", *arguments, *given, timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("matrix.py: error: ")
    assert not (tmp_path / "new").exists()
