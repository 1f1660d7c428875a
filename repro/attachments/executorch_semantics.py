"""ExecuTorch's OpenvinoPartitioner delegates integer, float64 and reflection-padding ops that OpenVINO's CPU
plugin computes differently from PyTorch: wrong values, no error.

1. Export five one-op models with the stock OpenvinoPartitioner: int64 x * x, uint8 x + y, int32 x // y,
   float64 x * 2, and reflection padding (which decomposes into an Abs of an arange).
2. Run each in the ExecuTorch runtime (loaded from bytes) and compare with eager PyTorch, exactly.

OpenVINO's CPU plugin computes integers in 32 bits, u8/i8 arithmetic saturates, float64 runs as float32,
integer division goes through float32, and it drops the Abs of a constant Range at compile time.

Needs torch, executorch, nncf and openvino installed; takes no arguments. Exit status (git bisect run):
0 every model equals eager, 1 one differs, 2 usage error, 125 could not test.
"""

import glob
import os
import sys
from importlib.metadata import version

if sys.argv[1:] in (["-h"], ["--help"]):
    print(__doc__)
    sys.exit(0)
if sys.argv[1:]:
    print("executorch_semantics.py: error: takes no arguments (see --help)", file=sys.stderr)
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


class Model(torch.nn.Module):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *inputs):
        return self.function(*inputs)


models = [  # what, function, inputs
    ("int64 x * x", lambda x: x * x, (torch.tensor([100000]),)),
    ("uint8 x + y", lambda x, y: x + y, (torch.tensor([250], dtype=torch.uint8),
                                         torch.tensor([10], dtype=torch.uint8))),
    ("int32 x // y", lambda x, y: x // y, (torch.tensor([123456789], dtype=torch.int32),
                                           torch.tensor([10], dtype=torch.int32))),
    ("float64 x * 2", lambda x: x * 2, (torch.tensor([1e300], dtype=torch.float64),)),
    ("reflection pad (2, 1)", lambda x: torch.nn.functional.pad(x, (2, 1), mode="reflect"),
     (torch.arange(5.0).reshape(1, 1, 5),)),
]
wrong = False
for what, function, inputs in models:
    edge = to_edge_transform_and_lower(torch.export.export(Model(function), inputs),
                                       partitioner=[OpenvinoPartitioner([CompileSpec("device", b"CPU")])])
    program = Runtime.get().load_program(edge.to_executorch().buffer)
    actual, expected = program.load_method("forward").execute(list(inputs))[0], function(*inputs)
    same = actual.dtype == expected.dtype and torch.equal(actual, expected)
    wrong |= not same
    print(f"{what}: {'equal' if same else 'WRONG'}: eager {expected.flatten().tolist()}, "
          f"delegate {actual.flatten().tolist()}")
print("BUG REPRODUCED" if wrong else "OK: every model equals eager")
sys.exit(1 if wrong else 0)
