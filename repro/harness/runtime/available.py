"""Can the real ExecuTorch runtime run OpenVINO delegates here?

The runtime's OpenVINO backend dlopens ``$OPENVINO_LIB_PATH`` the first time it loads a delegate,
so it is pointed at the installed wheel's ``libopenvino_c`` before any program runs.
"""

import ctypes
import os

from workaround.contract.openvino_library import OpenvinoLibraryNotFound, point_executorch_at_openvino
from workaround.contract.provenance import OPENVINO_BACKEND


class Untestable(RuntimeError):
    """ExecuTorch, its OpenVINO backend or OpenVINO's C library cannot be used here."""


def locate_openvino_c() -> str:
    """Point the runtime's dlopen at the wheel's libopenvino_c unless the caller already did."""
    try:
        return str(point_executorch_at_openvino())
    except OpenvinoLibraryNotFound as error:
        raise Untestable(str(error)) from error


def check_runtime() -> None:
    """The runtime must have the OpenVINO delegate and a libopenvino_c to load."""
    locate_openvino_c()
    try:
        from executorch.runtime import Runtime
    except Exception as error:
        raise Untestable(f"cannot import executorch.runtime: {error}") from error
    try:
        ctypes.CDLL(os.environ["OPENVINO_LIB_PATH"])
    except OSError as error:
        raise Untestable(f"cannot load OPENVINO_LIB_PATH={os.environ['OPENVINO_LIB_PATH']}: {error}") from error
    names = Runtime.get().backend_registry.registered_backend_names
    if OPENVINO_BACKEND not in names:
        raise Untestable(f"this ExecuTorch runtime has no {OPENVINO_BACKEND} (it has {names})")
