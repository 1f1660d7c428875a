"""ExecuTorch's portable runtime (the pip wheel's): ops it has no kernel for, and kernels that compute otherwise
than PyTorch. No delegate, no partitioner: each model is exported with to_edge_transform_and_lower() and run with
executorch.runtime from a .pte file, all of them in one child process (a kernel may abort: the child is started
again past the program it aborted in).

1. Missing kernels: torch.sort, F.avg_pool3d and F.max_pool3d export to aten::sort.values,
   aten::avg_pool3d.out and aten::max_pool3d_with_indices.out, and load_method fails with error 0x14
   (OperatorMissing). Backends hand such ops back to these kernels when they cannot compute them themselves
   (the OpenVINO delegate computes int64 in 32 bits, so an int64 sort has nowhere to go).
2. Kernels that differ from PyTorch:
   - remainder of integers takes the dividend's sign (kernels/portable/cpu/util/math_util.h,
     remainder_override for integral types: `return a % b;`): remainder(123456789, -10) is 9, PyTorch -1;
   - ceil (floor, round, trunc) of int32 goes through float (kernels/portable/cpu/pattern/
     unary_ufunc_realhbf16.cpp: `float xi = static_cast<float>(val_in)`): 16777217 comes back 16777216;
   - pow of int64 saturates where PyTorch wraps around: (2**40 + 3) ** 2;
   - max_pool2d drops a NaN that is not first in its window (PyTorch: NaN);
   - sign(NaN) is NaN (PyTorch: 0);
   - _log_softmax of float64 fails in execute (0x12).

Needs torch and executorch; takes no arguments. Exit status (git bisect run): 0 every op ran as PyTorch, 1 an
op is missing or differs, 2 usage error, 125 could not test (nothing exported).
"""

import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch
import torch.nn.functional as F

NAN = float("nan")
I32, I64 = torch.int32, torch.int64


def case(function, *inputs):
    return function, inputs


CASES = {
    "sort (int64)": case(lambda x: torch.sort(x)[0], torch.tensor([2**40, 3, -5, 7])),
    "avg_pool3d": case(lambda x: F.avg_pool3d(x, 2), torch.ones(1, 1, 4, 4, 4)),
    "max_pool3d": case(lambda x: F.max_pool3d(x, 2), torch.arange(64.0).reshape(1, 1, 4, 4, 4)),
    "remainder (int32, signs differ)": case(torch.remainder, torch.tensor([123456789, -7], dtype=I32),
                                            torch.tensor([-10, 2], dtype=I32)),
    "ceil (int32 above 2**24)": case(torch.ceil, torch.tensor([16777217, 3], dtype=I32)),
    "pow (int64 beyond 2**63)": case(lambda x: x**2, torch.tensor([2**40 + 3, 3], dtype=I64)),
    "max_pool2d (NaN in a window)": case(lambda x: F.max_pool2d(x, 2), torch.tensor([[[[1.0, NAN], [2.0, 3.0]]]])),
    "sign (NaN)": case(torch.sign, torch.tensor([NAN, -2.0, 0.0, 3.0])),
    "log_softmax (float64)": case(lambda x: x.log_softmax(1), torch.rand(2, 3, dtype=torch.float64)),
}
RUN = """
import sys, torch
from executorch.runtime import Runtime
for folder in sys.argv[1:]:
    print(folder, flush=True)  # where this process was, should a kernel abort it
    try:
        method = Runtime.get().load_program(f"{folder}/model.pte").load_method("forward")
        torch.save(list(method.execute(torch.load(f"{folder}/inputs.pt"))), f"{folder}/out.pt")
    except RuntimeError as error:
        with open(f"{folder}/error.txt", "w") as file:
            file.write(f"RuntimeError: {error}")
"""


class Forward(torch.nn.Module):
    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *inputs):
        return self.function(*inputs)


def export(function, inputs, folder):
    from executorch.exir import to_edge_transform_and_lower

    program = to_edge_transform_and_lower(torch.export.export(Forward(function), inputs)).to_executorch()
    with open(f"{folder}/model.pte", "wb") as file:
        file.write(program.buffer)
    torch.save(list(inputs), f"{folder}/inputs.pt")


def run_all(folders):
    """Each folder's program run in one child process, started again past any program it aborts in; returns
    {folder: why it aborted} for those."""
    aborted, remaining = {}, list(folders)
    while remaining:
        child = subprocess.run([sys.executable, "-c", RUN, *remaining], capture_output=True, text=True,
                               check=False)
        if not child.returncode:
            break
        reached = [line for line in child.stdout.splitlines() if line in remaining] or remaining[:1]
        error = [line for line in child.stderr.splitlines() if "error" in line.lower()][-1:]
        aborted[reached[-1]] = error[0].strip() if error else f"exit {child.returncode}"
        remaining = remaining[remaining.index(reached[-1]) + 1:]
    return aborted


def same(got, expected):
    """Exactly equal (NaN where PyTorch has NaN), dtype and shape included."""
    return got.dtype == expected.dtype and got.shape == expected.shape and torch.equal(
        got.isnan() if got.is_floating_point() else got, expected.isnan() if expected.is_floating_point()
        else expected) and torch.equal(got.nan_to_num(), expected.nan_to_num())


def outcome(folder, expected, aborted):
    """(right, what to print) for the program run in ``folder``."""
    if folder in aborted:
        return False, f"fails: {aborted[folder]}"
    if os.path.exists(f"{folder}/error.txt"):
        with open(f"{folder}/error.txt") as file:
            return False, f"fails: {file.read()}"
    got = torch.load(f"{folder}/out.pt")[0]
    right = same(got, expected)
    verdict = "right" if right else "WRONG"
    return right, f"{verdict}: {got.flatten().tolist()} (PyTorch: {expected.flatten().tolist()})"


def main():
    print(f"executorch {version('executorch')}, torch {version('torch')}")
    said, expected = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        for number, (name, (function, inputs)) in enumerate(CASES.items()):
            folder = os.path.join(scratch, str(number))
            os.mkdir(folder)
            try:
                export(function, inputs, folder)
                expected[name] = folder, function(*inputs)
            except Exception as error:  # an export failure is a row, not a result
                said[name] = True, f"not exported ({type(error).__name__}: {str(error).splitlines()[0][:100]})"
        aborted = run_all(folder for folder, _ in expected.values())
        said.update({name: outcome(folder, value, aborted) for name, (folder, value) in expected.items()})
    if not expected:
        print("COULD NOT TEST: nothing exported")
        return 125
    for name in CASES:
        print(f"{name}: {said[name][1]}")
    wrong = sum(not right for right, _ in said.values())
    print(f"BUG REPRODUCED: {wrong} of {len(CASES)} missing or computed otherwise" if wrong
          else "OK: every op as PyTorch")
    return 1 if wrong else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif sys.argv[1:]:
        print("executorch_portable_kernels.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
