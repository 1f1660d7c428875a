"""Every run_decompositions() materializes all of the C++ dispatcher's CompositeImplicitAutograd (CIA) ops once
per op namespace, not once: the cost of each call grows with the number of namespaces in the process.

torch._export.utils._collect_all_valid_cia_ops (run by every ExportedProgram.run_decompositions, through
_split_decomp_table_to_cia_and_python_decomp, and by default_decompositions().materialize()) caches only the
aten namespace. For each other namespace in torch.ops it calls _collect_all_valid_cia_ops_for_namespace, whose
first step, _materialize_cpp_cia_ops(), resolves every CIA op the C++ dispatcher knows, in every namespace. So one
call does (namespaces - 1) full materializations where one would give the same set.

1. Register NAMESPACES op libraries with torch.library (one CIA op each), as libraries that bring their own ops
   do (ExecuTorch with its OpenVINO backend brings torch to about 40 namespaces).
2. Count the materializations in one warm _collect_all_valid_cia_ops() call, and time it warm, as it is and with
   the C++ registry materialized once before the call (the same set comes back).
3. Time run_decompositions() of a small exported model the same two ways.

Needs only torch. Exit status (git bisect run): 0 one materialization per call, 1 more than one (the cost
reproduced), 2 usage error, 125 could not test (torch's internals moved).
"""

import argparse
import platform
import statistics
import sys
import time

import torch

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--namespaces", type=int, default=39, help="op libraries to register (default 39)")
parser.add_argument("--calls", type=int, default=5, help="warm calls timed each way (default 5)")
args = parser.parse_args()
if args.namespaces < 0 or args.calls < 1:
    parser.error("--namespaces takes 0 or more, --calls 1 or more")

try:
    from torch._export import utils as export_utils

    materialize = export_utils._materialize_cpp_cia_ops
    collect = export_utils._collect_all_valid_cia_ops
except AttributeError as missing:
    print(f"COULD NOT TEST: this torch has no {missing.name}", file=sys.stderr)
    sys.exit(125)

print(f"Python {platform.python_version()}, torch {torch.__version__}, {platform.platform()}, "
      f"{platform.processor() or platform.machine()}")

libraries = []  # kept alive: a Library deregisters its ops when it is collected
for index in range(args.namespaces):
    library = torch.library.Library(f"cia_reproducer_{index}", "DEF")
    library.define("twice(Tensor x) -> Tensor")
    library.impl("twice", lambda x: x * 2, "CompositeImplicitAutograd")
    libraries.append(library)
    getattr(torch.ops, f"cia_reproducer_{index}").twice  # noqa: B018  (torch.ops lists a namespace once used)

materializations = []  # one entry per materialization while counting


def counting_materialize():
    materializations.append(1)
    materialize()


def seconds(function, calls=args.calls):
    """The median of ``calls`` timed calls of ``function``, after one untimed (warm-up) call."""
    function()
    timings = []
    for _ in range(calls):
        started = time.perf_counter()
        function()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


class Small(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x @ x.T).softmax(-1)


exported = torch.export.export(Small(), (torch.randn(8, 8),))
as_is = {"collect": collect, "run_decompositions": exported.run_decompositions}
found = collect()  # cold: aten's own collection is cached from here on
export_utils._materialize_cpp_cia_ops = counting_materialize
try:
    collect()
    per_call = len(materializations)
    namespaces = [name for name in torch.ops._dir
                  if isinstance(getattr(torch.ops, name), torch._ops._OpNamespace)]
    timed = {what: seconds(call) for what, call in as_is.items()}
    # The same work with the registry materialized once per call, before it (what hoisting the call out of the
    # per-namespace loop would do); it must find the same ops.
    export_utils._materialize_cpp_cia_ops = lambda: None
    once = {what: (lambda call=call: (materialize(), call())) for what, call in as_is.items()}
    timed_once = {what: seconds(call) for what, call in once.items()}
    materialize()
    same = collect() == found
finally:
    export_utils._materialize_cpp_cia_ops = materialize

print(f"op namespaces in torch.ops: {len(namespaces)} ({args.namespaces} registered here)")
print(f"materializations of the C++ CIA registry in one _collect_all_valid_cia_ops(): {per_call}")
for what in as_is:
    print(f"{what}: {timed[what] * 1e3:.1f} ms per call as it is, {timed_once[what] * 1e3:.1f} ms with one "
          f"materialization ({timed[what] / timed_once[what]:.1f}x)")
print(f"the same {len(found)} CIA ops either way: {same}")
if per_call > 1:
    print(f"COST REPRODUCED: {per_call} materializations per call where one gives the same ops")
    sys.exit(1)
print("ONE MATERIALIZATION PER CALL")
sys.exit(0)
