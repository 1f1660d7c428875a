"""OpenVINO CPU plugin: an exported blob imports only on the CPU class that exported it, though its model does not
depend on the class (ahead-of-time export breaks across CPUs).

Exit status (git bisect run): 0 a blob stamped for another CPU imports (or the release stamps nothing), 1 it is
refused, 2 usage error.
"""
import io
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np

try:  # 2025.0 and later (2026 has no openvino.runtime)
    import openvino as ov
    import openvino.opset8 as ops
except ImportError:  # 2023.0 - 2024.6
    import openvino.runtime as ov
    import openvino.runtime.opset8 as ops

MAGIC, HEADER = b"RR_UPCVO", struct.Struct("<8sIQ")  # the header 2026.4 writes: magic, version, text length
ISA_NAMES = ("Intel AVX2", "Intel AVX-512 with Intel DL Boost and bfloat16 support")  # two classes' ISA names


def stamp(blob):  # (version, text, size of the header), or None where the blob has no header
    if not blob.startswith(MAGIC):
        return None
    version, length = HEADER.unpack_from(blob)[1:]
    return version, blob[HEADER.size:HEADER.size + length].decode(), HEADER.size + length


def with_text(blob, text):  # the blob a host whose importer builds ``text`` would have exported
    version, _, size = stamp(blob)
    return HEADER.pack(MAGIC, version, len(text.encode())) + text.encode() + blob[size:]


def imported(core, blob, data):  # the imported model's output, or the importer's reason for refusing it
    try:
        return core.import_model(io.BytesIO(blob), "CPU")([data])[0]
    except RuntimeError as error:
        return next((line.strip() for line in str(error).splitlines() if "[CPU]" in line), str(error)[-300:])


def exported(core):  # a one-layer model compiled at f32 and exported
    x = ops.parameter([2, 8], np.float32, name="x")
    weights = ops.constant(np.arange(64, dtype=np.float32).reshape(8, 8) / 64)
    model = ov.Model([ops.relu(ops.matmul(x, weights, False, False))], [x])
    blob = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).export_model()
    return blob.getvalue() if hasattr(blob, "getvalue") else bytes(blob)  # bytes before 2024.x, a BytesIO after


if sys.argv[1:2] == ["--export-to"] and len(sys.argv) == 3:  # the child of step 3: export as an AVX2 host would
    with open(sys.argv[2], "wb") as file:
        file.write(exported(ov.Core()))
    raise SystemExit(0)
if sys.argv[1:]:
    print(__doc__ if sys.argv[1:] in (["-h"], ["--help"]) else "takes no arguments (see --help)")
    raise SystemExit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
core = ov.Core()
blob = exported(core)
data = np.linspace(0.5, 2, 16, dtype=np.float32).reshape(2, 8)
print("OpenVINO", ov.get_version())
found = stamp(blob)
if found is None:
    print("the exported blob has no compatibility header: it imports on every CPU class")
    raise SystemExit(0)
version, own, _ = found
print(f"1. exported here, stamped (header version {version}): {own}")
original = imported(core, blob, data)  # at this host's default precision, as any importer here runs it
print("   imported here:", original.ravel()[:4], "...")
other = next(name for name in ISA_NAMES if not own.endswith("isa=" + name))
foreign_text = own.rsplit("isa=", 1)[0] + "isa=" + other
foreign = with_text(blob, foreign_text)
print(f"2. the same blob stamped as a host with {other} exports it ({foreign_text}):")
refused = imported(core, foreign, data)
print("   imported here:", refused if isinstance(refused, str) else refused.ravel()[:4])
with tempfile.TemporaryDirectory() as folder:  # oneDNN's ISA cap makes a child compute and stamp as AVX2
    path = os.path.join(folder, "avx2.blob")
    child = {**os.environ, "ONEDNN_MAX_CPU_ISA": "AVX2", "OV_CPU_MAX_ISA": "AVX2"}
    subprocess.run([sys.executable, __file__, "--export-to", path], env=child, check=True)
    with open(path, "rb") as file:
        avx2 = file.read()
avx2_text, avx2_body = stamp(avx2)[1], avx2[stamp(avx2)[2]:]
if avx2_text == own:
    print("3. (this host computes as AVX2 already: no higher class to export from here)")
else:
    print(f"3. exported by a child whose kernels are capped at AVX2 ({avx2_text}); its model after the header is "
          f"{'byte for byte' if avx2_body == blob[found[2]:] else 'NOT'} this host's")
    back = imported(core, with_text(avx2, own), data)
    same = not isinstance(back, str) and np.array_equal(back, original)
    print(f"   with this host's stamp instead: imports and {'equals' if same else 'DIFFERS FROM'} this host's own")
if isinstance(refused, str):
    print("BUG REPRODUCED: a blob stamped for another CPU class is refused, though only its stamp differs")
    raise SystemExit(1)
print("OK: a blob stamped for another CPU class imports")
