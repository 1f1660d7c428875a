"""Running the reproducers in one environment per OpenVINO release (what ``repro/matrix.py`` does): the
runner, which makes environments and runs children; the report builders in ``repro/reports/`` render its rows.

Each release gets its own environment, created on demand under ``.matrix/envs`` (git-ignored)
and reused by the next run: openvino and numpy (numpy<2 before 2024.2) with uv when uv is on
the PATH, otherwise a plain venv that this interpreter's pip installs into; with ``--executorch``, releases
from 2024.4 on get the ExecuTorch stack too (the project's ``executorch`` dependency group, always with pip:
uv would fetch a multi-GB CUDA torch). One release failing — install, crash, timeout, exit 125 — becomes a row
with that status; it never stops the run. The C and C++ attachments, once built in an environment, are kept
there and only run by the next run over it (``run_built``).
"""

import concurrent.futures
import hashlib
import json
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from packaging.version import Version

from repro import attachment_commands as commands
from repro.dependencies import requirements
from repro.harness.cli import ExitStatus
from repro.harness.cpu import precision
from repro.harness.lowering import executorch_patches as patches
from repro.releases import EXECUTORCH_INSTALLS_FROM, HEADLINE_EXECUTORCH, resolve
from repro.reports import markdown as md
from repro.reports import matrix_report
from repro.reports.matrix_row import CommandRun, MatrixRow, RowStatus, empty_row

REPRO = Path(__file__).resolve().parent
PROJECT = REPRO.parent


class InstallFailed(RuntimeError):
    pass


def run_logged(command: Sequence[str | Path], timeout: float) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        words = [Path(command[0]).name, *map(str, command[1:3])]  # "uv pip", "python3 -m pip", "python3 -m venv"
        raise InstallFailed(f"{' '.join(words if words[1] == '-m' else words[:2])} failed: " + " / ".join(tail))


def environment_name(release: str, executorch: str | None) -> str:
    if not executorch:
        return f"ov-{release}"
    return f"ov-{release}-executorch" + ("" if executorch == HEADLINE_EXECUTORCH else f"-{executorch}")


def prepare_environment(cache: Path, release: str, executorch: str | None, timeout: float) -> tuple[Path, str]:
    """The env's python, creating the env unless an identical one is cached (``executorch``: the ExecuTorch
    release to install with the stack, or None)."""
    wanted = requirements(release, executorch)
    folder = cache / environment_name(release, executorch)
    python, marker = folder / "bin" / "python", folder / "matrix-requirements.txt"
    if marker.exists() and marker.read_text() == "\n".join(wanted):
        return python, "cached"
    shutil.rmtree(folder, ignore_errors=True)
    uv = shutil.which("uv") if not executorch else None
    try:
        if uv:
            run_logged([uv, "venv", "--quiet", "--python", sys.executable, str(folder)], timeout)
            run_logged([uv, "pip", "install", "--quiet", "--python", str(python), *wanted], timeout)
        else:
            # pip of this interpreter installs into the env (``--python``): an env of its own pip only where
            # torch's collect_env, run in the ExecuTorch environments, lists the packages with it (a plain env
            # made without pip takes 0.03 s instead of 2.6 s, and the matrix makes one per release).
            run_logged([sys.executable, "-m", "venv", *([] if executorch else ["--without-pip"]), str(folder)],
                       timeout)
            run_logged([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", *wanted],
                       timeout)
    except (InstallFailed, subprocess.TimeoutExpired) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise InstallFailed(str(error)) from error
    marker.write_text("\n".join(wanted))
    return python, "uv" if uv else "pip"


STATUS_BY_EXIT = {ExitStatus.CORRECT: RowStatus.OK, ExitStatus.BUG: RowStatus.BUG,
                  ExitStatus.UNTESTABLE: RowStatus.UNTESTABLE}


def run_script(python: str | Path, script: str | Path,
               timeout: float) -> tuple[RowStatus, str, dict[str, Any] | None]:
    """(status, detail, parsed JSON or None) for one reproducer (a path under repro/) run in an isolated
    interpreter."""
    try:
        result = subprocess.run([str(python), str(REPRO / script), "--json"], capture_output=True, text=True,
                                timeout=timeout, check=False, cwd=PROJECT)
    except subprocess.TimeoutExpired:
        return RowStatus.TIMEOUT, f"{script} ran longer than {timeout} s", None
    if result.returncode < 0:
        name = signal.Signals(-result.returncode).name
        return RowStatus.CRASHED, f"{script} was killed by {name}: {result.stderr.strip()[-300:]}", None
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        why = f"{script} exited {result.returncode} without JSON: {result.stderr.strip()[-300:]}"
        return RowStatus.ERROR, why, None
    status = STATUS_BY_EXIT.get(result.returncode, RowStatus.ERROR)
    return status, "" if status in (RowStatus.OK, RowStatus.BUG) else report.get("verdict", ""), report


def run_verbatim(command: Sequence[str | Path], timeout: float,
                 env: Mapping[str, str] | None = None) -> CommandRun:
    """Exit code and output, verbatim, of ``command`` run from the project folder."""
    try:
        result = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=timeout,
                                check=False, cwd=PROJECT, env=env)
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "output": f"ran longer than {timeout} s"}
    return {"exit_code": result.returncode, "output": (result.stdout + result.stderr).strip(),
            "stdout": result.stdout.strip()}


