"""ExecuTorch's OpenVINO backend hands OpenVINO every boundary tensor with its sizes only: a
channels-last frame fed to a delegated conv gives wrong values.

1. Export Conv2d(3, 8, 3, padding=1) with the stock OpenvinoPartitioner, once on a contiguous
   frame and once on the same frame in channels-last (as a camera pipeline produces it).
2. Run both in the ExecuTorch runtime (loaded from bytes) and compare with eager PyTorch.

OpenvinoBackend::create_ov_tensor wraps each buffer with tensor.sizes() and its data pointer,
never its dim order, so OpenVINO reads the channels-last bytes as if they were contiguous.

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 both correct, 1 a result is wrong, 2 usage error, 125 could not test.
"""

import glob
import os
import sys
from importlib.metadata import version

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)
if sys.argv[1:]:
    print("executorch_channels_last.py: error: takes no arguments (see --help)", file=sys.stderr)
    sys.exit(2)

import torch

try:
    import openvino
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec
    from executorch.runtime import Runtime
except ImportError as error:
    print(f"COULD NOT TEST: {error}")
    sys.exit(125)

libs = glob.glob(f"{os.path.dirname(openvino.__file__)}/libs/libopenvino_c.so*")
os.environ.setdefault("OPENVINO_LIB_PATH", libs[0])
print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, torch {torch.__version__}")

torch.manual_seed(0)
conv = torch.nn.Conv2d(3, 8, 3, padding=1).eval()
frame = torch.rand(1, 3, 16, 16)
wrong = False
for layout, x in (("contiguous", frame), ("channels-last", frame.to(memory_format=torch.channels_last))):
    edge = to_edge_transform_and_lower(torch.export.export(conv, (x,)),
                                       partitioner=[OpenvinoPartitioner([CompileSpec("device", b"CPU")])])
    program = Runtime.get().load_program(edge.to_executorch().buffer)
    actual = program.load_method("forward").execute([x])[0]
    diff = float((actual - conv(x)).abs().max())
    wrong |= diff > 1e-2
    print(f"{layout:13} frame: max |diff| to eager {diff:.3g}")
print("BUG REPRODUCED" if wrong else "OK: both frames equal eager")
sys.exit(1 if wrong else 0)
