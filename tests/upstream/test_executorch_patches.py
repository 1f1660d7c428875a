"""The changes we send to ExecuTorch (``repro/patches/executorch``), applied to copies of what is installed
and run: each series applies, passes ExecuTorch's lint, names nothing of this project, and does what it
says in the real runtime. (ExecuTorch's own op tests with the patches:
``tests/upstream/test_peer_suite_with_our_patches.py``.)

- ``copy-exclusion`` and ``channels-last``, the installed stock partitioner and preprocess patched, pass
  the gate's copy and channels-last cases as a candidate (``--partitioner``), as the workaround does: that
  is how the patches are held to the code they mirror, case by case, values and dim order.
- ``blob-lifetime`` needs an ExecuTorch checkout (``--executorch-source DIR`` or $EXECUTORCH_SOURCE): the
  backend is rebuilt from it with and without the patch, and the stock programs that read constants in
  place run by path with each. Without a checkout those tests skip, saying how to run them.
- ``llm-unquantized`` (ExecuTorch's LLM example, not the backend): its test passes with it and fails without;
  with ``symbolic-sizes`` the stock pipeline, as a model owner runs it with its defaults (dynamic shapes, a KV
  cache), exports uncompressed to one delegate and equals its reference.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from repro.harness.conformance import op_tests
from repro.harness.cpu import precision
from repro.harness.lowering import executorch_patches as patches
from repro.harness.models import catalogue
from tests.support.helpers import (
    ATTACHMENTS,
    END_TO_END,
    PROJECT,
    cpu_default_is_bf16,
    run_cli,
    skip_module_without_executorch_path,
)
from tests.support.release_behaviour import STAMPED_FROM, installed_openvino, stock_outcome, stock_use_after_free
from tests.support.workaround_expectations import CORRECTED

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
ALL_SERIES = (*patches.PYTHON_SERIES, *patches.RUNTIME_SERIES)
STOCK_PARTITIONER = "executorch.backends.openvino.partitioner:OpenvinoPartitioner"
# ExecuTorch's formatter settings (its pyproject.toml: [tool.usort], [tool.black]), and the flake8 checks
# its .flake8 selects, minus those it leaves to black.
FORMATTER_SETTINGS = """[tool.usort]
first_party_detection = false

[tool.black]
target-version = ["py38", "py39", "py310", "py311", "py312", "py313"]
"""
FLAKE8 = ["--select=B,C,E,F,P,W,B9", "--max-complexity=12",
          "--extend-ignore=E203,E501,W503,B904,B905,B906,B907,B950"]
BLACK_COLUMNS = 88
# ExecuTorch's .mypy.ini (mypy 1.14.1, its requirements-lintrunner.txt): its options, and the packages
# whose untyped modules it follows; lintrunner runs it with --explicit-package-bases from the checkout's root.
MYPY_SETTINGS = """[mypy]
allow_redefinition = True
warn_unused_configs = True
warn_redundant_casts = True
show_error_codes = True
show_column_numbers = True
disallow_untyped_decorators = True
follow_imports = normal
local_partial_types = True
enable_error_code = possibly-undefined
warn_unused_ignores = False
""" + "".join(f"\n[mypy-{module}]\nfollow_untyped_imports = True\n" for module in (
    *(f"executorch.{package}.*" for package in ("backends", "codegen", "devtools", "exir", "extension", "kernels",
                                                "profiler", "runtime", "test")),
    "functorch.*", "requests.*", "torchgen.*", "torchao.*")) + "".join(
    f"\n[mypy-{module}]\nignore_missing_imports = True\n" for module in (
        # ExecuTorch's own list, of what the wheel can reach: without ruamel's, a warm cache reports its missing
        # stubs at line 1 of every file (measured: the second run of this test failed so, the first passed).
        "docutils.*", "executorch.version", "pandas", "ruamel", "setuptools.*", "tomllib", "yaml", "zstd"))
# Words that would tie a patch to this project; a patch upstream must stand on its own.
OURS = re.compile(r"workaround|copysafe|repro[./]|catalogue|passthrough-gate|release_behaviour", re.IGNORECASE)


def commit_messages(name):
    """The lines of each commit message in series ``name`` (``git format-patch`` headers and body)."""
    return [line for patch in patches.patch_files(name)
            for line in patch.read_text().split("\n---\n", 1)[0].splitlines()]


def changed_files(name):
    """{path in ExecuTorch: added lines} of series ``name``."""
    files, current = {}, None
    for patch in patches.patch_files(name):
        for line in patch.read_text().splitlines():
            if line.startswith("+++ "):
                current = line.removeprefix("+++ b/")
                files.setdefault(current, [])
            elif line.startswith("+") and current and not line.startswith("+++"):
                files[current].append(line[1:])
    return files


@pytest.mark.parametrize("name", ALL_SERIES)
def test_series_python_files_apply_to_the_installed_backend(tmp_path, name):
    """The installed 1.5.1 backend's Python files are main's: every series' Python part applies to them."""
    root = patches.overlay(tmp_path, patches.patch_files(name), include="*.py")
    installed = patches.installed_folder("executorch.backends").parent
    for path in (path for path in changed_files(name) if path.endswith(".py")):
        patched, stock = root / "executorch" / path, installed / path
        assert patched.exists(), path
        assert not stock.exists() or patched.read_bytes() != stock.read_bytes(), f"{path} did not change"