def run_attachment(python: str | Path, name: str, timeout: float,
                   env: Mapping[str, str] | None = None) -> CommandRun:
    """An attachment as a maintainer runs it, with no arguments: "output" is all it printed, "stdout" what it
    printed itself (its parent's stderr holds the third-party import messages of torch and ExecuTorch)."""
    return run_verbatim([python, md.attachment(name)], timeout, env)


def run_built(build: Callable[[str], str], python: str | Path, name: str, timeout: float) -> CommandRun:
    """``commands.run`` of an attachment's build-and-run lines (``build(name)``), the program kept in the release's
    environment (``<env>/builds/<digest of the lines and the source>``): the next run over that environment only
    runs it, since the same source built by the same line against the same wheel is the same program."""
    lines = build(name)
    digest = hashlib.sha256((lines + md.attachment(name).read_text()).encode()).hexdigest()[:16]
    folder = Path(python).parent.parent / "builds" / digest
    if (folder / Path(name).stem).exists():
        return commands.run(commands.run_line(name), python, timeout=timeout, folder=folder)
    return commands.run(lines, python, [name], timeout, folder=folder)


def run_module(python: str | Path, module: str, timeout: float, *arguments: str) -> CommandRun:
    return run_verbatim([python, "-m", module, *arguments], timeout)


def executorch_package(python: str | Path) -> Path | None:
    """The executorch package folder of the environment of ``python``."""
    result = subprocess.run([str(python), "-c", "import executorch; print(list(executorch.__path__)[0])"],
                            capture_output=True, text=True, check=False)
    return Path(result.stdout.strip()) if result.returncode == 0 else None


def run_with_patched_runtime(python: str | Path, source: Path, series_name: str, attachment: str,
                             timeout: float) -> CommandRun:
    """The ExecuTorch reproducer ``attachment`` with the backend rebuilt from ``source`` with the C++ series
    ``series_name``, against this environment's executorch wheel
    (``repro.harness.lowering.executorch_patches``)."""
    wheel = executorch_package(python)
    if wheel is None:
        return {"exit_code": None, "output": "executorch is not importable in this environment"}
    with tempfile.TemporaryDirectory() as folder:
        try:
            patches.build_backend(source, folder, patches.patch_files(series_name), wheel=wheel)
        except patches.PatchFailed as error:
            return {"exit_code": None, "output": str(error)}
        # At the CPU's default precision (a caller's f32 cap taken away), as a user runs the reproducers.
        return run_attachment(python, attachment, timeout,
                              env=patches.with_search_paths(library_path=folder, base=precision.without_cap()))


def run_with_python_series(python: str | Path, series_names: Sequence[str], attachment: str,
                           timeout: float) -> CommandRun:
    """The ExecuTorch reproducer ``attachment`` with the Python series ``series_names`` applied to a copy of this
    environment's backend and LLM example (``python -m repro.harness.lowering.executorch_patches overlay``, run by
    ``python``: the copy is of its own wheel), first on ``PYTHONPATH``."""
    with tempfile.TemporaryDirectory() as folder:
        overlay = Path(folder) / "overlay"
        series = [argument for name in series_names for argument in ("--series", name)]
        made = run_module(python, "repro.harness.lowering.executorch_patches", timeout, "overlay", str(overlay),
                          *series)
        if made["exit_code"] != 0:
            return {"exit_code": None, "output": made["output"]}
        return run_attachment(python, attachment, timeout, env=patches.with_search_paths(python_path=overlay))


def run_patch_tests(python: str | Path, timeout: float) -> dict[str, Any] | None:
    """{series: {"with": ..., "without": ...}} of the op tests our Python patches add
    (``python -m repro.harness.conformance.op_tests`` in this environment), or None when it could not run."""
    run = run_module(python, "repro.harness.conformance.op_tests", timeout)
    try:
        return json.loads(run["stdout"])["series"] if run["exit_code"] == 0 else None
    except (KeyError, ValueError):
        return None


