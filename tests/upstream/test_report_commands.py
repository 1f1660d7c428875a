"""Every command the OpenVINO reports print, run exactly as printed, on the oldest and newest release
each claims: the install lines in fresh venvs, the Python snippet, the C++ build line (2024.3.0 and 2025.4.1
need ABI 0, 2026 ABI 1), the C program's build line, and the ``nm`` line; each output held to what the report
says about that release.

The reports are rendered from the recorded matrix (``tests/data/matrix-all-releases.json``), so what is
checked is the Markdown a maintainer gets. Each venv is made by the printed install line and kept under
``.matrix/printed/`` (git-ignored), keyed by that line: a changed line makes a new venv.
"""

import fcntl
import os
import re
import shutil
import subprocess
import sys

import pytest

from repro import attachment_commands as commands
from repro.reports import matrix_report
from repro.reports import openvino_cpu_stamp as stamp_report
from repro.reports import openvino_import_lifetime as import_report
from repro.reports import openvino_stale_copies as stale_report
from tests.support.helpers import PROJECT, table_line
from tests.support.recorded_matrix import RECORDED

pytestmark = pytest.mark.matrix
MATRIX = {**RECORDED, "summary": matrix_report.summarize(RECORDED["rows"], RECORDED["available"])}
STALE_COPIES = stale_report.openvino_stale_copies(MATRIX)
IMPORT_LIFETIME = import_report.openvino_import_lifetime(MATRIX)
VENVS = PROJECT / ".matrix" / "printed"
NEWEST, OLDEST = RECORDED["rows"][-1]["release"], RECORDED["rows"][0]["release"]


def blocks(markdown, language):
    """The fenced blocks of one language, in order."""
    return re.findall(rf"^```{language}\n(.*?)\n```$", markdown, flags=re.MULTILINE | re.DOTALL)


def block_after(markdown, marker, language):
    return blocks(markdown[markdown.index(marker):], language)[0]


def pasted(markdown, heading):
    """The text block that follows ``heading`` (a log line such as "On 2026.4.1:")."""
    return block_after(markdown, heading, "text")


def printed_install_line(release):
    """The report's install line for ``release``: printed as is for the newest and the oldest release; for
    a release between, the newest's line with its release changed (what a reader does)."""
    lines = blocks(STALE_COPIES[:STALE_COPIES.index("2. Save as")], "sh")
    assert block_after(IMPORT_LIFETIME, "1. Install", "sh") == lines[0], "both reports install alike"
    for line in lines:
        if f"openvino=={release} " in line:
            return line
    return lines[0].replace(f"openvino=={NEWEST} ", f"openvino=={release} ")


