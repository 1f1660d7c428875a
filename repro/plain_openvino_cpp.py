"""The same reproducer in C++ (``attachments/openvino_stale_copies.cpp``, the program the OpenVINO report
embeds), built against the installed wheel.

OpenVINO's own tests are C++, so the maintainers get the bug in their language too. Wheels from
2024.3.0 on ship ``include/``, ``cmake/OpenVINOConfig.cmake`` and ``libs/libopenvino.so.<build>``
(2024.2.0 and older ship none of them: measured on the wheels of 2023.3.0, 2024.1.0, 2024.2.0 and
2024.3.0 to 2026.4.1), so the program is compiled straight against the wheel with the system's C++
compiler (``$CXX``, else ``c++``, ``g++`` or ``clang++``), no CMake needed. The binary is cached under
``~/.cache/openvino-stale-copies`` (``$XDG_CACHE_HOME`` if set), keyed by the source, the wheel and the
compiler, so a second run does not rebuild. Linux only: the wheels for other systems name the
library differently.

Its output is one line per model and call order, parsed here into what ``plain_openvino.py`` puts
in the rows it reports for its other APIs.

Run on its own: ``python plain_openvino_cpp.py [--json]`` runs only the C++ part, with the same
report, JSON keys and exit status as ``plain_openvino.py``.
"""

from __future__ import annotations  # the types name numpy and openvino, which may have failed to import

import hashlib
import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).parent / "attachments" / "openvino_stale_copies.cpp"
MODELS = ("param_result_and_sin", "param_result_only")  # the program's two models, as plain_openvino.py names them
COMPILERS = ("c++", "g++", "clang++")
BUILD_TIMEOUT, RUN_TIMEOUT = 300, 300
LINE = re.compile(r"^(?P<model>\w+) (?P<order>inputs_first|outputs_first): (?P<symptoms>[^|]*)"
                  r"\| max_abs_diff (?P<diffs>[^|]*)\| output 0 row 0: (?P<actual>.*)$")


class CppUnavailable(RuntimeError):
    """The C++ reproducer cannot be built here: no compiler, no headers in the wheel, or the build failed."""


ABI_SETTING = re.compile(r'set\(OpenVINO_GLIBCXX_USE_CXX11_ABI "([01])"\)')


def wheel_files() -> tuple[Path, Path, Path]:
    """(include folder, libopenvino, the wheel's cmake config) of the installed wheel."""
    root = Path(importlib.import_module("openvino").__file__).parent
    include, libraries = root / "include", sorted((root / "libs").glob("libopenvino.so*"))
    if not (include / "openvino" / "openvino.hpp").exists():
        raise CppUnavailable(f"no C++ headers in {root}: wheels before 2024.3.0 ship none")
    if not libraries:
        raise CppUnavailable(f"no libopenvino.so* in {root / 'libs'} (the C++ part runs on Linux only)")
    return include, libraries[0], root / "cmake" / "OpenVINOConfig.cmake"


def abi_flags(config: Path) -> list[str]:
    """The libstdc++ ABI the wheel was built with, as its OpenVINOConfig.cmake declares it (what
    ``find_package(OpenVINO)`` would add): the wheels 2024.3.0 to 2025.4.1 say 0, 2026.0.0 on say 1."""
    found = ABI_SETTING.search(config.read_text()) if config.exists() else None
    return [f"-D_GLIBCXX_USE_CXX11_ABI={found[1]}"] if found else []


def compiler() -> str:
    found = os.environ.get("CXX") or next(filter(None, map(shutil.which, COMPILERS)), None)
    if not found:
        raise CppUnavailable(f"no C++ compiler: set CXX or install one of {', '.join(COMPILERS)}")
    return found


def build_command(cxx: str, include: Path, library: Path, config: Path, binary: Path) -> list[str]:
    return [cxx, "-std=c++17", "-O1", *abi_flags(config), str(SOURCE), f"-I{include}", str(library),
            f"-Wl,-rpath,{library.parent}", "-o", str(binary)]


def cache_folder() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "openvino-stale-copies"


def build() -> tuple[Path, bool]:
    """(binary, True if it was already built); raises CppUnavailable with the compiler's last lines."""
    include, library, config = wheel_files()
    cxx = compiler()
    key = hashlib.sha256(b"\0".join([SOURCE.read_bytes(), str(library.resolve()).encode(), cxx.encode(),
                                     str(library.stat().st_mtime_ns).encode()])).hexdigest()[:16]
    binary = cache_folder() / f"plain_openvino-{key}"
    if binary.exists():
        return binary, True
    binary.parent.mkdir(parents=True, exist_ok=True)
    partial = binary.with_name(f"{binary.name}.{os.getpid()}.partial")  # renamed only once complete
    try:
        result = subprocess.run(build_command(cxx, include, library, config, partial), capture_output=True,
                                text=True, timeout=BUILD_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise CppUnavailable(f"the C++ build could not run: {error}") from error
    if result.returncode != 0:
        partial.unlink(missing_ok=True)
        tail = " / ".join((result.stderr or result.stdout).strip().splitlines()[-3:])
        raise CppUnavailable(f"{Path(cxx).name} failed to build {SOURCE.name}: {tail}")
    partial.replace(binary)
    return binary, False


def parse_line(match: re.Match[str]) -> dict[str, Any]:
    """One output line -> {model, order, symptoms, max_abs_diff, actual} (no compiled model to inspect)."""
    flags = dict(item.split("=") for item in match["symptoms"].split())
    diffs = {name: float(value) for name, value in (item.split("=") for item in match["diffs"].split())}
    symptoms = {name: None if value == "-" else value == "1" for name, value in flags.items()}
    if symptoms["wrong_downstream"] is None:
        diffs["downstream"] = None
    return {"model": match["model"], "order": match["order"], "symptoms": symptoms, "max_abs_diff": diffs,
            "actual": [float(value) for value in match["actual"].split()]}


def run() -> tuple[list[dict[str, Any]], str]:
    """(one parsed line per model and order, the program's output verbatim); CppUnavailable if it cannot be
    built."""
    binary, _ = build()
    try:
        result = subprocess.run([str(binary)], capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)
    except subprocess.TimeoutExpired as error:
        raise RuntimeError(f"{SOURCE.stem} ran longer than {RUN_TIMEOUT} s") from error
    rows = [parse_line(match) for line in result.stdout.splitlines() if (match := LINE.match(line))]
    if result.returncode not in (0, 1) or not rows:
        raise RuntimeError(f"{SOURCE.stem} exited {result.returncode} with {len(rows)} result lines: "
                           f"{(result.stderr or result.stdout).strip()[-500:]}")
    return rows, result.stdout


def main(argv: list[str] | None = None) -> int:
    plain = importlib.import_module(f"{__package__}.plain_openvino" if __package__ else "plain_openvino")
    return plain.main(sys.argv[1:] if argv is None else argv, only_api="cpp")


if __name__ == "__main__":
    sys.exit(main())
