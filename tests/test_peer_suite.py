"""ExecuTorch's own OpenVINO op tests (shipped in the executorch wheel), run three ways and compared test by
test and subtest by subtest: stock; with the workaround installed; and with our upstream patches applied
(``repro/patches/executorch``: the copy exclusion and the channels-last conversion, with the op tests they
add), the added tests also run alone against the stock backend (``python -m repro.harness.op_tests``).

Their stock outcome is not ours to fix (9 passed, 25 failed on 2026.4.1 with executorch 1.5.1:
test_addmm and convolution/mean subtests fail with "CALL_DELEGATE execute failed"); the point is that
neither the workaround nor the patches change any of it, and that each new op test passes with its patch
and fails without it. Each way runs once per gate run, whichever xdist worker asks first (a file lock in
the session's temporary folder), so the tests below can land on either worker. Marked ``peer_suite``.
"""

import json
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from repro.harness.op_tests import NEW_OP_TESTS, op_tests_dir, run_op_tests
from tests.helpers import run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = [pytest.mark.executorch, pytest.mark.peer_suite]


def run_way(way, folder):
    """One way of running the op tests (see the module docstring) in ``folder``; writes outcomes.json."""
    if way in ("stock", "workaround"):
        run_op_tests(folder, [op_tests_dir()], with_workaround=way == "workaround")
        return
    # "patched": python -m repro.harness.op_tests --every-op-test, as a user runs it (the matrix does without
    # the option): every op test with the patches, the tests they add without them
    result = run_cli("python", "-m", "repro.harness.op_tests", "--every-op-test", timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    (folder / "outcomes.json").write_text(result.stdout)


@pytest.fixture(scope="session")
def op_test_runs(shared_dir):
    """``runs(*ways)``: those ways' outcomes, each computed once per gate run and shared between xdist workers
    (the first to ask runs it; the ways asked for together run concurrently)."""
    from filelock import FileLock

    def run(way):
        folder = shared_dir / f"op-tests-{way}"
        with FileLock(f"{folder}.lock"):
            if not (folder / "outcomes.json").exists():
                folder.mkdir(exist_ok=True)
                run_way(way, folder)
            return json.loads((folder / "outcomes.json").read_text())

    def runs(*ways):
        with ThreadPoolExecutor(len(ways)) as pool:
            return list(pool.map(run, ways))

    return runs


def changed(before, after):
    return {test: (before.get(test), after.get(test)) for test in before if before[test] != after.get(test)}


def test_peer_suite_outcome_is_identical_with_the_workaround(op_test_runs):
    stock_run, patched_run = op_test_runs("stock", "workaround")
    stock, patched = stock_run["outcomes"], patched_run["outcomes"]
    assert stock_run["workaround"]["rule_ran"] == 0
    assert patched_run["workaround"]["rule_ran"] >= len(stock) // 2, \
        f"install() did not put the workaround's rule in the peer suite's path: {patched_run['workaround']}"
    assert patched_run["workaround"]["nodes_handed_back"] > 0, \
        f"the workaround handed back nothing (4 nodes on 2026.4.1): {patched_run['workaround']}"
    assert len(stock) > 30, f"the peer suite ran too few tests: {stock}"
    assert stock.keys() == patched.keys()
    assert not changed(stock, patched), \
        f"outcomes changed (stock, workaround): {changed(stock, patched)}; stock totals {Counter(stock.values())}"


def test_upstream_patches_keep_every_stock_op_test_outcome(op_test_runs):
    stock_run, patched_run = op_test_runs("stock", "patched")
    stock, patched = stock_run["outcomes"], patched_run["with"]
    assert len(stock) > 30, f"the peer suite ran too few tests: {stock}"
    assert not changed(stock, patched), f"outcomes changed (stock, patched): {changed(stock, patched)}"


# The op tests each series adds, and their outcome against the stock backend (executorch 1.5.1, OpenVINO
# 2026.4.1): each fails without its patch except where stock gets it right already.
WITHOUT_THE_PATCHES = {
    "copy-exclusion": {
        "test_copy_of_input_as_output": "failed",  # all 8 subtests: 4 copies, dim order on and off
        "test_copy_of_input_used_inside": "passed",  # stock keeps an inside-only copy too
        "test_channels_last_copy_of_input_with_dim_order_off_fails_at_export": "failed",
    },
    "channels-last": dict.fromkeys([  # x - mean over channels: not elementwise, so wrong when read as contiguous
        "test_channels_last_input_and_output", "test_channels_last_input", "test_channels_last_output",
        "test_channels_last_input_with_dynamic_sizes_fails_at_export"], "failed"),
    "semantics": dict.fromkeys([  # wrong values, or a lowering error (int16, pixel_shuffle)
        "test_int64_multiply_beyond_int32", "test_uint8_add_wraps_around",
        "test_integer_floor_divide_above_2_pow_24", "test_float_trunc_divide_beyond_int32",
        "test_float_fmod_of_a_large_quotient", "test_reflection_pad_1d",
        "test_avg_pool_ceil_mode_counting_padding", "test_float64_multiply", "test_int16_add",
        "test_pixel_shuffle"], "failed"),
}


def test_op_tests_the_patches_add_pass_with_them(op_test_runs):
    [patched] = op_test_runs("patched")
    tests = {test: outcome for series in patched["series"].values() for test, outcome in series["with"].items()}
    assert tests.keys() == {test for series in WITHOUT_THE_PATCHES.values() for test in series}
    assert set(tests.values()) == {"passed"}, tests
    assert len(patched["series"]["copy-exclusion"]["subtests"]["with"]) == 8


@pytest.mark.parametrize("series", NEW_OP_TESTS)
def test_each_series_op_tests_pass_with_it_and_fail_without_it(op_test_runs, series):
    """``python -m repro.harness.op_tests``, the run the matrix records for the upstream reports."""
    [patched] = op_test_runs("patched")
    results = patched["series"][series]
    assert set(results["with"].values()) == {"passed"}, results["with"]
    assert results["without"] == WITHOUT_THE_PATCHES[series]
    assert results["with"].keys() == results["without"].keys()
    if series == "copy-exclusion":
        without = results["subtests"]["without"]
        assert len(without) == 8, without
        assert set(without.values()) == {"failed"}, without
