"""The gate cannot pass by not running: a missing ExecuTorch stack is an error where it should be there."""

import os

import pytest

from tests.support.helpers import PROJECT, run_cli
from tests.tools.mutations import MUTATIONS

# A module-level skip decision with torch made unimportable, as in an env whose install went wrong.
CHILD = """
import sys
sys.modules["torch"] = None
import pytest
from tests.support.helpers import skip_module_without_executorch_path
try:
    skip_module_without_executorch_path()
except pytest.skip.Exception as skipped:
    print("SKIPPED:", skipped.msg)
except RuntimeError as error:
    print("ERROR:", error)
"""


def decide_without_torch(declared):
    env = {key: value for key, value in os.environ.items() if key != "EXECUTORCH_UNAVAILABLE"}
    if declared:
        env["EXECUTORCH_UNAVAILABLE"] = declared
    result = run_cli("python", "-c", CHILD, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.strip()


def test_a_missing_executorch_stack_is_an_error_where_it_should_be_installed():
    verdict = decide_without_torch(None)
    assert verdict.startswith("ERROR: the ExecuTorch stack is not importable"), verdict
    assert "EXECUTORCH_UNAVAILABLE" in verdict


def test_a_missing_executorch_stack_is_a_skip_where_the_environment_says_why():
    assert decide_without_torch("numpy<2 and numpy>=2") == "SKIPPED: numpy<2 and numpy>=2"


def test_only_an_unexpected_pass_says_upstream_changed(pytester):
    """An expected failure reports what it expects; the retire-this message is added to an XPASS alone."""
    pytester.makeconftest("from tests.conftest import pytest_runtest_makereport  # noqa: F401")
    pytester.makepyfile("""
        import pytest

        @pytest.mark.xfail(strict=True, reason="expected wrong: stale")
        def test_still_wrong():
            assert False

        @pytest.mark.xfail(strict=True, reason="expected wrong: fixed upstream")
        def test_now_right():
            pass
    """)
    result = pytester.runpytest("-rxX", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1, xfailed=1)
    output = result.stdout.str()
    assert "expected wrong: fixed upstream. Upstream behaviour changed" in output
    assert "expected wrong: stale. Upstream" not in output
    assert "expected wrong: stale" in output, "the expected failure still says what it expects"


PRECISION_CHILD = "from repro.harness.cpu.precision import default_is_f32; print(default_is_f32())"


def test_the_gate_and_its_children_compute_at_f32():
    """The gate's tolerances are f32's (repro/harness/cpu/precision.py): OpenVINO's CPU plugin must default to f32
    here and in every child the gate starts, whatever the CPU (tests/conftest.py caps its instruction set)."""
    from repro.harness.cpu import precision

    assert precision.default_is_f32(), "OpenVINO computes f32 models in bf16 here: the gate's cap is not set"
    assert run_cli("python", "-c", PRECISION_CHILD, timeout=120).stdout.strip() == "True"
    assert precision.tolerance(precision.CONV) == 1e-4


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mutation_still_applies_to_exactly_one_place(name):
    """``python -m tests.tools.mutations`` breaks the code in known ways and expects this gate red; a mutation
    whose text was moved or reworded would test nothing, so it must still find its text exactly once."""
    _, relative, text, _ = MUTATIONS[name]
    assert (PROJECT / relative).read_text().count(text) == 1, f"mutation {name}: update tests/tools/mutations.py"


@pytest.mark.parametrize("short", [True, False], ids=["disk_short", "disk_enough"])
def test_the_large_env_stops_in_one_line_before_its_first_export_when_the_disk_cannot_hold_its_peak(
        pytester, monkeypatch, short):
    """CI, 2026-12-07: a disk that filled halfway failed minutes in as torch's zip writer's error. The large env
    now measures the free disk first (``tests/large/conftest.py``) and stops with the need and what there is."""
    import shutil

    from tests.large import conftest as large

    free = shutil.disk_usage(pytester.path).free
    monkeypatch.setattr(large, "DISK_NEEDED", free + large.GIB if short else 1)
    pytester.makeconftest("from tests.large.conftest import disk_for_programs_past_2_gib  # noqa: F401")
    pytester.makepyfile("def test_an_export():\n    pass\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    if short:
        assert result.ret == 1
        result.assert_outcomes()
        stop = [line for line in result.outlines if "tox -e large needs" in line]
        assert len(stop) == 1, result.outlines
        assert f"{(free + large.GIB) / large.GIB:.0f} GiB free under" in stop[0]
    else:
        result.assert_outcomes(passed=1)


def test_each_long_running_entry_names_a_test_that_exists():
    """An entry a rename left behind would silently stop putting its test first (tests/conftest.py)."""
    from tests.conftest import LONG_RUNNING

    for entry in LONG_RUNNING:
        path, _, name = entry.partition("::")
        assert (PROJECT / path).is_file(), entry
        assert not name or f"def {name}" in (PROJECT / path).read_text(), entry
