"""Shipped programs made loadable on another CPU, and the checker on programs of every class, run as a model owner
runs them: ``openvino-pte-restamp`` and ``openvino-pte-check`` in children where torch and ExecuTorch cannot be
imported.

The programs are the tracked ones of both hosts (``tests/data/*.pte``, AVX-512 BF16; ``tests/data/avx2-host``,
AVX2) and the samples lowered here. Each is held to:
- the checker gives a verdict on it whatever class stamped it, never NOT CHECKED: it names the class and release of
  each blob, a blob stamped for another class than the target's is a finding (exit 1) with the command that fixes
  it, and the rest of the check is the one the same program gets when stamped for this host;
- the command's output loads here (``tests/gate/test_programs_across_cpu_classes.py`` runs it as every class) and
  the checker no longer flags its stamp;
- bad input: exit 2, one line, nothing written; an existing output is replaced only with ``--force``; a blob of
  another OpenVINO release is refused (exit 1), nothing written.
"""

import json
import os

import pytest

from repro.harness.cpu.classes import process_class
from tests.support.checker_fuzz import flipped
from tests.support.helpers import (
    DATA,
    PROJECT,
    TRACKED_PROGRAMS,
    run_cli,
    skip_unless_this_release_compiled_the_tracked_programs,
    stamp_of,
)
from workaround.checker import compatibility_stamp, restamping

WITHOUT_TORCH = ("import sys, runpy\n"
                 "sys.modules['torch'] = sys.modules['executorch'] = None\n"
                 "sys.argv = sys.argv[1:]\n"
                 "runpy.run_module(sys.argv[0], run_name='__main__')\n")


def torch_free(module, *arguments, cwd=PROJECT):
    """``python -m module arguments`` in ``cwd``, the project importable, torch and ExecuTorch not."""
    environment = {**os.environ, "PYTHONPATH": str(PROJECT)}
    return run_cli("python", "-c", WITHOUT_TORCH, module, *arguments, cwd=cwd, env=environment, timeout=300)


def check(path, *options):
    result = torch_free("workaround.check", path, "--json", *options)
    assert result.returncode in (0, 1), result.stdout[-2000:] + result.stderr[-2000:]
    return result.returncode, json.loads(result.stdout)


def kinds(report, leaving=("stamped_for_another_cpu",)):
    return sorted(finding["kind"] for finding in report["findings"] if finding["kind"] not in leaving)


@pytest.fixture(scope="module", autouse=True)
def stamped_release():
    skip_unless_this_release_compiled_the_tracked_programs()


@pytest.fixture(scope="module")
def restamped_here(tmp_path_factory):
    folder = tmp_path_factory.mktemp("here")

    def written(path):
        output = folder / f"{path.parent.name}.{path.name}"
        if not output.exists():
            result = torch_free("workaround.restamp_command", path, "-o", output)
            assert result.returncode == 0, result.stdout + result.stderr
            assert result.stdout.splitlines()[-1] == f"wrote {output}: it loads on this host (imported here)"
        return output

    return written