@pytest.mark.parametrize("name", ALL_SERIES)
def test_series_applies_to_the_executorch_checkout(executorch_source, tmp_path, name):
    for tree in patches.PATCHED_TREES:
        shutil.copytree(executorch_source / tree, tmp_path / tree)
    patches.apply(patches.patch_files(name), tmp_path)


@pytest.mark.parametrize("name", ALL_SERIES)
def test_series_names_nothing_of_this_project_and_fits_black_columns(name):
    added = [(path, line) for path, lines in changed_files(name).items() for line in lines]
    assert changed_files(name), f"{name} changes nothing"
    assert not [line for line in commit_messages(name) if OURS.search(line)]
    assert not [(path, line) for path, line in added if OURS.search(line)]
    assert not [(path, line) for path, line in added if len(line) > BLACK_COLUMNS]


def flake8_findings(files, cwd):
    """{(file, code and message)}: line numbers left out, so that a patched file compares with its stock one."""
    result = run_cli("python", "-m", "flake8", *FLAKE8, *files, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return {(re.sub(r":\d+:\d+:", "", line.split(" ", 1)[0]), line.split(" ", 1)[1])
            for line in result.stdout.splitlines() if " " in line}


@pytest.mark.parametrize("name", patches.PYTHON_SERIES)
def test_patched_python_passes_executorch_lint(tmp_path, name):
    """ufmt (black 24.4.2 + usort) clean at ExecuTorch's settings, and no flake8 finding the stock files lack."""
    root = patches.overlay(tmp_path, patches.patch_files(name))
    stock = patches.installed_folder("executorch.backends").parent  # the installed executorch package folder
    files = [path for path in changed_files(name) if path.endswith(".py")]
    (root / "executorch" / "pyproject.toml").write_text(FORMATTER_SETTINGS)
    formatted = run_cli("python", "-m", "ufmt", "check", *files, cwd=root / "executorch")
    assert formatted.returncode == 0, formatted.stdout + formatted.stderr
    existing = [path for path in files if (stock / path).exists()]
    new = flake8_findings(files, root / "executorch") - flake8_findings(existing, stock)
    assert not new


MYPY_CHECKED = "backends/openvino/"  # of ExecuTorch's .lintrunner.toml MYPY include_patterns, what we change


def test_patched_python_passes_executorch_mypy():
    """Every series applied at once (the C++ ones: their op tests), the changed Python files checked as
    ExecuTorch's lintrunner does: those its MYPY ``include_patterns`` take, ``backends/openvino`` (not
    ``examples/models``; its stock backends/openvino is mypy-clean, so any finding is ours). The
    cache and the patched copy live in the environment, the copy made anew each run at the same path: mypy's
    cache is keyed on each module's path, and the copy reaches the rest of ExecuTorch through links, so a
    copy at a new path each run had every ExecuTorch module analysed again (92 s of 95 on an AVX2 host)."""
    every_patch = [patch for name in ALL_SERIES for patch in patches.patch_files(name)]
    folder = Path(sys.prefix) / "mypy-patched-executorch"
    shutil.rmtree(folder, ignore_errors=True)
    root = patches.overlay(folder, every_patch, include="*.py") / "executorch"
    files = sorted({path for name in ALL_SERIES for path in changed_files(name)
                    if path.endswith(".py") and path.startswith(MYPY_CHECKED)})
    (root / "mypy-settings.ini").write_text(MYPY_SETTINGS)
    result = run_cli("python", "-m", "mypy", "--config-file=mypy-settings.ini",
                     f"--cache-dir={Path(sys.prefix) / 'mypy-cache-executorch'}", "--explicit-package-bases",
                     *files, cwd=root, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]


LINTERS = "FLAKE8,UFMT,MYPY,CLANGFORMAT"  # of ExecuTorch's .lintrunner.toml, those that cover backends/openvino


def test_every_series_passes_executorch_lintrunner(executorch_source, tmp_path):
    """ExecuTorch's own lint, as its contributors run it: the checkout's .lintrunner.toml, every series applied
    and committed, ``lintrunner --take FLAKE8,UFMT,MYPY,CLANGFORMAT`` over what they change."""
    checkout = tmp_path / "executorch"
    checkout.mkdir()
    for name in (".lintrunner.toml", ".mypy.ini", ".flake8", ".clang-format", "pyproject.toml"):
        shutil.copy(executorch_source / name, checkout / name)
    for tree in patches.PATCHED_TREES:
        shutil.copytree(executorch_source / tree, checkout / tree)
    git = ["git", "-c", "user.name=gate", "-c", "user.email=gate@localhost"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "stock"]):
        subprocess.run([*git, *command], cwd=checkout, check=True, capture_output=True)
    patches.apply([patch for name in ALL_SERIES for patch in patches.patch_files(name)], checkout)
    for command in (["add", "-A"], ["commit", "-q", "-m", "patched"]):
        subprocess.run([*git, *command], cwd=checkout, check=True, capture_output=True)
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    result = run_cli("lintrunner", "--take", LINTERS, "--revision", "HEAD~1", cwd=checkout, env=env, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "No lint issues." in result.stdout, result.stdout[-3000:]


@pytest.mark.parametrize("name", patches.RUNTIME_SERIES)
def test_runtime_patch_passes_executorch_clang_format(executorch_source, tmp_path, name):
    """clang-format 18 (ExecuTorch's requirements-lintrunner.txt) with the checkout's own .clang-format."""
    style = executorch_source / ".clang-format"
    assert style.is_file(), f"{executorch_source} has no .clang-format"
    patches.patched_runtime(executorch_source, tmp_path, patches.patch_files(name))
    clang_format = Path(sys.executable).parent / "clang-format"
    result = run_cli(clang_format, f"--style=file:{style}", "--dry-run", "--Werror",
                     tmp_path / patches.RUNTIME / "OpenvinoBackend.cpp")
    assert result.returncode == 0, result.stderr[-3000:]


@pytest.fixture(scope="module")
def patched_backend(tmp_path_factory):
    """An overlay with both Python series applied (see ``repro.harness.lowering.executorch_patches``)."""
    folder = tmp_path_factory.mktemp("patched-backend")
    return patches.overlay(folder, patches.python_series())


def copy_and_channels_last_cases():
    """The catalogue cases of the copy and dim-order groups that the workaround is held to eager on."""
    return [case.name for group in ("copies", "dim order") for case in catalogue.GROUPS[group]
            if case.name in CORRECTED]


def test_upstream_partitioner_and_preprocess_pass_the_gates_copy_and_channels_last_cases(patched_backend):
    cases = [option for case in copy_and_channels_last_cases() for option in ("--case", case)]
    result = run_cli("python", "-m", "pytest", "-p", "no:cacheprovider", "-q", "-n", "0", "--tb=line",
                     "--partitioner", STOCK_PARTITIONER, "-m", "equals_eager", *cases, END_TO_END,
                     env=patches.with_search_paths(python_path=patched_backend), timeout=1200)
    output = result.stdout + result.stderr
    summary = output[output.find("candidate partitioner"):]
    assert re.search(r"copies +PASSED: \d+ passed, 0 failed", summary), output[-4000:]
    assert re.search(r"channels-last +PASSED: \d+ passed, 0 failed", summary), output[-4000:]


def by_path_runs(library_dir):
    """{case: by-path outcome} of the stock partitioner's programs that read constants in place, run with the
    backend in ``library_dir`` first on LD_LIBRARY_PATH."""
    cases = [argument for case in catalogue.CONSTANT_CASES for argument in ("--case", case.name)]
    result = run_cli("python", "-m", "repro.executorch_path", *cases, "--json",
                     env=patches.with_search_paths(library_path=library_dir), timeout=900)
    report = json.loads(result.stdout)
    return {case["case"]: case["runs"]["path"]["outcome"] for case in report["cases"]}


def test_runtime_patch_makes_stock_programs_correct_by_path(executorch_source, tmp_path):
    """With the patch, every stock program that reads a constant in place is correct by path; the unpatched
    rebuild crashes where the release table says the wheel's library does, which proves the child runs the
    library built here."""
    unpatched = patches.build_backend(executorch_source, tmp_path / "unpatched")
    patched = patches.build_backend(executorch_source, tmp_path / "patched",
                                    patches.patch_files(patches.BLOB_LIFETIME))
    with ThreadPoolExecutor(2) as both:
        without, with_patch = both.map(by_path_runs, (unpatched, patched))
    assert set(with_patch.values()) == {"correct"}, with_patch
    stock_bad = {case.name for case in catalogue.CONSTANT_CASES
                 if stock_outcome(case, "path")[0] == "crashed_or_wrong"}
    assert {case for case, outcome in without.items() if outcome != "correct"} == stock_bad, without
    assert bool(stock_bad) == stock_use_after_free()


# The copy cases whose only bug is the stale copy (not also a channels-last boundary, not a lowering failure).
STALE_COPY_CASES = [case.name for case in catalogue.GROUPS["copies"] if case.stock.outcome == "wrong"
                    and catalogue.PASS_THROUGH in case.stock.why and "contiguous" not in case.stock.why]


def copy_runs(library_dir):
    """{(case, load): outcome} of the stock partitioner's stale-copy programs, from bytes and by path, run with
    the backend in ``library_dir`` first on LD_LIBRARY_PATH."""
    cases = [argument for case in STALE_COPY_CASES for argument in ("--case", case)]
    result = run_cli("python", "-m", "repro.executorch_path", *cases, "--json",
                     env=patches.with_search_paths(library_path=library_dir), timeout=900)
    return {(case["case"], load): run["outcome"] for case in json.loads(result.stdout)["cases"]
            for load, run in case["runs"].items()}


def test_output_order_patch_makes_stock_copy_programs_correct_from_bytes_and_by_path(executorch_source, tmp_path):
    """Both backends keep the blob (``blob-lifetime``), so by-path loads compare the call order alone: without
    ``output-order`` every stale-copy program is wrong both ways, with it right, without a new export."""
    blob = patches.patch_files(patches.BLOB_LIFETIME)
    unpatched = patches.build_backend(executorch_source, tmp_path / "unpatched", blob)
    patched = patches.build_backend(executorch_source, tmp_path / "patched", blob + patches.patch_files(
        patches.OUTPUT_ORDER))
    with ThreadPoolExecutor(2) as both:
        without, with_patch = both.map(copy_runs, (unpatched, patched))
    assert len(with_patch) == 2 * len(STALE_COPY_CASES) >= 20, with_patch
    assert set(with_patch.values()) == {"correct"}, with_patch
    assert set(without.values()) == {"wrong"}, without


def test_each_runtime_series_adds_an_op_test_that_passes_with_it_and_fails_without(executorch_source, tmp_path):
    """ExecuTorch-style tests, run against the rebuilt runtime: output-order's fails without the patch on every
    release here; blob-lifetime's (a load by path) crashes or fails exactly where the wheel's library frees
    the blob that the release still reads; precision's fail without it where the CPU defaults to bf16;
    import-reason's (a blob stamped for another CPU logs why it does not import) wherever OpenVINO stamps."""
    runs = op_tests.runtime_with_and_without(executorch_source, tmp_path)
    stamped = installed_openvino() >= STAMPED_FROM  # before, every blob imports: import-reason's test skips
    assert {name: set(outcomes["with"].values()) for name, outcomes in runs.items()} == \
        {name: {"passed" if name != patches.IMPORT_REASON or stamped else "skipped"}
         for name in patches.RUNTIME_SERIES}, runs
    assert set(runs[patches.IMPORT_REASON]["without"].values()) == {"failed" if stamped else "skipped"}, runs
    assert set(runs[patches.OUTPUT_ORDER]["without"].values()) == {"failed"}, runs
    blob_without = set(runs[patches.BLOB_LIFETIME]["without"].values())
    expected = {op_tests.CRASHED, "failed"} if stock_use_after_free() else {"passed"}
    assert blob_without, runs
    assert blob_without <= expected, runs
    precision_without = set(runs[patches.PRECISION]["without"].values())
    assert precision_without == ({"failed"} if cpu_default_is_bf16() else {"passed"}), runs


def test_stale_copies_reproducer_is_right_with_the_output_order_runtime(executorch_source, tmp_path):
    """The ExecuTorch stale-copies report's reproducer, with the runtime rebuilt with ``output-order``: what
    the report pastes under its runtime fix (the stock run is in tests/gate/test_executorch_path.py)."""
    library = patches.build_backend(executorch_source, tmp_path, patches.patch_files(patches.OUTPUT_ORDER))
    result = run_cli("python", PROJECT / "repro" / "attachments" / "executorch_stale_copies.py",
                     env=patches.with_search_paths(library_path=library))
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert result.stdout.count("copy == x: True; sin == sin(x): True; x intact: True") == 2, result.stdout


def test_precision_reproducer_runs_at_f32_with_the_precision_runtime(executorch_source, tmp_path):
    """The ExecuTorch precision report's reproducer at the CPU's default, with the runtime rebuilt with
    ``precision``: the compile spec reaches the import and the matmul is f32-close to float64 (what the report
    pastes under its fix; the stock run is in tests/gate/test_executorch_path.py)."""
    if not cpu_default_is_bf16():
        pytest.skip("this CPU computes f32 by default: the reproducer cannot show the bug or its fix")
    library = patches.build_backend(executorch_source, tmp_path, patches.patch_files(patches.PRECISION))
    result = run_cli("python", PROJECT / "repro" / "attachments" / "executorch_precision.py",
                     env=patches.with_search_paths(library_path=library, base=precision.without_cap()))
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert float(result.stdout.split("max error against float64: ")[1].split()[0]) < 1e-4, result.stdout


def test_frees_blob_reports_rebuild_lines_run_as_printed(executorch_source, tmp_path):
    """The lines the frees-blob report prints under its patch, run by bash in a copy of the checkout with the
    patch applied and the reproducer copied in, this environment's python first on PATH: it exits 0."""
    from repro.reports import executorch_frees_blob as report

    checkout = tmp_path / "executorch"
    patches.patched_runtime(executorch_source, checkout, patches.patch_files(patches.BLOB_LIFETIME))
    shutil.copy(report.EXECUTORCH_REPRODUCER, checkout)
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    result = run_cli("bash", "-ec", "\n".join(report.rebuild_lines()), cwd=checkout, env=env, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    assert result.stdout.strip().endswith("OK: every run equals eager")


def test_runtime_patch_build_fails_in_one_line_without_a_compiler(executorch_source, tmp_path, monkeypatch):
    monkeypatch.setenv("CXX", str(tmp_path / "no-such-compiler"))
    with pytest.raises(patches.PatchFailed, match="no C\\+\\+ compiler"):
        patches.build_backend(executorch_source, tmp_path / "build")


def test_a_folder_that_is_not_an_executorch_checkout_is_a_usage_error(pytester, tmp_path):
    result = pytester.runpytest_inprocess("-p", "tests.plugins.executorch_source", "-p", "no:cacheprovider", "-q",
                                          "--executorch-source", str(tmp_path))
    assert result.ret == pytest.ExitCode.USAGE_ERROR, "\n".join(result.outlines + result.errlines)[-2000:]
    [line] = [line for line in result.errlines if line.startswith("ERROR:")]
    assert "is not an ExecuTorch checkout" in line


def test_without_a_checkout_the_runtime_patch_tests_skip_saying_how_to_run_them(pytester, monkeypatch):
    monkeypatch.delenv(patches.SOURCE_VARIABLE, raising=False)
    pytester.makepyfile("def test_build(executorch_source):\n    pass\n")
    result = pytester.runpytest_inprocess("-p", "tests.plugins.executorch_source", "-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(skipped=1)
    assert "--executorch-source DIR" in "\n".join(result.outlines)


def test_overlay_by_hand_prints_the_variable_to_set(tmp_path, capsys):
    patches.main(["overlay", str(tmp_path / "overlay"), "--series", patches.COPY_EXCLUSION])
    assert capsys.readouterr().out.strip() == f"PYTHONPATH={(tmp_path / 'overlay').resolve()}"
    assert (tmp_path / "overlay/executorch/backends/openvino/tests/ops/test_copy.py").exists()


@pytest.mark.parametrize(("arguments", "message"), [
    (["overlay", "{existing}"], "exists: give a new folder"),
    (["build", "{new}"], "give --source CHECKOUT or set EXECUTORCH_SOURCE"),
    (["build", "{new}", "--source", "{existing}"], "is not an ExecuTorch checkout"),
], ids=["existing_folder", "no_checkout", "not_a_checkout"])
def test_by_hand_usage_errors_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch, arguments, message):
    monkeypatch.delenv(patches.SOURCE_VARIABLE, raising=False)
    arguments = [part.format(existing=tmp_path, new=tmp_path / "new") for part in arguments]
    with pytest.raises(SystemExit) as exited:
        patches.main(arguments)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err.strip().splitlines()[-1]
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("benchmark", ["benchmarks.output_order_cost", "benchmarks.blob_memory"])
def test_runtime_patch_benchmarks_without_a_checkout_say_so_in_one_line_and_exit_2(benchmark):
    env = {key: value for key, value in os.environ.items() if key != patches.SOURCE_VARIABLE}
    result = run_cli("python", "-m", benchmark, env=env)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.strip().splitlines()[-1].endswith(
        f"error: give --executorch-source DIR or set {patches.SOURCE_VARIABLE}")


# What llm-unquantized adds to ExecuTorch's own tests (in backends/openvino/tests/quantizer: not an op test).
UNCOMPRESSED_LOWERING_TEST = ("backends/openvino/tests/quantizer/test_llm_compression.py::"
                              "TestWeightsOnlyQuantization::test_lowering_without_weight_compression")


@pytest.mark.parametrize(("applied", "passes"), [(slice(None), True), (slice(1, None), False)],
                         ids=["with the series", "its test alone"])
def test_uncompressed_llm_lowering_test_passes_with_the_series_and_fails_without(tmp_path, applied, passes):
    root = patches.overlay(tmp_path, patches.patch_files(patches.LLM_UNQUANTIZED)[applied])
    tests = root / "executorch" / "backends" / "openvino" / "tests" / "quantizer"  # imports its models by name
    result = run_cli("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", UNCOMPRESSED_LOWERING_TEST,
                     cwd=root / "executorch", env=patches.with_search_paths(python_path=os.pathsep.join(
                         [str(root), str(tests)])), timeout=600)
    assert (result.returncode == 0) == passes, result.stdout[-3000:]
    assert passes or "IndexError: list index out of range" in result.stdout, result.stdout[-3000:]


# What openvino-4wo-all-layers adds to ExecuTorch's own tests.
QUANTIZER_CONFIG_TEST = "backends/openvino/tests/quantizer/test_llm_quantizer_config.py"


@pytest.mark.parametrize(("applied", "passes"), [(slice(None), True), (slice(1, None), False)],
                         ids=["with the series", "its test alone"])
def test_the_llm_quantizer_config_test_passes_with_the_4wo_series_and_fails_without(tmp_path, applied, passes):
    root = patches.overlay(tmp_path, patches.patch_files(patches.OPENVINO_4WO_ALL_LAYERS)[applied])
    result = run_cli("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", QUANTIZER_CONFIG_TEST,
                     cwd=root / "executorch", env=patches.with_search_paths(python_path=str(root)), timeout=600)
    assert (result.returncode == 0) == passes, result.stdout[-3000:]
    assert passes or "1 failed, 1 passed" in result.stdout, result.stdout[-3000:]


# What lfm2-conversation-start adds to ExecuTorch's own tests.
SHORT_CONV_TEST = "examples/models/lfm2/test_short_conv.py"


@pytest.mark.parametrize(("applied", "passes"), [(slice(None), True), (slice(1, None), False)],
                         ids=["with the series", "its test alone"])
def test_the_short_conv_state_test_passes_with_the_lfm2_series_and_fails_without(tmp_path, applied, passes):
    """Without the fix, a sequence at position 0 reads the last one's state (the reset test fails); the state
    past position 0 is read either way."""
    root = patches.overlay(tmp_path, patches.patch_files(patches.LFM2_CONVERSATION_START)[applied])
    result = run_cli("python", "-m", "pytest", "-q", "-p", "no:cacheprovider", SHORT_CONV_TEST,
                     cwd=root / "executorch", env=patches.with_search_paths(python_path=str(root)), timeout=600)
    assert (result.returncode == 0) == passes, result.stdout[-3000:]
    assert passes or "1 failed, 1 passed" in result.stdout, result.stdout[-3000:]


@pytest.mark.parametrize(("applied", "code"), [(False, 1), (True, 0)], ids=["as shipped", "with the series"])
def test_the_lfm2_reset_reproducer_finds_the_stale_state_and_not_with_the_series(tmp_path, applied, code):
    """The reproducer as a maintainer runs it (``export_llm`` in a child, the runner's calls made by hand):
    exit 1 on the wheel as shipped, 0 with ``lfm2-conversation-start`` applied to its files."""
    environment = patches.with_search_paths(python_path=patches.overlay(
        tmp_path, patches.patch_files(patches.LFM2_CONVERSATION_START))) if applied else None
    result = run_cli("python", ATTACHMENTS / "executorch_lfm2_reset.py", env=environment, cwd=tmp_path,
                     timeout=600)
    assert result.returncode == code, result.stdout[-3000:] + result.stderr[-3000:]


def test_the_4wo_layers_reproducer_finds_the_output_layer_at_4_bits_with_the_series(tmp_path):
    """The reproducer as a maintainer runs it (``export_llm`` in a child, the program's blob opened), with
    ``openvino-4wo-all-layers`` applied to the wheel's files: every matmul at 4 bits, the output layer too.
    Stock it leaves the output layer at 8 bits: the matrix keeps that run for the report, and the series' own
    test above fails without it (when stock passes it, upstream changed: retire the report and the series)."""
    root = patches.overlay(tmp_path, patches.patch_files(patches.OPENVINO_4WO_ALL_LAYERS))
    result = run_cli("python", ATTACHMENTS / "executorch_openvino_4wo_layers.py",
                     env=patches.with_search_paths(python_path=str(root)), timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    assert "the output layer (256 -> 1024): i4" in result.stdout, result.stdout


def test_the_llm_pipelines_defaults_export_uncompressed_with_the_series_and_equal_their_reference(tmp_path,
                                                                                                 monkeypatch):
    """The stock pipeline, as a model owner runs it (``repro/harness/llm/pipeline.py``: ``export_llm``'s defaults,
    dynamic shapes, with the Llama example's KV cache, no compression), with ``llm-unquantized`` and
    ``symbolic-sizes`` applied: it exports to one delegate with nothing outside, and a prefill and decode steps
    equal the reference from bytes (by path the stock blob is freed: another series). Without them it fails
    to export (IndexError; then 'SymInt' object has no attribute 'type')."""
    from repro.harness.llm.pipeline import LlmCase
    from repro.harness.llm.runs import run_llm_case
    from repro.harness.runtime.program_runner import ProgramRunner

    root = patches.overlay(tmp_path / "overlay", patches.python_series([patches.LLM_UNQUANTIZED,
                                                                        patches.SYMBOLIC_SIZES]))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    with ProgramRunner("bytes", environment=precision.F32_ISA_CAP) as runner:
        record = run_llm_case(LlmCase("llama3_2", True, True, None), "stock", {"bytes": runner}, tmp_path)
    assert record.export.error is None, record.export.error
    assert (record.export.delegates, record.export.nodes_outside) == (1, 0), record.as_json()
    assert record.equal, record.as_json()
