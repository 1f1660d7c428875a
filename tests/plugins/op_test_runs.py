"""ExecuTorch's own OpenVINO op tests (shipped in the executorch wheel) as the tests that compare them see them:
the ``op_test_runs`` fixture runs a way once per test run, whichever xdist worker asks first (a file lock in the
run's shared folder), so the tests that compare ways can land on either worker. A pytest plugin
(``pytest_plugins`` in the conftest): the gate compares the stock run with the workaround's, the upstream env
with our patches'.

The ways: ``stock``; ``workaround`` (``install()`` in the op tests' process); ``patched``, ``python -m
repro.harness.conformance.op_tests --every-op-test`` as a user runs it (the matrix runs it without the option):
every op test with our ExecuTorch patches applied, the tests they add also without them.

The stock and the patched runs run ExecuTorch's tests on ExecuTorch's backend, stock or with our patch series, with
none of the workaround: no change to the workaround or to the tests that compare them can alter them. So they are
kept across runs in the environment (``<env>/kept-op-test-runs/KEY.json``), under a key that holds everything
their outcome depends on (``op_test_run_inputs``): every installed distribution's version, the backend's and
its op tests' source, the harness that runs them (the patched run: and every patch), the variables that steer
OpenVINO and the loader, the CPU's flags (they decide OpenVINO's precision) and Python's version. Anything of it
changed, and the run is made again; a fresh clone makes both. The workaround's run is never kept: it is what a
change can break.
"""

import hashlib
import importlib.metadata
import json
import os
import platform
import sys
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from repro.harness.conformance.op_tests import CRASHED, op_tests_dir, run_op_tests
from repro.harness.lowering.executorch_patches import PATCHES
from tests.support.helpers import PROJECT, run_cli

# Our files that run the op tests, stock or patched (``python -m repro.harness.conformance.op_tests`` and every
# ``repro`` module it imports, which a gate test checks): a change to any of them changes both runs' keys.
HARNESS = [PROJECT / "repro" / "harness" / name for name in (
    "conformance/op_tests.py", "conformance/op_test_outcomes.py", "lowering/executorch_patches.py",
    "cpu/precision.py", "cpu/classes.py", "lowering/cia_collection.py", "cli.py")] + [
    Path(__file__)]
# Variables that change what the op tests compute or load (OpenVINO's ISA cap and library, oneDNN and threading
# knobs, the loader's and Python's search paths); the rest of the environment (xdist's worker names, pytest's
# current test, the shell's) does not, nor does PYTHONHASHSEED, which tox draws anew every run and run_op_tests
# sets to 0 in the op tests' process.
STEERING = ("OV_", "OPENVINO", "ONEDNN", "DNNL", "OMP_", "KMP_", "MKL", "LD_", "PYTHON", "TORCH", "EXECUTORCH")
NOT_STEERING = ("PYTHONHASHSEED",)
KEPT_RUNS = Path(sys.prefix) / "kept-op-test-runs"


def tree_digest(root: Path) -> str:
    """One digest of every Python file under ``root``, by relative path and content."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            return next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("flags")), "")
    except OSError:
        return platform.processor()


def op_test_run_inputs(backend: Path, harness: Iterable[Path], environ: Mapping[str, str],
                       distributions: Iterable[str], flags: str) -> dict[str, object]:
    """Everything a kept run's outcome depends on, as a JSON-ready record: ``backend`` is ExecuTorch's
    ``backends/openvino`` folder (its op tests inside it), ``harness`` our files that run them."""
    return {"distributions": sorted(distributions), "backend": tree_digest(backend),
            "harness": [[path.name, hashlib.sha256(path.read_bytes()).hexdigest()] for path in harness],
            "environment": {name: value for name, value in sorted(environ.items())
                            if name.startswith(STEERING) and name not in NOT_STEERING},
            "cpu_flags": flags, "python": sys.version}


def installed_op_test_run_inputs(way: str = "stock") -> dict[str, object]:
    """The inputs of ``way``'s run here: the patched run's harness includes every patch of every series."""
    distributions = (f"{dist.metadata['Name']}=={dist.version}" for dist in importlib.metadata.distributions())
    harness = HARNESS + (sorted(PATCHES.rglob("*.patch")) if way == "patched" else [])
    return {"way": way, **op_test_run_inputs(op_tests_dir().parents[1], harness, os.environ, distributions,
                                             cpu_flags())}


def run_key(inputs: Mapping[str, object]) -> str:
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:32]


def kept(cache: Path, key: str, compute: Callable[[], dict]) -> dict:
    """What ``compute()`` gave under ``key`` in ``cache``: read back if kept, else computed and kept (written to a
    temporary name, then renamed: a run stopped midway leaves nothing under the key). A run whose op tests
    crashed is not kept: a crash may not happen again, and the next run should see for itself."""
    stored = cache / f"{key}.json"
    if stored.exists():
        return json.loads(stored.read_text())
    result = compute()
    if any(CRASHED in result.get(run, {}).values() for run in ("outcomes", "with", "without")):
        return result  # the stock run's outcomes, or the patched run's with and without the patches
    cache.mkdir(parents=True, exist_ok=True)
    partial = stored.with_suffix(f".{os.getpid()}.partial")
    partial.write_text(json.dumps(result))
    partial.replace(stored)
    return result


def run_way(way, folder):
    """The op tests' outcomes run one way (see the module docstring) in ``folder``."""
    if way == "workaround":
        return run_op_tests(folder, [op_tests_dir()], with_workaround=True)
    compute = {"stock": lambda: run_op_tests(folder, [op_tests_dir()]), "patched": run_patched}[way]
    return kept(KEPT_RUNS, run_key(installed_op_test_run_inputs(way)), compute)


def run_patched():
    result = run_cli("python", "-m", "repro.harness.conformance.op_tests", "--every-op-test", timeout=1800)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout)


@pytest.fixture(scope="session")
def op_test_runs(shared_dir):
    """``runs(*ways)``: those ways' outcomes, each computed once per test run and shared between xdist workers
    (the first to ask runs it; the ways asked for together run concurrently)."""
    from filelock import FileLock

    def run(way):
        folder = shared_dir / f"op-tests-{way}"
        with FileLock(f"{folder}.lock"):
            if not (folder / "outcomes.json").exists():
                folder.mkdir(exist_ok=True)
                (folder / "outcomes.json").write_text(json.dumps(run_way(way, folder)))
            return json.loads((folder / "outcomes.json").read_text())

    def runs(*ways):
        with ThreadPoolExecutor(len(ways)) as pool:
            return list(pool.map(run, ways))

    return runs


def changed(before, after):
    """{test: (outcome before, outcome after)} for every test of ``before`` whose outcome differs."""
    return {test: (before.get(test), after.get(test)) for test in before if before[test] != after.get(test)}