def printed_venv(release):
    """A venv made by running the printed install line in it; reused while that line is unchanged."""
    line = printed_install_line(release)
    folder = VENVS / re.sub(r"[^\w.=-]+", "_", line)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (VENVS / f"{folder.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # xdist workers share the venvs
        marker = folder / "installed-by.txt"
        if not (marker.exists() and marker.read_text() == line):
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([sys.executable, "-m", "venv", folder], check=True)
            run = commands.run(line, folder / "bin" / "python")
            assert run["exit_code"] == 0, f"`{line}` failed as printed: {run['output'][-2000:]}"
            marker.write_text(line)
    return folder / "bin" / "python"


def run_printed(lines, release, attachments):
    if not shutil.which("g++") or not shutil.which("cc"):
        pytest.skip("no C/C++ compiler to run the report's build lines with")
    return commands.run(lines, printed_venv(release), attachments)


@pytest.mark.parametrize("release", [OLDEST, NEWEST])
def test_snippet_prints_what_the_report_pastes(release, tmp_path):
    (tmp_path / stale_report.MINIMAL_REPRODUCER.name).write_text(block_after(STALE_COPIES, "2. Save as", "python"))
    command = block_after(STALE_COPIES, "2. Save as", "sh")
    assert command == f"python {stale_report.MINIMAL_REPRODUCER.name}"
    python = printed_venv(release)
    result = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, text=True, check=False,
                            env={**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}"})
    assert result.returncode == 1, result.stderr[-2000:]  # git bisect run's convention: the bug shows
    assert result.stdout.strip() == pasted(STALE_COPIES, f"`{command}` on {release}:")


@pytest.mark.parametrize(("release", "abi"), [("2024.3.0", "0"), ("2025.4.1", "0"), (NEWEST, "1")])
def test_cpp_build_line_reads_the_abi_builds_and_reproduces(release, abi):
    build = block_after(STALE_COPIES, f"{stale_report.CPP_REPRODUCER.name} and its build lines", "sh")
    abi_line = "\n".join([*build.splitlines()[:2], 'echo "$ABI"'])
    assert run_printed(abi_line, release, [])["output"] == abi
    result = run_printed(build, release, [stale_report.CPP_REPRODUCER.name])
    assert result["exit_code"] == 1, result["output"][-2000:]
    assert result["output"].endswith("BUG REPRODUCED")
    if f"The C++ program on {release}:" in STALE_COPIES:
        assert result["output"] == pasted(STALE_COPIES, f"The C++ program on {release}:")


@pytest.mark.parametrize(("release", "exit_code"),
                         [("2024.3.0", 0), ("2025.4.1", 0), ("2026.3.1", 0), (NEWEST, 1)])
def test_c_program_builds_as_printed_and_gives_the_verdict_in_the_table(release, exit_code):
    build = block_after(IMPORT_LIFETIME, "3. Build it", "sh")
    result = run_printed(build, release, [import_report.IMPORT_REPRODUCER.name])
    assert result["exit_code"] == exit_code, result["output"][-2000:]
    cell = "**reads the caller's buffer**" if exit_code else "copies"
    assert f" | {cell} | " in table_line(IMPORT_LIFETIME, release)
    if f"On {release}:" in IMPORT_LIFETIME:
        assert result["output"] == pasted(IMPORT_LIFETIME, f"On {release}:")


@pytest.mark.parametrize(("release", "overload"), [("2026.3.1", "std::istream&"), (NEWEST, "ov::Tensor const&")])
def test_nm_line_shows_the_overload_the_report_names(release, overload):
    result = run_printed(block_after(IMPORT_LIFETIME, "which `Core::import_model` the C API calls", "sh"), release,
                         [])
    assert import_report.called_overload({"import_symbols": result}) == overload, result["output"]
    assert f" | `{overload}` | " in table_line(IMPORT_LIFETIME, release)


@pytest.mark.parametrize("release", ["2024.3.0", NEWEST])
def test_overloads_program_builds_as_printed_and_matches_its_row(release):
    result = run_printed(block_after(IMPORT_LIFETIME, import_report.OVERLOADS_PROGRAM.name + "</summary>", "sh"),
                         release, [import_report.OVERLOADS_PROGRAM.name])
    assert result["exit_code"] == 0, result["output"][-2000:]
    found = import_report.overload_results({"import_overloads": result})
    recorded = next(row for row in RECORDED["rows"] if row["release"] == release)
    assert found == import_report.overload_results(recorded)


CPU_STAMP = stamp_report.openvino_cpu_stamp(MATRIX)


def test_the_stamp_report_is_built_from_the_rows_and_names_the_first_stamped_release():
    """openvino-cpu-stamp.md from the recorded releases: the first release whose blob is refused on another CPU
    class (found between the newest unstamped one and the oldest stamped one), the reproducer, its output."""
    assert CPU_STAMP.startswith("# [Bug]: since 2026.4.0 an exported CPU blob imports only on the CPU class")
    assert "blob tied to the exporting CPU: no 2023.0.0 to 2026.3.1; **yes** 2026.4.0 to 2026.4.1" in CPU_STAMP
    assert stamp_report.REPRODUCER.read_text().rstrip() in CPU_STAMP
    newest = next(row for row in RECORDED["rows"] if row["release"] == NEWEST)
    assert newest["cpu_stamp"]["stdout"].strip() in CPU_STAMP
    assert "PR #36969" in CPU_STAMP
    assert "PR #37583" in CPU_STAMP


def test_the_stamp_reports_commands_run_as_printed_and_reproduce(tmp_path):
    """The install line in a fresh venv, then ``python openvino_cpu_stamp.py`` as printed: the bug, and the
    pasted output's verdict (the ISA names in the rest are this host's)."""
    (tmp_path / stamp_report.REPRODUCER.name).write_text(
        blocks(CPU_STAMP.split("## Step-by-step reproduction")[1], "python")[0] + "\n")
    assert block_after(CPU_STAMP, "## Step-by-step reproduction", "sh") == printed_install_line(NEWEST)
    python = printed_venv(NEWEST)
    result = subprocess.run(["bash", "-c", f"python {stamp_report.REPRODUCER.name}"], cwd=tmp_path,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "PATH": f"{python.parent}{os.pathsep}{os.environ['PATH']}"})
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    pasted_output = pasted(CPU_STAMP, f"On {NEWEST}:")
    assert result.stdout.strip().splitlines()[-1] == pasted_output.splitlines()[-1]


@pytest.mark.parametrize(("release", "exit_code"), [("2026.3.1", 0), (NEWEST, 1)])
def test_the_stamp_reports_c_program_builds_as_printed_and_gives_the_recorded_verdict(release, exit_code):
    """The C twin, through ``ov_core_import_model`` as ExecuTorch imports: no header before 2026.4.0, refused on
    another class's header from it; the pasted output is the newest release's."""
    build = block_after(CPU_STAMP, f"{stamp_report.C_REPRODUCER.name} and its build lines", "sh")
    result = run_printed(build, release, [stamp_report.C_REPRODUCER.name])
    assert result["exit_code"] == exit_code, result["output"][-2000:]
    if release == NEWEST:
        assert result["output"].splitlines()[-1] == pasted(CPU_STAMP, f"Its output on {NEWEST}").splitlines()[-1]
