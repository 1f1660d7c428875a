"""The same reproducer through OpenVINO's C API, the way ExecuTorch's runtime calls it.

ExecuTorch's OpenVINO backend (backends/openvino/runtime/OpenvinoBackend.cpp)
dlopens ``libopenvino_c``, imports a compiled blob, and on every execute wraps
each buffer with ``ov_tensor_create_from_host_ptr``, sets all inputs by index,
then all outputs by index, then calls ``ov_infer_request_infer``.  This module
makes exactly those calls with ctypes, on blobs exported from the models that
``plain_openvino.py`` builds; it is not a script of its own without that file
beside it (it imports it from there).  The first wheel that ships ``libopenvino_c``
is 2024.3.0 (measured over every release from 2023.0.0); on older wheels this
part is skipped with that reason.

Element-type codes are read from the compiled model's own ports
(``ov_port_get_element_type``), so they are whatever the installed release's
``ov_element_type_e`` says; the enum changed between releases.

Run on its own: ``python plain_openvino_c.py [--json]`` runs only the C-API part,
with the same report, JSON keys and exit status as ``plain_openvino.py``.
"""

from __future__ import annotations  # the types name numpy and openvino, which may have failed to import

import ctypes
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

LIBRARY_PATTERNS = ("libopenvino_c.so*", "libopenvino_c*.dylib", "openvino_c.dll")

if TYPE_CHECKING:  # annotations only: this part is loaded after plain_openvino.py has imported them
    import numpy as np
    import openvino as ov


class CApiUnavailable(RuntimeError):
    """The installed wheel has no usable libopenvino_c (wheels before 2024.3.0 ship none)."""


class OvShape(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("dims", ctypes.POINTER(ctypes.c_int64))]


def library_path() -> Path:
    """The installed wheel's libopenvino_c (what ExecuTorch's runtime dlopens); CApiUnavailable if none."""
    import openvino

    libs = Path(openvino.__file__).parent / "libs"
    found = [path for pattern in LIBRARY_PATTERNS for path in sorted(libs.glob(pattern))]
    if not found:
        raise CApiUnavailable(f"no libopenvino_c in {libs}: this wheel does not ship the C API")
    return found[0]


def load_library() -> ctypes.CDLL:
    lib = ctypes.CDLL(str(library_path()))
    lib.ov_tensor_create_from_host_ptr.argtypes = [
        ctypes.c_int, OvShape, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.ov_core_import_model.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    for name in ("ov_infer_request_set_input_tensor_by_index", "ov_infer_request_set_output_tensor_by_index"):
        getattr(lib, name).argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
    lib.ov_infer_request_get_input_tensor_by_index.argtypes = [
        ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
    lib.ov_tensor_data.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
    if hasattr(lib, "ov_get_last_err_msg"):
        lib.ov_get_last_err_msg.restype = ctypes.c_char_p
    return lib


class CApiSession:
    """One imported blob and its infer request; frees what it created on close."""

    def __init__(self, lib: ctypes.CDLL, blob: bytes) -> None:
        self.lib, self.owned = lib, []
        self.core = self._new("ov_core_create", "ov_core_free")
        self.compiled = self._new("ov_core_import_model", "ov_compiled_model_free",
                                  self.core, blob, len(blob), b"CPU")
        self.request = self._new("ov_compiled_model_create_infer_request", "ov_infer_request_free",
                                 self.compiled)

    def check(self, status: int, call: str) -> None:
        if status != 0:
            message = self.lib.ov_get_last_err_msg() if hasattr(self.lib, "ov_get_last_err_msg") else b""
            raise RuntimeError(f"{call} returned status {status}: {(message or b'').decode()}")

    def _new(self, create, free, *args):
        handle = ctypes.c_void_p()
        self.check(getattr(self.lib, create)(*args, ctypes.byref(handle)), create)
        self.owned.append((free, handle))
        return handle

    def element_type(self, kind: str, index: int) -> int:
        port = ctypes.c_void_p()
        self.check(getattr(self.lib, f"ov_compiled_model_{kind}_by_index")(
            self.compiled, ctypes.c_size_t(index), ctypes.byref(port)), f"ov_compiled_model_{kind}_by_index")
        code = ctypes.c_int()
        self.check(self.lib.ov_port_get_element_type(port, ctypes.byref(code)), "ov_port_get_element_type")
        self.lib.ov_output_const_port_free(port)
        return code.value

    def tensor_over(self, buffer: np.ndarray, element_type: int) -> ctypes.c_void_p:
        """A tensor over the caller's numpy buffer: host pointer and sizes, no copy."""
        dims = (ctypes.c_int64 * buffer.ndim)(*buffer.shape)
        shape = OvShape()
        self.check(self.lib.ov_shape_create(buffer.ndim, dims, ctypes.byref(shape)), "ov_shape_create")
        tensor = ctypes.c_void_p()
        status = self.lib.ov_tensor_create_from_host_ptr(
            element_type, shape, buffer.ctypes.data_as(ctypes.c_void_p), ctypes.byref(tensor))
        self.lib.ov_shape_free(ctypes.byref(shape))
        self.check(status, "ov_tensor_create_from_host_ptr")
        self.owned.append(("ov_tensor_free", tensor))
        return tensor

    def input_data_pointer(self) -> int | None:
        """Where the request's input 0 points now (``ov_infer_request_get_input_tensor_by_index``)."""
        tensor, data = ctypes.c_void_p(), ctypes.c_void_p()
        self.check(self.lib.ov_infer_request_get_input_tensor_by_index(self.request, 0, ctypes.byref(tensor)),
                   "ov_infer_request_get_input_tensor_by_index")
        try:
            self.check(self.lib.ov_tensor_data(tensor, ctypes.byref(data)), "ov_tensor_data")
        finally:
            self.lib.ov_tensor_free(tensor)
        return data.value

    def set_and_infer(self, calls: list[tuple[str, int, np.ndarray]], output_0: np.ndarray) -> bool:
        """Set the tensors in order, infer; returns whether input 0 was output 0's buffer before infer."""
        for kind, index, buffer in calls:
            tensor = self.tensor_over(buffer, self.element_type(kind, index))
            setter = f"ov_infer_request_set_{kind}_tensor_by_index"
            self.check(getattr(self.lib, setter)(self.request, ctypes.c_size_t(index), tensor), setter)
        slot_shared = self.input_data_pointer() == output_0.ctypes.data
        self.check(self.lib.ov_infer_request_infer(self.request), "ov_infer_request_infer")
        return slot_shared

    def close(self) -> None:
        for free, handle in reversed(self.owned):
            getattr(self.lib, free)(handle)
        self.owned.clear()


def c_api_runner(lib: ctypes.CDLL) -> Callable[..., bool]:
    """A runner for ``plain_openvino.run_case``: export the compiled model, import it through C, infer."""

    def run_c_api(compiled: ov.CompiledModel, calls: list[tuple[str, int, np.ndarray]],
                  output_0: np.ndarray) -> bool:
        exported = compiled.export_model()  # bytes before 2025, a BytesIO stream since
        session = CApiSession(lib, exported.getvalue() if hasattr(exported, "getvalue") else exported)
        try:
            return session.set_and_infer(calls, output_0)
        finally:
            session.close()

    return run_c_api


def main(argv: list[str] | None = None) -> int:
    plain = importlib.import_module(f"{__package__}.plain_openvino" if __package__ else "plain_openvino")
    return plain.main(sys.argv[1:] if argv is None else argv, only_api="c")


if __name__ == "__main__":
    sys.exit(main())
