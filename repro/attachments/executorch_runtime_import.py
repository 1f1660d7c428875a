"""`import executorch.runtime` imports all of executorch.exir, the compiler, to run a program: a process that only
loads and runs .pte files pays for export's Python at every start.

executorch/runtime/__init__.py imports executorch.extension.pybindings.portable_lib, whose first import is
`executorch.exir._warnings` (for the ExperimentalWarning it raises). Importing a submodule runs its package's
__init__ first, and executorch/exir/__init__.py imports exir's capture, emit, program, serde and tracer. What the
runtime needs is torch (the extension links libtorch) and the extension itself,
executorch.extension.pybindings._C.

1. In fresh processes, interleaved, time three imports: torch alone; executorch.runtime; and torch with the
   extension (`import torch, executorch.extension.pybindings._C`), what the runtime needs.
2. Count the executorch.exir modules each leaves loaded.

Needs executorch (and the torch it installs); the openvino wheel too if the extension was built with the OpenVINO
backend, as the pip wheel is. Exit status (git bisect run): 0 executorch.runtime does not load
executorch.exir.program, 1 it does (the cost reproduced), 2 usage error, 125 could not test.
"""

import argparse
import json
import platform
import statistics
import subprocess
import sys
from importlib.metadata import version

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--repeat", type=int, default=3, help="fresh processes per import, interleaved (default 3)")
args = parser.parse_args()
if args.repeat < 1:
    parser.error("--repeat takes 1 or more")

IMPORTS = {"import torch": "import torch",
           "import executorch.runtime": "import executorch.runtime",
           "what the runtime needs (torch and the extension)": "import torch, executorch.extension.pybindings._C"}
# Run in a fresh interpreter: the import's own time (not the interpreter's start) and what it left loaded.
CHILD = """
import json, sys, time, warnings
warnings.simplefilter("ignore")
started = time.perf_counter()
{statement}
seconds = time.perf_counter() - started
exir = sorted(name for name in sys.modules if name == "executorch.exir" or name.startswith("executorch.exir."))
print(json.dumps({{"seconds": seconds, "exir": exir}}))
"""


def imported(statement):
    result = subprocess.run([sys.executable, "-c", CHILD.format(statement=statement)], capture_output=True,
                            text=True, check=False)
    if result.returncode:
        print(f"COULD NOT TEST: `{statement}` failed: {result.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        sys.exit(125)
    return json.loads(result.stdout.splitlines()[-1])


try:
    releases = f"executorch {version('executorch')}, torch {version('torch')}"
except Exception as missing:
    print(f"COULD NOT TEST: {missing}", file=sys.stderr)
    sys.exit(125)
print(f"Python {platform.python_version()}, {releases}, {platform.platform()}, "
      f"{platform.processor() or platform.machine()}")

runs = {what: [] for what in IMPORTS}
for _ in range(args.repeat):
    for what, statement in IMPORTS.items():
        runs[what].append(imported(statement))
for what, measured in runs.items():
    seconds = statistics.median(run["seconds"] for run in measured)
    print(f"{what}: {seconds:.2f} s (median of {args.repeat}), {len(measured[-1]['exir'])} executorch.exir "
          f"modules loaded")
runtime = runs["import executorch.runtime"][-1]["exir"]
if "executorch.exir.program" in runtime:
    print(f"COST REPRODUCED: import executorch.runtime loads executorch.exir ({len(runtime)} modules, the program "
          "manager and emitter among them) through portable_lib's `import executorch.exir._warnings`")
    sys.exit(1)
print("executorch.runtime does not load the compiler")
sys.exit(0)
