"""What the ExecuTorch issue bodies share: the install lines (the tests run them as printed), the
environment as ExecuTorch's bug template asks for it (``python -m torch.utils.collect_env``, trimmed to
what matters here), the embedded reproducer's own output per release, and a patch inline.

Every measured thing comes from the matrix's rows (``repro/matrix.py --executorch``); a release that was
not run is said to be not run, never filled in.
"""

import re
from collections.abc import Sequence
from pathlib import Path

from packaging.version import Version

from repro.dependencies import executorch_requirements
from repro.reports import markdown as md
from repro.reports.matrix_report import by_release, last_line
from repro.reports.matrix_row import MatrixRow, own_output, recorded

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"  # PyPI's torch for Linux is a CUDA build of GBs
# ExecuTorch's own supported range (its pyproject's `openvino` extra, its docs): openvino>=2025.1.0,<2026.0.0.
SUPPORTED_OPENVINO = "2025.4.1"  # the newest release inside it
NEWEST_OPENVINO = "2026.4.1"  # what a bare `pip install openvino` gives (December 2026)
EXECUTORCH_MAIN = "cff6f4dd32e630945b7188512c1f2b4f102b05ad"  # 2026-08-22, the commit the patches apply to
SOURCE_URL = f"https://github.com/pytorch/executorch/blob/{EXECUTORCH_MAIN}"
# collect_env lines a maintainer needs here: versions, OS, CPU (OpenVINO's CPU plugin picks its
# precision from the ISA), and the CPU flags that decide it.
KEPT_ENV_LINES = ("PyTorch version", "OS:", "Python version", "Python platform", "Is CUDA available", "Vendor ID",
                  "Model name", "[pip3] executorch", "[pip3] numpy", "[pip3] torch==")
ISA_FLAGS = ("avx2", "avx512f", "avx512_vnni", "avx512_bf16", "amx_bf16", "amx_int8")


def pins() -> dict[str, str]:
    """{"torch": "2.13.0", "executorch": "1.5.1", "nncf": "3.1.0"}: the versions the project runs with."""
    return dict(requirement.split("==") for requirement in executorch_requirements() if "==" in requirement)


def install_lines(openvino: str) -> list[str]:
    """The commands that set up the reproducer's environment, in ExecuTorch's supported way plus OpenVINO."""
    versions = pins()
    return [f"pip install torch=={versions['torch']} --index-url {TORCH_CPU_INDEX}",
            f"pip install executorch=={versions['executorch']} nncf=={versions['nncf']} openvino=={openvino}"]


def install_block(openvino: str) -> str:
    return md.code_block("\n".join(install_lines(openvino)), "sh")


def trimmed_environment(collect_env: str) -> str:
    """The lines of ``python -m torch.utils.collect_env`` that matter for these reports."""
    kept = [line for line in collect_env.splitlines() if line.startswith(KEPT_ENV_LINES)]
    flags = next((line.split(":", 1)[1].split() for line in collect_env.splitlines() if line.startswith("Flags:")),
                 [])
    isa = " ".join(flag for flag in ISA_FLAGS if flag in flags)
    kept.append(f"CPU flags that decide OpenVINO's CPU precision: {isa}" if flags else "CPU flags: not reported")
    return "\n".join(kept)


def measured_rows(rows: list[MatrixRow], field: str) -> list[MatrixRow]:
    """The rows (oldest release first) where the attachment or run ``field`` ran."""
    return [row for row in by_release(rows)
            if isinstance(run := row.get(field), dict) and run.get("output") is not None]


def environment_section(rows: list[MatrixRow], field: str) -> str:
    """The lines of collect_env that matter, of the newest release that ran ``field``, with the OpenVINO and
    nncf pins; the whole output below them, collapsed (ExecuTorch's template asks for all of it)."""
    ran = [row for row in measured_rows(rows, field) if row.get("executorch_environment")]
    if not ran:
        return "(Not run in this matrix: `repro/matrix.py --executorch` records it.)"
    newest = ran[-1]
    environment = recorded(newest, "executorch_environment")
    summary = md.code_block(f"{trimmed_environment(environment)}\nopenvino=="
                            f"{newest['release']}\nnncf=={pins()['nncf']}", "")
    whole = md.code_block(environment, "")
    return f"{summary}\n\n{md.details('python -m torch.utils.collect_env, whole', whole)}"


