"""The shell lines the OpenVINO reports print — install, build and run each C / C++ attachment against
the installed wheel, list which ``import_model`` the wheel's C API calls — and the runner that executes
them verbatim.

One text serves three readers: the report prints it, the matrix runs it in every release's
environment (its output is what the report pastes), and the tests run what they extract from the
generated Markdown. A line that does not work as printed cannot pass unnoticed. The lines are bash,
start in a folder holding the attachment, and find the wheel through whichever ``python`` is first on
the ``PATH`` (the reader's venv).
"""

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from pathlib import Path

from packaging.version import Version

from repro.releases import NUMPY_2_FROM
from repro.reports.matrix_row import CommandRun

ATTACHMENTS = Path(__file__).resolve().parent / "attachments"
OPENVINO_FOLDER = 'OV=$(python -c "import openvino, os; print(os.path.dirname(openvino.__file__))")'
# The libstdc++ ABI the wheel was built with, as its OpenVINOConfig.cmake sets it ("0" for 2024.3.0 to
# 2025.4.1, "1" from 2026.0.0): taken whole, not by stripping digits (the "11" of CXX11 would stay).
CXX_ABI = (r"""ABI=$(sed -n 's/^set(OpenVINO_GLIBCXX_USE_CXX11_ABI "\([01]\)")$/\1/p' """
           '"$OV/cmake/OpenVINOConfig.cmake")')
LINK = '-I"$OV/include" "$OV"/libs/{library}.so.* -Wl,-rpath,"$OV/libs"'


def run_line(name: str) -> str:
    """The line that runs a built attachment (the last line of ``cpp_build`` and ``c_build``)."""
    return f"./{Path(name).stem}"


def cpp_build(name: str) -> str:
    """Build and run ``name`` (a .cpp attachment) against the wheel's libopenvino."""
    program = Path(name).stem
    return "\n".join([
        OPENVINO_FOLDER, CXX_ABI,
        f"g++ -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=$ABI {name} {LINK.format(library='libopenvino')} -o {program}",
        run_line(name)])


def c_build(name: str) -> str:
    """Build and run ``name`` (a .c attachment) against the wheel's libopenvino_c (no C++ ABI to match)."""
    program = Path(name).stem
    return "\n".join([OPENVINO_FOLDER, f"cc {name} {LINK.format(library='libopenvino_c')} -o {program}",
                      run_line(name)])


# Which Core::import_model the C API's ov_core_import_model calls, from the wheel's dynamic symbols.
IMPORT_SYMBOLS = "\n".join([OPENVINO_FOLDER,
                            'nm -D --undefined-only "$OV"/libs/libopenvino_c.so.* | c++filt | grep import_model'])


def install_line(release: str) -> str:
    """``pip install`` for one release, with the numpy its wheel works with (numpy 2 from 2024.2.0)."""
    numpy = "numpy" if Version(release) >= NUMPY_2_FROM else '"numpy<2"'
    return f"pip install openvino=={release} {numpy}"


def run(lines: str, python: str | Path, attachments: Iterable[str] = (), timeout: float = 600,
        folder: str | Path | None = None) -> CommandRun:
    """{"exit_code", "output"} of ``lines`` run by bash, verbatim, in a folder holding copies of ``attachments``
    (a scratch one, or ``folder``, kept), with ``python``'s folder first on the PATH (so ``python`` is that
    environment's)."""
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(folder or scratch)
        where.mkdir(parents=True, exist_ok=True)
        for name in attachments:
            shutil.copy(ATTACHMENTS / name, where)
        path = f"{Path(python).parent}{os.pathsep}{os.environ.get('PATH', '')}"
        try:
            result = subprocess.run(["bash", "-c", lines], cwd=where, env={**os.environ, "PATH": path},
                                    capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {"exit_code": None, "output": f"ran longer than {timeout} s"}
    return {"exit_code": result.returncode, "output": (result.stdout + result.stderr).strip()}
