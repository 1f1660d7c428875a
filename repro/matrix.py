"""Run the reproducers over many OpenVINO releases and write the release table and report.

Each release gets its own environment, created on demand under ``.matrix/envs`` (git-ignored)
and reused by the next run: openvino and numpy (numpy<2 before 2024.2) with uv when uv is on
the PATH, plain venv + pip otherwise; with ``--executorch``, releases from 2024.4 on get the
ExecuTorch stack too (the project's ``executorch`` dependency group, always with pip: uv would
fetch a multi-GB CUDA torch). One release failing — install, crash, timeout, exit 125 —
becomes a row with that status; it never stops the run.

Usage::

    python repro/matrix.py [--versions 2024.0.0,2026.4] [--executorch] [-j 2]
                           [--out out/matrix] [--reports out/reports]

``--versions`` takes releases (2024.0.0) or series (2025.4: its newest patch on the index);
default: every release on the index from 2023.0.0 on. Each release runs ``plain_openvino.py``
(Python, C and, where the wheel ships headers and a compiler exists, C++), the minimal snippet the
report carries (``stale_copies_minimal.py``, its output kept verbatim) and ``import_lifetime.py``
(and, with ``--executorch``, ``executorch_path.py``). Writes ``matrix.json`` and ``matrix.md`` to
``--out``, and with ``--reports`` the three upstream issue bodies (``repro/upstream_reports.py``).
With ``--reports`` the matrix first completes the boundaries: it also runs the oldest release on
the index and bisects every symptom's change between two measured releases
(``repro/release_boundaries.py``), so the reports name each first bad release whatever subset was
asked for. Exit status: 0 when the table was written, 2 for a usage error.
"""

import argparse
import concurrent.futures
import functools
import json
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import tomllib
from datetime import UTC, datetime
from pathlib import Path

from packaging.version import InvalidVersion, Version

if __package__ in (None, ""):  # run as a script: make the project's packages importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from repro import cli, matrix_report, release_boundaries, stale_copies_report, upstream_reports

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
OLDEST = Version("2023.0.0")
NUMPY_2_FROM = Version("2024.2.0")  # older wheels fail to import with numpy 2
EXECUTORCH_FROM = Version("2024.4.0")  # 2024.2/2024.3 declare numpy<2; executorch 1.5.1 needs numpy>=2
# Used when the index cannot be asked: every release on PyPI from 2023.0.0 on, Nov 2026.
BUILTIN_RELEASES = [
    "2023.0.0", "2023.0.1", "2023.0.2", "2023.1.0", "2023.2.0", "2023.3.0", "2024.0.0", "2024.1.0", "2024.2.0",
    "2024.3.0", "2024.4.0", "2024.5.0", "2024.6.0", "2025.0.0", "2025.1.0", "2025.2.0", "2025.3.0", "2025.4.0",
    "2025.4.1", "2026.0.0", "2026.1.0", "2026.2.0", "2026.2.1", "2026.3.0", "2026.3.1", "2026.4.0", "2026.4.1",
]
RELEASE_PATTERN = re.compile(r"^\d{4}\.\d+(\.\d+)?$")