EXECUTORCH_RUNS = ("executorch", "executorch_by_path", "executorch_channels_last", "executorch_empty_constants",
                   "executorch_precision", "executorch_semantics", "executorch_stale_copies",
                   "executorch_runtime_import", "pytorch_cia_materialization", "executorch_portable_kernels",
                   "executorch_cpu_stamp", "executorch_llm_pipeline", "executorch_openvino_4wo_layers")
# With --executorch-source: {row field: (C++ series, the reproducer run with the backend rebuilt with it)}.
PATCHED_RUNTIME_RUNS = {"executorch_by_path_patched": (patches.BLOB_LIFETIME, "executorch_frees_blob.py"),
                        "executorch_stale_copies_patched": (patches.OUTPUT_ORDER, "executorch_stale_copies.py"),
                        "executorch_precision_patched": (patches.PRECISION, "executorch_precision.py")}
IMPORT_PROGRAM, OVERLOADS_PROGRAM = "openvino_import_lifetime.c", "openvino_import_overloads.cpp"
CONSTANT_ABS, CONSTANT_ABS_PROGRAM = "openvino_constant_abs.py", "openvino_constant_abs.cpp"
CPU_SEMANTICS = "openvino_cpu_semantics.py"
IMPORT_PRECISION = "openvino_import_precision.py"  # run at the CPU's default: the gate's f32 cap taken away
CPU_STAMP, CPU_STAMP_PROGRAM = "openvino_cpu_stamp.py", "openvino_cpu_stamp.c"
STATE_CACHE_UPDATE = "openvino_state_cache_update.py"
COMPRESSED_MATMUL = "openvino_compressed_matmul.py"
LLM_PIPELINE = "executorch_llm_pipeline.py"
OPENVINO_4WO_LAYERS = "executorch_openvino_4wo_layers.py"
# {row field: (Python series, the reproducer run with them applied to a copy of the wheel's files)}: no checkout.
PATCHED_PYTHON_RUNS = {"executorch_llm_pipeline_patched": ((patches.LLM_UNQUANTIZED, patches.SYMBOLIC_SIZES),
                                                           LLM_PIPELINE),
                       "executorch_openvino_4wo_layers_patched": ((patches.OPENVINO_4WO_ALL_LAYERS,),
                                                                  OPENVINO_4WO_LAYERS)}


def executorch_runs(python: str | Path, timeout: float) -> dict[str, Any]:
    """The ExecuTorch path's report and the ExecuTorch reports' reproducers' output (the cost reports' PyTorch and
    ExecuTorch ones among them), in one environment."""
    status, detail, report = run_script(python, "executorch_path.py", timeout)
    return {"executorch": report if report is not None else {"verdict": f"{status}: {detail}"},
            "executorch_by_path": run_attachment(python, "executorch_frees_blob.py", timeout),
            "executorch_channels_last": run_attachment(python, "executorch_channels_last.py", timeout),
            "executorch_empty_constants": run_attachment(python, "executorch_empty_constants.py", timeout),
            # At the CPU's default precision, as a user runs it: the bug is what that default does.
            "executorch_precision": run_attachment(python, "executorch_precision.py", timeout,
                                                   env=precision.without_cap()),
            "executorch_semantics": run_attachment(python, "executorch_semantics.py", timeout),
            "executorch_stale_copies": run_attachment(python, "executorch_stale_copies.py", timeout),
            "executorch_runtime_import": run_attachment(python, "executorch_runtime_import.py", timeout),
            "pytorch_cia_materialization": run_attachment(python, "pytorch_cia_materialization.py", timeout),
            "executorch_portable_kernels": run_attachment(python, "executorch_portable_kernels.py", timeout),
            "executorch_cpu_stamp": run_attachment(python, "executorch_cpu_stamp.py", timeout),
            "executorch_llm_pipeline": run_attachment(python, LLM_PIPELINE, timeout),
            "executorch_openvino_4wo_layers": run_attachment(python, OPENVINO_4WO_LAYERS, timeout)}


def other_executorch_runs(cache: Path, release: str, executorch: str, timeout: float) -> dict[str, Any]:
    """``executorch_runs`` with another ExecuTorch release (its own environment), or why it could not run."""
    try:
        python, _ = prepare_environment(cache, release, executorch, timeout)
    except InstallFailed as error:
        return {"install_failed": str(error)}
    return executorch_runs(python, timeout)


