"""ExecuTorch's own OpenVINO op tests (``executorch/backends/openvino/tests/ops``, shipped in the wheel), run
in a child pytest and read back test by test and subtest by subtest: stock, with the workaround installed,
or with our upstream patches applied to a copy of the backend (``repro.harness.lowering.executorch_patches``).

``python -m repro.harness.conformance.op_tests [--every-op-test]`` prints, as JSON, the outcome of the op tests the
Python series add, with the series applied and against the stock backend (their test hunks only), per
series: what the upstream reports show as each patch's test result, and what ``repro/matrix.py
--executorch`` records per release; with ``--every-op-test`` the patched run covers every op test (the gate
compares it with the stock run). Each run takes a fresh temporary folder; nothing is written elsewhere.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from repro.harness.cpu import precision
from repro.harness.lowering import executorch_patches as patches

PROJECT = Path(__file__).resolve().parents[3]
# What each Python series adds to backends/openvino/tests/ops.
NEW_OP_TESTS = {patches.COPY_EXCLUSION: "test_copy.py", patches.CHANNELS_LAST: "test_dim_order.py",
                patches.SEMANTICS: "test_semantics.py", patches.SYMBOLIC_SIZES: "test_dynamic_size.py"}
# What each C++ series adds: run against the runtime backend rebuilt with and without the C++ series.
RUNTIME_OP_TESTS = {patches.BLOB_LIFETIME: "test_load_by_path.py", patches.OUTPUT_ORDER: "test_execute.py",
                    patches.PRECISION: "test_precision.py", patches.IMPORT_REASON: "test_import_error.py"}
CRASHED = "crashed"  # the child pytest died (a signal) before writing outcomes


def op_tests_dir(root: str | Path | None = None) -> Path:
    """The op tests' folder: in the installed wheel, or in an overlay ``root``."""
    if root is not None:
        return Path(root) / "executorch" / "backends" / "openvino" / "tests" / "ops"
    spec = importlib.util.find_spec("executorch.backends.openvino.tests.ops")
    if spec is None:
        raise RuntimeError("this executorch wheel does not ship its OpenVINO op tests")
    return Path(next(iter(spec.submodule_search_locations)))


def run_op_tests(folder: str | Path, paths: Iterable[str | Path], *, with_workaround: bool = False,
                 overlay: str | Path | None = None, library_path: str | Path | None = None,
                 environment: Mapping[str, str] | None = None, timeout: float = 1800) -> dict[str, Any]:
    """{"outcomes": {test: outcome}, "workaround": counters} of a child pytest over ``paths``, run from the
    empty ``folder`` (so that only the op tests' own configuration applies), in ``environment`` (default:
    this process's) with the folders ``overlay`` and ``library_path`` first on PYTHONPATH and LD_LIBRARY_PATH.
    A child killed by a signal gives {"outcomes": {path's name: CRASHED}}: a crash is a test's outcome, not the
    harness's failure. The child hashes strings with seed 0 whatever this process's seed (tox draws one anew every
    run), so runs made apart compare like for like."""
    outcomes = Path(folder) / "outcomes.json"
    environment = os.environ if environment is None else environment
    base = {**environment, "PYTHONHASHSEED": "0", "PEER_OUTCOMES": str(outcomes),
            "PEER_WITH_WORKAROUND": "1" if with_workaround else "0",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(PROJECT), environment.get("PYTHONPATH")]))}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "repro.harness.conformance.op_test_outcomes", "-p",
               "no:cacheprovider", "--rootdir", str(folder), *map(str, paths)]
    env = patches.with_search_paths(python_path=overlay, library_path=library_path, base=base)
    result = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=timeout,
                            check=False)
    if result.returncode < 0 and not outcomes.exists():
        return {"outcomes": {Path(path).name: CRASHED for path in paths}}
    if not outcomes.exists():
        raise RuntimeError(f"the op tests wrote no outcomes: {(result.stdout + result.stderr)[-3000:]}")
    return json.loads(outcomes.read_text())


def python_series_overlay(folder: str | Path, tests_only: bool = False) -> Path:
    """An overlay with every Python series applied (only their op-test hunks with ``tests_only``)."""
    return patches.overlay(folder, patches.python_series(), include=patches.OP_TESTS if tests_only else None)


