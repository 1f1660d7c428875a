"""The stock and the patched runs of ExecuTorch's op tests are kept across test runs
(``tests/plugins/op_test_runs.py``): under a key that changes with every input its outcome depends on, so a changed
input runs it again, and an unchanged one reads it back. No op test runs here: the inputs are copies and stand-ins,
the run a counter."""

import ast
import shutil
from pathlib import Path

import pytest

from repro.harness.conformance.op_tests import CRASHED, op_tests_dir
from tests.plugins.op_test_runs import HARNESS, kept, op_test_run_inputs, run_key
from tests.support.helpers import PROJECT, skip_module_without_executorch_path

skip_module_without_executorch_path()
DISTRIBUTIONS = ["executorch==1.5.1", "openvino==2026.4.1", "torch==2.13.0"]
ENVIRONMENT = {"OV_CPU_MAX_ISA": "AVX512_CORE_VNNI", "PYTEST_XDIST_WORKER": "gw0", "HOME": "/root"}


@pytest.fixture
def inputs(tmp_path):
    """``op_test_run_inputs``'s arguments, as stand-ins a test may change: copies of the installed backend and
    of our harness, a made-up environment, distributions and CPU flags."""
    backend = shutil.copytree(op_tests_dir().parents[1], tmp_path / "openvino",
                              ignore=shutil.ignore_patterns("__pycache__"))
    harness = [Path(shutil.copy(path, tmp_path / path.name)) for path in HARNESS]
    return {"backend": backend, "harness": harness, "environ": dict(ENVIRONMENT),
            "distributions": list(DISTRIBUTIONS), "flags": "fpu avx2 avx512_bf16"}


def key_of(given):
    return run_key(op_test_run_inputs(**given))


def edit(path):
    path.write_text(path.read_text() + "\n# changed\n")


CHANGES = {
    "an op test's source": lambda given: edit(given["backend"] / "tests" / "ops" / "test_add.py"),
    "the backend's partitioner": lambda given: edit(given["backend"] / "partitioner.py"),
    "our harness": lambda given: edit(given["harness"][0]),
    "OpenVINO's ISA cap": lambda given: given["environ"].pop("OV_CPU_MAX_ISA"),
    "a library path": lambda given: given["environ"].update(LD_LIBRARY_PATH="/opt/rebuilt"),
    "a distribution's version": lambda given: given["distributions"].__setitem__(1, "openvino==2026.3.1"),
    "a distribution added": lambda given: given["distributions"].append("nncf==3.1.0"),
    "the CPU's flags": lambda given: given.update(flags="fpu avx2"),
}


@pytest.mark.parametrize("change", CHANGES)
def test_a_changed_input_changes_the_kept_runs_key(inputs, change):
    before = key_of(inputs)
    CHANGES[change](inputs)
    assert key_of(inputs) != before


def test_the_same_inputs_and_unrelated_variables_keep_the_key(inputs):
    """Tox's hash seed, drawn anew every run, is not an input: the op tests run with seed 0 (``run_op_tests``)."""
    before = key_of(inputs)
    inputs["environ"].update(PYTEST_XDIST_WORKER="gw1", PYTEST_CURRENT_TEST="x", HOME="/home/someone",
                             PYTHONHASHSEED="1965268158")
    assert key_of(inputs) == before


def test_a_kept_baseline_is_read_back_and_a_new_key_runs_again(tmp_path):
    runs = []

    def run():
        runs.append(1)
        return {"outcomes": {"test_add.py::TestAdd::test_add": "passed"}, "run": len(runs)}

    first = kept(tmp_path, "key-a", run)
    assert kept(tmp_path, "key-a", run) == first == {**first, "run": 1}
    assert len(runs) == 1
    assert kept(tmp_path, "key-b", run)["run"] == 2
    assert sorted(path.name for path in tmp_path.iterdir()) == ["key-a.json", "key-b.json"]


@pytest.mark.parametrize("crashed", [{"outcomes": {"ops": CRASHED}}, {"with": {"ops": CRASHED}, "without": {}},
                                     {"with": {}, "without": {"ops": CRASHED}}], ids=["stock", "with", "without"])
def test_a_run_whose_op_tests_crashed_is_not_kept(tmp_path, crashed):
    assert kept(tmp_path, "key", lambda: crashed) == crashed
    assert list(tmp_path.iterdir()) == []


def test_the_patched_runs_key_changes_with_each_patch_and_differs_from_the_stock_runs(monkeypatch, tmp_path):
    """The patched run is kept too: under a key of its own that every patch of every series is an input of."""
    from tests.plugins import op_test_runs

    patches = shutil.copytree(op_test_runs.PATCHES, tmp_path / "executorch")
    monkeypatch.setattr(op_test_runs, "PATCHES", patches)
    stock, patched = (run_key(op_test_runs.installed_op_test_run_inputs(way))
                      for way in ("stock", "patched"))
    assert stock != patched
    edit(sorted(patches.rglob("*.patch"))[-1])
    assert run_key(op_test_runs.installed_op_test_run_inputs("patched")) != patched
    assert run_key(op_test_runs.installed_op_test_run_inputs("stock")) == stock


def test_the_op_tests_hash_with_seed_0_whatever_the_callers_seed(tmp_path, monkeypatch):
    """What makes tox's seed no input of the key: the op tests' process hashes with seed 0."""
    from repro.harness.conformance.op_tests import run_op_tests

    monkeypatch.setenv("PYTHONHASHSEED", "1965268158")
    probe = tmp_path / "test_seed.py"
    probe.write_text("import os\n\n\ndef test_seed():\n    assert os.environ['PYTHONHASHSEED'] == '0'\n")
    folder = tmp_path / "run"
    folder.mkdir()
    assert run_op_tests(folder, [probe])["outcomes"] == {"test_seed.py::test_seed": "passed"}


def module_file(name):
    return PROJECT / (name.replace(".", "/") + ".py")


def repro_modules_imported_by(path):
    """The ``repro`` modules ``path`` imports anywhere in it (inside functions too), as their files: for ``from A
    import B``, B's file where B is a module, else A's."""
    tree = ast.parse(path.read_text())
    names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            submodules = [f"{node.module}.{alias.name}" for alias in node.names]
            names += [name if module_file(name).is_file() else node.module for name in submodules]
    return {module_file(name) for name in names if name.startswith("repro.")}


def test_the_kept_runs_key_holds_every_repro_module_the_op_tests_harness_imports():
    """A module the harness starts to import, left out of ``HARNESS``, would change the op tests' outcome
    without changing the key: a kept run would be read back stale."""
    seen, to_read = set(), [path for path in HARNESS if path.parent != PROJECT / "tests"]
    while to_read:
        path = to_read.pop()
        seen.add(path)
        to_read += [module for module in repro_modules_imported_by(path) if module not in seen]
    assert seen <= set(HARNESS), sorted(str(path.relative_to(PROJECT)) for path in seen - set(HARNESS))