def matrix_row(requested: str, release: str, *, cache: Path, executorch_versions: Sequence[str],
               timeout: float, progress: Callable[[str, str], None],
               executorch_source: Path | None = None, timed: bool = True) -> MatrixRow:
    """One OpenVINO release: the plain parts, and with ``executorch_versions`` (newest last) the ExecuTorch
    parts with each of them; the newest fills the row's ExecuTorch fields (and the patch runs), every one
    its entry in ``executorch_releases``. ``timed=False`` (a release run only to narrow a boundary) leaves out
    the timed cost reproducers, which no boundary is bisected on (``release_boundaries.TIMED``)."""
    row = empty_row(requested, release)
    started = time.monotonic()
    executorch = executorch_versions[-1] if executorch_versions and Version(release) >= EXECUTORCH_INSTALLS_FROM \
        else None
    progress(release, "installing" if not executorch else f"installing with executorch {executorch}")
    try:
        python, how = prepare_environment(cache, release, executorch, timeout)
    except InstallFailed as error:
        row.update(status=RowStatus.INSTALL_FAILED, detail=str(error),
                   seconds=round(time.monotonic() - started, 1))
        return row
    progress(release, f"running the plain reproducer (environment: {how})")
    row["status"], row["detail"], row["plain"] = run_script(python, "plain_openvino.py", timeout)
    c_api_skipped = any(s["part"] == "c_api" for s in (row["plain"] or {}).get("skipped", []))
    row["detail"] = row["detail"] or ("C API not run: this wheel ships no libopenvino_c" if c_api_skipped else "")
    progress(release, "running the report's snippet")
    row["snippet"] = run_attachment(python, "openvino_stale_copies.py", timeout)
    progress(release, "building and running the import-lifetime programs")
    row["import_lifetime"] = run_built(commands.c_build, python, IMPORT_PROGRAM, timeout)
    row["import_overloads"] = run_built(commands.cpp_build, python, OVERLOADS_PROGRAM, timeout)
    row["import_symbols"] = commands.run(commands.IMPORT_SYMBOLS, python, timeout=timeout)
    progress(release, "running the semantics reproducers (Python, and the C++ twin of the Abs one)")
    row["constant_abs"] = run_attachment(python, CONSTANT_ABS, timeout)
    row["constant_abs_cpp"] = run_built(commands.cpp_build, python, CONSTANT_ABS_PROGRAM, timeout)
    row["cpu_semantics"] = run_attachment(python, CPU_SEMANTICS, timeout)
    row["import_precision"] = run_attachment(python, IMPORT_PRECISION, timeout, env=precision.without_cap())
    row["cpu_stamp"] = run_attachment(python, CPU_STAMP, timeout)
    row["cpu_stamp_c"] = run_built(commands.c_build, python, CPU_STAMP_PROGRAM, timeout)
    if timed:
        progress(release, "timing a KV cache updated in an OpenVINO state")
        row["state_cache_update"] = run_attachment(python, STATE_CACHE_UPDATE, timeout)
        progress(release, "timing a matmul on 4-bit and 8-bit compressed weights")
        row["compressed_matmul"] = run_attachment(python, COMPRESSED_MATMUL, timeout)
    if executorch:
        progress(release, f"running the ExecuTorch path and reproducers (executorch {executorch})")
        row.update(executorch_runs(python, timeout))
        row["executorch_releases"] = {executorch: {key: row[key] for key in EXECUTORCH_RUNS}}
        for other in executorch_versions[:-1]:
            progress(release, f"installing executorch {other} and running the ExecuTorch path with it")
            row["executorch_releases"][other] = other_executorch_runs(cache, release, other, timeout)
        row["executorch_environment"] = run_module(python, "torch.utils.collect_env", timeout)["output"]
        progress(release, "running ExecuTorch's op tests with and without our patches")
        row["executorch_patch_tests"] = run_patch_tests(python, timeout)
        progress(release, "running the LLM pipeline reproducer with our Python series")
        for field, (series_names, attachment) in PATCHED_PYTHON_RUNS.items():
            row[field] = run_with_python_series(python, series_names, attachment, timeout)
        if executorch_source:
            progress(release, "running the frees-blob, stale-copies and precision reproducers with the patched "
                              "backends")
            for field, (series_name, attachment) in PATCHED_RUNTIME_RUNS.items():
                row[field] = run_with_patched_runtime(python, executorch_source, series_name, attachment, timeout)
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


def run_matrix(requested: Sequence[str], available: Sequence[str], *, cache: Path,
               executorch_versions: Sequence[str], jobs: int, timeout: float,
               executorch_source: Path | None = None, timed: bool = True) -> list[MatrixRow]:
    lock, done = threading.Lock(), [0]

    def progress(release, step):
        with lock:
            print(f"[{done[0]:>2}/{len(requested)} done] {release}: {step}", file=sys.stderr, flush=True)

    def job(item):
        row = matrix_row(item, resolve(item, available), cache=cache, executorch_versions=executorch_versions,
                         timeout=timeout, progress=progress, executorch_source=executorch_source, timed=timed)
        with lock:
            done[0] += 1
        progress(row["release"], f"{matrix_report.STATUS_MEANING[row['status']]} ({row['seconds']} s)")
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(job, requested))