def outputs(rows: list[MatrixRow], field: str,
            releases: Sequence[str] = (SUPPORTED_OPENVINO, NEWEST_OPENVINO)) -> str:
    """The reproducer's output, verbatim, on each of ``releases`` the matrix ran it on (others: said)."""
    ran = {row["release"]: recorded(row, field) for row in measured_rows(rows, field)}
    parts = []
    for release in releases:
        if release not in ran:
            parts.append(f"OpenVINO {release}: not run in this matrix.")
            continue
        run = ran[release]
        parts.append(f"OpenVINO {release} (exit {run['exit_code']}):\n\n{md.code_block(own_output(run), '')}")
    return "\n\n".join(parts)


def releases_measured(rows: list[MatrixRow], field: str) -> str:
    """A sentence naming the ExecuTorch releases the reproducer ``field`` ran with (``--executorch-versions``),
    each with its last line, per OpenVINO release; where one release was run, which one."""
    runs = [(row["release"], executorch, result.get(field)) for row in by_release(rows)
            for executorch, result in (row.get("executorch_releases") or {}).items() if result.get(field)]
    if not runs:
        return ""
    releases = sorted({executorch for _, executorch, _ in runs}, key=Version)
    lines = [f"executorch {executorch}, OpenVINO {openvino}: `{last_line(run)}` (exit {run['exit_code']})"
             for openvino, executorch, run in sorted(runs, key=lambda item: (Version(item[1]), item[0]))]
    return f"ExecuTorch releases measured: {', '.join(releases)}.\n\n" + md.bullets(lines)


def reproduction(reproducer: Path, rows: list[MatrixRow], field: str, openvino: str,
                 releases: Sequence[str] = (SUPPORTED_OPENVINO, NEWEST_OPENVINO)) -> str:
    """The "To reproduce" steps every ExecuTorch report has: the install lines (with ``openvino``), how to run
    the ``reproducer`` attachment, the attachment itself, its output on ``releases``, and the ExecuTorch
    releases it was measured with (``field``: its runs in the rows)."""
    return f"""\
{install_block(openvino)}
then `python {reproducer.name}` (exits 1 when the bug shows, 0 when not, 125 if it cannot test).

{md.details(f"{reproducer.name}", md.code_block(reproducer.read_text()))}

{md.details("Its output", outputs(rows, field, releases))}

{md.details("ExecuTorch releases measured", measured) if (measured := releases_measured(rows, field)) else ""}"""


def op_test_results(rows: list[MatrixRow], series: str, test_file: str, patches_named: str) -> str:
    """The op tests a patch series adds (``test_file`` in ExecuTorch), with and without the series, on the
    newest release that ran them (``executorch_patch_tests`` of the rows); a line saying so where none did."""
    ran = [row for row in by_release(rows) if (row.get("executorch_patch_tests") or {}).get(series)]
    if not ran:
        return "(Not run in this matrix: `repro/matrix.py --executorch` runs them.)"
    results = recorded(ran[-1], "executorch_patch_tests")[series]
    failing_without = sum(results["without"].get(test) != "passed" for test in results["with"])
    table = md.table(["test", "with the patches", "without"],
                     [[f"`{test}`", outcome, results["without"].get(test, "-")]
                      for test, outcome in sorted(results["with"].items())])
    return md.details(f"<code>{test_file}</code> on OpenVINO {ran[-1]['release']}, with {patches_named} and "
                      f"without them ({failing_without} of {len(results['with'])} fail without)", table)


def patch_text(path: Path) -> str:
    """A patch file as ``git format-patch`` wrote it, minus the mail header lines a reader does not need."""
    text = path.read_text()
    return re.sub(r"\A(From [0-9a-f]{40} .*\n)(From: .*\n(?: .*\n)?)(Date: .*\n)", "", text)


def patch_block(path: Path) -> str:
    """The patch, collapsed under its file name (``git am`` applies it)."""
    return md.details(f"<code>{Path(path).name}</code>", md.code_block(patch_text(path), "diff"))