@pytest.mark.parametrize("path", TRACKED_PROGRAMS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_the_checker_checks_a_program_of_any_class_whole_and_says_what_loads_here(path, restamped_here):
    code, report = check(path)
    stamp = stamp_of(path)
    assert report["not_opened"] == [], "never NOT CHECKED because of a stamp"
    assert report["stamps"] == [{"cpu_class": stamp.cpu_class, "isa": stamp.isa, "release": stamp.release,
                                 "text": stamp.text}]
    stamped = [finding for finding in report["findings"] if finding["kind"] == "stamped_for_another_cpu"]
    if stamp.cpu_class == process_class():
        assert stamped == []
    else:
        [finding] = stamped
        assert finding["detail"].endswith(f"Fix: openvino-pte-restamp {path}"), finding["detail"]
        assert code == 1
    _, fixed = check(restamped_here(path))
    assert [finding for finding in fixed["findings"] if finding["kind"] == "stamped_for_another_cpu"] == []
    assert kinds(report) == kinds(fixed), "the check of the body does not depend on the stamp"


@pytest.mark.parametrize("cpu_class", sorted(compatibility_stamp.ISA_OF_CLASS))
def test_the_checker_flags_a_program_made_here_for_another_target_class(samples_made_here, cpu_class):
    workaround = samples_made_here[1]
    code, report = check(workaround, "--target-cpu", cpu_class)
    stamped = [finding for finding in report["findings"] if finding["kind"] == "stamped_for_another_cpu"]
    if cpu_class == process_class():
        assert (code, report["findings"]) == (0, [])
    else:
        [finding] = stamped
        assert finding["detail"].endswith(f"Fix: openvino-pte-restamp {workaround} --target-cpu {cpu_class}")
        assert code == 1


def test_the_fix_the_checker_prints_makes_the_program_pass_for_that_class(samples_made_here, tmp_path):
    other = next(name for name in sorted(compatibility_stamp.ISA_OF_CLASS) if name != process_class())
    program = tmp_path / "model.pte"
    program.write_bytes(samples_made_here[1].read_bytes())
    _, report = check(program, "--target-cpu", other)
    command = report["findings"][0]["detail"].rsplit("Fix: ", 1)[1].split()
    assert command[0] == "openvino-pte-restamp"
    result = torch_free("workaround.restamp_command", *command[1:], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    written = tmp_path / f"model.{other}.pte"
    assert result.stdout.splitlines()[-1] == f"wrote {written}: it loads on CPU class {other}"
    assert stamp_of(written).cpu_class == other
    code, report = check(written, "--target-cpu", other)
    assert (code, report["findings"]) == (0, [])


def test_an_existing_output_is_replaced_only_with_force(tmp_path):
    source, output = TRACKED_PROGRAMS[-1], tmp_path / "out.pte"
    output.write_bytes(b"keep me")
    refused = torch_free("workaround.restamp_command", source, "-o", output, "--target-cpu", "avx2")
    assert refused.returncode == 2
    assert refused.stderr.strip() == f"openvino-pte-restamp: error: {output} exists: pass --force to replace it " \
                                     "(see --help)"
    assert output.read_bytes() == b"keep me"
    forced = torch_free("workaround.restamp_command", source, "-o", output, "--target-cpu", "avx512", "--force")
    assert forced.returncode == 0, forced.stderr
    assert stamp_of(output).cpu_class == "avx512"


@pytest.mark.parametrize(("arguments", "message"), [
    (["missing.pte"], "openvino-pte-restamp: error: missing.pte: no such file (see --help)"),
    ([DATA / "avx2-host" / "README.md", "-o", "out.pte"], "not a program it can read"),
    ([TRACKED_PROGRAMS[0], "--target-cpu", "avx3"], "unknown CPU class 'avx3'"),
    ([TRACKED_PROGRAMS[0], "-o", "no/such/folder/out.pte"], "no such folder"),
], ids=["missing file", "not a program", "unknown class", "no output folder"])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, arguments, message):
    result = torch_free("workaround.restamp_command", *arguments, cwd=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_blob_of_another_release_is_refused_and_nothing_written(tmp_path):
    stamp = stamp_of(TRACKED_PROGRAMS[0])
    older = stamp.text.replace(f"ov={stamp.release}", "ov=2026.4.0")
    program = tmp_path / "older.pte"
    program.write_bytes(restamping.restamp(TRACKED_PROGRAMS[0].read_bytes(), lambda _: older)[0])
    result = torch_free("workaround.restamp_command", program, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.strip() == (
        f"openvino-pte-restamp: {program}: refused: a blob was compiled by OpenVINO 2026.4.0 and the target runs "
        f"{stamp.release}: only the release that compiled a blob is known to read it; export again with "
        f"{stamp.release}; nothing written")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["older.pte"]
    code, report = check(program)
    assert code == 1
    assert [finding["kind"] for finding in report["findings"]][:1] == ["compiled_by_another_release"]


def test_a_blob_whose_import_error_is_not_text_is_refused_and_nothing_written(tmp_path):
    """A flip in a blob's IR makes OpenVINO's import fail with a message quoting the corrupted bytes, which its
    Python binding cannot decode (UnicodeDecodeError, a traceback, until the property-based test found it)."""
    program = tmp_path / "corrupted.pte"
    program.write_bytes(flipped(TRACKED_PROGRAMS[0], 1534).data)
    result = torch_free("workaround.restamp_command", program, cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.strip() == (
        f"openvino-pte-restamp: {program}: refused: OpenVINO delegate 0 does not import here even restamped: its "
        "error message is not even text (the blob is corrupted); nothing written")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["corrupted.pte"]