def added_tests(outcomes: Mapping[str, str], file_name: str) -> tuple[dict[str, str], dict[str, str]]:
    """{test name: outcome} of the op tests in ``file_name``, a test failing when any of its subtests fails
    (pytest reports the test itself as passed then), and {test name [subtest parameters]: outcome}."""
    added = {key.split("::")[-1]: outcome for key, outcome in outcomes.items() if key.startswith(f"{file_name}::")}
    subtests = {key: outcome for key, outcome in added.items() if " " in key}
    tests = {key: outcome for key, outcome in added.items() if " " not in key}
    for key, outcome in subtests.items():
        if outcome != "passed":
            tests[key.split(" ")[0]] = outcome
    return tests, subtests


def with_and_without(folder: str | Path, every_op_test: bool = False) -> dict[str, Any]:
    """Every Python series applied ("with": the op tests they add, or with ``every_op_test`` all of them), and
    only their op-test hunks against the stock backend ("without": the tests they add); the two runs go
    concurrently. Returns {"with": outcomes, "without": outcomes, "series": {name: {"with": {test: outcome},
    "without": ..., "subtests": {"with": ..., "without": ...}}}}."""

    def run(way):
        run_folder = Path(folder) / way
        run_folder.mkdir(parents=True)
        root = python_series_overlay(run_folder / "overlay", tests_only=way == "without")
        paths = [op_tests_dir(root)] if way == "with" and every_op_test else \
            [op_tests_dir(root) / name for name in NEW_OP_TESTS.values()]
        return run_op_tests(run_folder, paths, overlay=root)["outcomes"]

    with ThreadPoolExecutor(2) as both:
        outcomes = dict(zip(("with", "without"), both.map(run, ("with", "without")), strict=True))
    series = {}
    for name, file_name in NEW_OP_TESTS.items():
        (with_tests, with_subtests), (without_tests, without_subtests) = (
            added_tests(outcomes[way], file_name) for way in ("with", "without"))
        series[name] = {"with": with_tests, "without": without_tests,
                        "subtests": {"with": with_subtests, "without": without_subtests}}
    return {**outcomes, "series": series}


def runtime_with_and_without(source: Path, folder: Path) -> dict[str, dict[str, dict[str, str]]]:
    """The op tests the C++ series add, each file in a child of its own: "with", every C++ series applied (the
    runtime rebuilt from the ExecuTorch checkout ``source``, the Python files in a copy of the installed
    backend); "without", only their test hunks, against the runtime rebuilt stock; both at the CPU's default
    precision (a caller's f32 cap taken away: ``precision``'s tests are about it). Returns {series: {"with":
    {test: outcome}, "without": ...}}, a crashed file's tests as {file name: CRASHED}."""
    folder = Path(folder)
    runtime_patches = [patch for name in patches.RUNTIME_SERIES for patch in patches.patch_files(name)]
    roots = {"with": patches.overlay(folder / "overlay-with", runtime_patches, include="*.py"),
             "without": patches.overlay(folder / "overlay-without", runtime_patches, include=patches.OP_TESTS)}
    libraries = {"with": patches.build_backend(source, folder / "with", runtime_patches),
                 "without": patches.build_backend(source, folder / "without")}

    def run(way_and_series):
        way, name = way_and_series
        run_folder = folder / f"{way}-{name}"
        run_folder.mkdir()
        path = op_tests_dir(roots[way]) / RUNTIME_OP_TESTS[name]
        outcomes = run_op_tests(run_folder, [path], overlay=roots[way], library_path=libraries[way],
                                environment=precision.without_cap())["outcomes"]
        return added_tests(outcomes, path.name)[0] if outcomes != {path.name: CRASHED} else outcomes

    runs = [(way, name) for name in RUNTIME_OP_TESTS for way in ("with", "without")]
    with ThreadPoolExecutor(2) as pool:
        outcomes = dict(zip(runs, pool.map(run, runs), strict=True))
    return {name: {way: outcomes[way, name] for way in ("with", "without")} for name in RUNTIME_OP_TESTS}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m repro.harness.conformance.op_tests",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--every-op-test", action="store_true",
                        help="with the patches, run every op test, not only those the patches add")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        report = with_and_without(folder, args.every_op_test)
    print(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