def release_list(text):
    """argparse type: '2024.0.0,2026.4' -> ['2024.0.0', '2026.4']; anything else is a usage error."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in items if not RELEASE_PATTERN.match(item)]
    if not items or bad:
        raise argparse.ArgumentTypeError(f"not a release like 2024.0.0 or a series like 2025.4: {bad or text!r}")
    return items


def discover_releases():
    """(releases on the index from 2023.0.0 on, a sentence saying where the list came from)."""
    try:
        result = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "openvino"],
                                capture_output=True, text=True, timeout=120, check=False)
        answer = next((x for x in result.stdout.splitlines() if x.startswith("Available versions:")), None)
        reason = (result.stderr.strip().splitlines() or ["no answer"])[-1]
    except (subprocess.TimeoutExpired, OSError) as error:
        answer, reason = None, str(error)
    if answer is None:
        return BUILTIN_RELEASES, (f"The package index could not be asked ({reason}); using the built-in list of "
                                  f"{len(BUILTIN_RELEASES)} releases.")
    found = []
    for item in answer.split(":", 1)[1].split(","):
        try:
            version = Version(item.strip())
        except InvalidVersion:
            continue
        if version >= OLDEST and not version.is_prerelease and not version.is_devrelease:
            found.append(str(version))
    found.sort(key=Version)
    return found, f"Releases from the package index: {len(found)} from {OLDEST} on."


def resolve(requested, available):
    """A requested release or series -> the release to install, or None when the index lacks it."""
    if requested.count(".") == 2:
        return requested if requested in available else None
    series = [r for r in available if r.startswith(requested + ".")]
    return max(series, key=Version) if series else None


def executorch_requirements():
    with (PROJECT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["dependency-groups"]["executorch"]


def requirements(release, with_executorch):
    numpy = "numpy" if Version(release) >= NUMPY_2_FROM else "numpy<2"
    extra = executorch_requirements() if with_executorch else []
    return [f"openvino=={release}", numpy, *extra]


class InstallFailed(RuntimeError):
    pass


def run_logged(command, timeout):
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if result.returncode != 0:
        tail = (result.stderr or result.stdout).strip().splitlines()[-3:]
        raise InstallFailed(f"{Path(command[0]).name} {command[1]} failed: " + " / ".join(tail))


def prepare_environment(cache, release, with_executorch, timeout):
    """The env's python, creating the env unless an identical one is cached."""
    wanted = requirements(release, with_executorch)
    folder = cache / (f"ov-{release}" + ("-executorch" if with_executorch else ""))
    python, marker = folder / "bin" / "python", folder / "matrix-requirements.txt"
    if marker.exists() and marker.read_text() == "\n".join(wanted):
        return python, "cached"
    shutil.rmtree(folder, ignore_errors=True)
    uv = shutil.which("uv") if not with_executorch else None
    try:
        if uv:
            run_logged([uv, "venv", "--quiet", "--python", sys.executable, str(folder)], timeout)
            run_logged([uv, "pip", "install", "--quiet", "--python", str(python), *wanted], timeout)
        else:
            run_logged([sys.executable, "-m", "venv", str(folder)], timeout)
            run_logged([str(python), "-m", "pip", "install", "--quiet", *wanted], timeout)
    except (InstallFailed, subprocess.TimeoutExpired) as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise InstallFailed(str(error)) from error
    marker.write_text("\n".join(wanted))
    return python, "uv" if uv else "pip"


STATUS_BY_EXIT = {0: "ok", 1: "bug", 125: "untestable"}


def run_script(python, script, timeout):
    """(status, detail, parsed JSON or None) for one reproducer run in an isolated interpreter."""
    try:
        result = subprocess.run([str(python), str(HERE / script), "--json"], capture_output=True, text=True,
                                timeout=timeout, check=False, cwd=PROJECT)
    except subprocess.TimeoutExpired:
        return "timeout", f"{script} ran longer than {timeout} s", None
    if result.returncode < 0:
        name = signal.Signals(-result.returncode).name
        return "crashed", f"{script} was killed by {name}: {result.stderr.strip()[-300:]}", None
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError:
        return "error", f"{script} exited {result.returncode} without JSON: {result.stderr.strip()[-300:]}", None
    status = STATUS_BY_EXIT.get(result.returncode, "error")
    return status, "" if status in ("ok", "bug") else report.get("verdict", ""), report


def run_snippet(python, timeout):
    """The report's minimal snippet as a maintainer runs it: its exit code and output, verbatim."""
    try:
        result = subprocess.run([str(python), str(stale_copies_report.MINIMAL_REPRODUCER)],
                                capture_output=True, text=True, timeout=timeout, check=False, cwd=PROJECT)
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "output": f"ran longer than {timeout} s"}
    return {"exit_code": result.returncode, "output": (result.stdout + result.stderr).strip()}


