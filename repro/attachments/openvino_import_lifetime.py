"""OpenVINO's C API import keeps reading the caller's buffer after it returns (from 2026.4.0).

1. Build y = x + c (c: a 2x3 float32 Constant), compile it for CPU, export it.
2. Copy the blob into memory this script owns; import it with ov_core_import_model, as
   ExecuTorch's OpenVINO backend does (the backend frees that memory right after).
3. After the import returned, overwrite the 24 bytes of c inside that memory with -7.
4. Infer through the C API: y == x + c if the import copied the blob, y == x - 7 if the
   compiled model still reads the caller's memory.

Needs only `pip install openvino numpy`. Exit status (git bisect run): 0 the import copied,
1 it reads the caller's buffer after returning, 125 could not test. `--json` for one JSON line.
"""

import ctypes
import importlib
import json
import platform
import sys
from pathlib import Path

try:
    import numpy as np
    import openvino as ov
except ImportError as missing:
    print(json.dumps({"verdict": f"COULD NOT TEST: {missing}", "exit_code": 125}) if "--json" in sys.argv
          else f"COULD NOT TEST: {missing}")
    sys.exit(125)
try:
    import openvino.opset8 as ops
except ImportError:  # before 2025.0 the opsets live under openvino.runtime
    import openvino.runtime.opset8 as ops

EXIT_OK, EXIT_BUG, EXIT_UNTESTABLE = 0, 1, 125
AS_JSON = sys.argv[1:] == ["--json"]
USAGE = ("usage: openvino_import_lifetime.py [--json]\nexit status (git-bisect convention): 0 the import copied "
         "the blob, 1 bug reproduced, 2 usage error, 125 could not test")
if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__ + "\n" + USAGE)
    sys.exit(0)
if sys.argv[1:] not in ([], ["--json"]):
    print("openvino_import_lifetime.py: error: unknown arguments (usage: openvino_import_lifetime.py [--json])",
          file=sys.stderr)
    sys.exit(2)
VERSION = (ov if hasattr(ov, "get_version") else importlib.import_module("openvino.runtime")).get_version()
REPORT = {"openvino": VERSION, "python": platform.python_version(), "os": platform.platform()}


def finish(code, verdict):
    print(json.dumps({**REPORT, "verdict": verdict, "exit_code": code}) if AS_JSON else verdict)
    sys.exit(code)


libs = sorted((Path(ov.__file__).parent / "libs").glob("libopenvino_c.so*"))
if not libs:
    finish(EXIT_UNTESTABLE, "COULD NOT TEST: this wheel ships no libopenvino_c (wheels from 2024.3 do)")
lib = ctypes.CDLL(str(libs[0]))
handle, size_t, pointer = ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)


class Shape(ctypes.Structure):
    _fields_ = [("rank", ctypes.c_int64), ("dims", ctypes.POINTER(ctypes.c_int64))]


lib.ov_core_import_model.argtypes = [handle, ctypes.c_char_p, size_t, ctypes.c_char_p, pointer]
lib.ov_compiled_model_input_by_index.argtypes = [handle, size_t, pointer]
lib.ov_tensor_create_from_host_ptr.argtypes = [ctypes.c_int, Shape, handle, pointer]
lib.ov_infer_request_set_input_tensor_by_index.argtypes = [handle, size_t, handle]
lib.ov_infer_request_set_output_tensor_by_index.argtypes = [handle, size_t, handle]

# 1. y = x + c, compiled and exported.
c = np.random.default_rng(0).uniform(0.5, 1.5, (2, 3)).astype(np.float32)
x = ops.parameter([2, 3], np.float32, name="x")
exported = ov.Core().compile_model(ov.Model([ops.result(ops.add(x, ops.constant(c)))], [x]), "CPU").export_model()
blob = exported.getvalue() if hasattr(exported, "getvalue") else exported  # bytes before 2025, a stream since
where = blob.find(c.tobytes())
if where < 0:
    finish(EXIT_UNTESTABLE, "COULD NOT TEST: the constant's bytes are not in the exported blob")

# 2. Import from memory the caller owns.
content = ctypes.create_string_buffer(blob, len(blob))
core, compiled, request = handle(), handle(), handle()
lib.ov_core_create(ctypes.byref(core))
status = lib.ov_core_import_model(core, content, len(blob), b"CPU", ctypes.byref(compiled))
if status != 0:
    finish(EXIT_UNTESTABLE, f"COULD NOT TEST: ov_core_import_model returned {status}")

# 3. The import has returned: the caller reuses its memory (ExecuTorch frees it).
ctypes.memmove(ctypes.addressof(content) + where, np.full(c.shape, -7, np.float32).tobytes(), c.nbytes)

# 4. Infer through the C API with tensors over our own buffers.
lib.ov_compiled_model_create_infer_request(compiled, ctypes.byref(request))
port, element_type = handle(), ctypes.c_int()  # the f32 code differs between releases: ask the port
lib.ov_compiled_model_input_by_index(compiled, 0, ctypes.byref(port))
lib.ov_port_get_element_type(port, ctypes.byref(element_type))


def tensor_over(array):
    shape, tensor = Shape(), handle()
    lib.ov_shape_create(array.ndim, (ctypes.c_int64 * array.ndim)(*array.shape), ctypes.byref(shape))
    lib.ov_tensor_create_from_host_ptr(element_type, shape, array.ctypes.data_as(handle), ctypes.byref(tensor))
    return tensor


x_data = np.random.default_rng(1).uniform(0.5, 1.5, (2, 3)).astype(np.float32)
y = np.full((2, 3), 123.0, np.float32)
lib.ov_infer_request_set_input_tensor_by_index(request, 0, tensor_over(x_data))
lib.ov_infer_request_set_output_tensor_by_index(request, 0, tensor_over(y))
lib.ov_infer_request_infer(request)

REPORT.update(expected=(x_data + c)[0].tolist(), actual=y[0].tolist())
if not AS_JSON:
    print(f"OpenVINO {REPORT['openvino']}, Python {REPORT['python']}, {REPORT['os']}")
    print(f"expected y[0] = x + c = {REPORT['expected']}\nactual   y[0]         = {REPORT['actual']}")
if np.allclose(y, x_data - 7, atol=1e-2):
    finish(EXIT_BUG, "BUG REPRODUCED: the compiled model reads the caller's buffer after ov_core_import_model "
                     "returned (y == x - 7 once the constant's bytes were overwritten)")
if np.allclose(y, x_data + c, atol=1e-2):
    finish(EXIT_OK, "OK: ov_core_import_model copied the blob (y == x + c)")
finish(EXIT_BUG, "BUG REPRODUCED: y is neither x + c nor x - 7")
