"""Where ExecuTorch's runtime finds OpenVINO: one fact the harness, the runner command and the docs share.

Why: the runtime's OpenVINO backend (``libexecutorch_backend_openvino.so`` in the executorch wheel) does not link
OpenVINO; it ``dlopen``s ``$OPENVINO_LIB_PATH``, else ``libopenvino_c.so`` on the loader's search path, the first
time it loads a delegate. The openvino wheel ships the library as ``openvino/libs/libopenvino_c.so.<N>`` (N the
release, ``2641`` for 2026.4.1), which neither names: without the variable every OpenVINO program fails to load
("OpenVINO runtime not found"), and ExecuTorch's ``TextLLMRunner`` says only ``Generation failed``. Standard
library only: the checker's side imports it too."""

import importlib.util
import os
from pathlib import Path

VARIABLE = "OPENVINO_LIB_PATH"
PATTERNS = ("libopenvino_c.so*", "libopenvino_c*.dylib", "openvino_c.dll")


class OpenvinoLibraryNotFound(RuntimeError):
    """No openvino package is installed, or it ships no C library."""


def installed_library() -> Path:
    """The installed openvino wheel's C library (what ExecuTorch's backend dlopens)."""
    spec = importlib.util.find_spec("openvino")
    if spec is None or not spec.submodule_search_locations:
        raise OpenvinoLibraryNotFound("openvino is not installed here: pip install openvino")
    libs = Path(next(iter(spec.submodule_search_locations))) / "libs"
    found = [path for pattern in PATTERNS for path in sorted(libs.glob(pattern))]
    if not found:
        raise OpenvinoLibraryNotFound(f"no libopenvino_c in {libs}: this openvino wheel ships no C API")
    return found[0]


def point_executorch_at_openvino() -> Path:
    """Set ``OPENVINO_LIB_PATH`` for this process, unless already set, before ExecuTorch loads a program; returns
    the library it names. Later loads of the backend in this process, and child processes, read it."""
    if os.environ.get(VARIABLE):
        return Path(os.environ[VARIABLE])
    found = installed_library()
    os.environ[VARIABLE] = str(found)
    return found