def matrix_row(requested, release, *, cache, with_executorch, timeout, progress):
    row = {"requested": requested, "release": release, "status": None, "detail": "", "seconds": None,
           "plain": None, "snippet": None, "import_lifetime": None, "executorch": None}
    started = time.monotonic()
    executorch = with_executorch and Version(release) >= EXECUTORCH_FROM
    progress(release, "installing" if not executorch else "installing with the ExecuTorch stack")
    try:
        python, how = prepare_environment(cache, release, executorch, timeout)
    except InstallFailed as error:
        row.update(status="install_failed", detail=str(error), seconds=round(time.monotonic() - started, 1))
        return row
    progress(release, f"running the plain reproducer (environment: {how})")
    row["status"], row["detail"], row["plain"] = run_script(python, "plain_openvino.py", timeout)
    c_api_skipped = any(s["part"] == "c_api" for s in (row["plain"] or {}).get("skipped", []))
    row["detail"] = row["detail"] or ("C API not run: this wheel ships no libopenvino_c" if c_api_skipped else "")
    progress(release, "running the report's snippet")
    row["snippet"] = run_snippet(python, timeout)
    progress(release, "running the import-lifetime reproducer")
    status, detail, row["import_lifetime"] = run_script(python, "import_lifetime.py", timeout)
    if status not in ("ok", "bug", "untestable"):
        row["detail"] = "; ".join(filter(None, [row["detail"], f"import_lifetime.py {status}: {detail}"]))
    if executorch:
        progress(release, "running the ExecuTorch path")
        status, detail, row["executorch"] = run_script(python, "executorch_path.py", timeout)
        if row["executorch"] is None:
            row["executorch"] = {"verdict": f"{status}: {detail}"}
    row["seconds"] = round(time.monotonic() - started, 1)
    return row


def run_matrix(requested, available, *, cache, with_executorch, jobs, timeout):
    lock, done = threading.Lock(), [0]

    def progress(release, step):
        with lock:
            print(f"[{done[0]:>2}/{len(requested)} done] {release}: {step}", file=sys.stderr, flush=True)

    def job(item):
        row = matrix_row(item, resolve(item, available), cache=cache, with_executorch=with_executorch,
                         timeout=timeout, progress=progress)
        with lock:
            done[0] += 1
        progress(row["release"], f"{matrix_report.STATUS_MEANING[row['status']]} ({row['seconds']} s)")
        return row

    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(job, requested))


def main(argv=None):
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 the table was written, 2 usage error "
                        "(checked before anything is installed or written)")
    parser.add_argument("--versions", type=release_list, help="comma-separated releases or series")
    parser.add_argument("--executorch", action="store_true", help="also run the ExecuTorch path (>= 2024.4)")
    parser.add_argument("-j", "--jobs", type=cli.positive_int, default=2, help="releases prepared and run at once")
    parser.add_argument("--out", type=Path, default=PROJECT / "out" / "matrix",
                        help="folder for matrix.json and matrix.md (default: out/matrix)")
    parser.add_argument("--reports", type=Path, help="write the three upstream issue bodies into this folder")
    parser.add_argument("--cache", type=Path, default=PROJECT / ".matrix" / "envs",
                        help="folder for the per-release environments, reused later (default: .matrix/envs)")
    parser.add_argument("--timeout", type=cli.positive_int, default=900,
                        help="seconds per install and per script run")
    args = parser.parse_args(argv)
    for option, folder in (("--out", args.out), ("--reports", args.reports), ("--cache", args.cache)):
        if folder:
            cli.require_writable(parser, option, folder)
    available, index_note = discover_releases()
    requested = args.versions or available
    if unknown := [item for item in requested if resolve(item, available) is None]:
        parser.error(f"--versions: not on the package index: {', '.join(unknown)} ({index_note} Newest: "
                     f"{max(available, key=Version)}.)")
    print(index_note, file=sys.stderr)
    started = time.monotonic()
    run = functools.partial(run_matrix, available=available, cache=args.cache, with_executorch=args.executorch,
                            jobs=args.jobs, timeout=args.timeout)
    rows = run(requested)
    while args.reports and (more := release_boundaries.releases_to_run(rows, available)):
        print(f"to find where each symptom starts and ends, also running {', '.join(more)}", file=sys.stderr)
        rows += run(more)
    matrix = {"generated": datetime.now(UTC).isoformat(timespec="seconds"), "index_note": index_note,
              "available": available, "seconds": round(time.monotonic() - started, 1), "rows": rows,
              "summary": matrix_report.summarize(rows, available)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "matrix.json").write_text(json.dumps(matrix, indent=1))
    (args.out / "matrix.md").write_text(matrix_report.render_markdown(matrix))
    print(matrix_report.render_markdown(matrix))
    if args.reports:
        for path in upstream_reports.write_reports(matrix, args.reports):
            print(f"upstream report: {path}", file=sys.stderr)
    print(f"wrote {args.out}/matrix.json and matrix.md in {matrix['seconds']} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
