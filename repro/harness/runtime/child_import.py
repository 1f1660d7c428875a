"""The runtime children import ExecuTorch's runtime without its compiler.

``import executorch.runtime`` imports all of ``executorch.exir``: the pybindings' first import is
``executorch.exir._warnings`` (for one warning class), and importing a submodule runs its package's
``__init__``, which imports exir's capture, emit, program, serde and tracer. Our ExecuTorch report says so
(``repro/attachments/executorch_runtime_import.py``). A process that only loads and runs programs needs none of
it, and the project's runtime children (``program_runner``) are such processes: on machine A the runtime's import
took 4.8 s with the compiler and 0.1 s without, after torch's 1.6 s. So they load ``_warnings`` alone, from
exir's folder, and the rest of the runtime as ExecuTorch ships it. The upstream env's test of that reproducer
turns red when ExecuTorch stops importing the compiler: then this module is retired.
"""

import importlib
import importlib.util
import sys

COMPILER = "executorch.exir"


def import_runtime_without_the_compiler() -> None:
    """``executorch.runtime`` imported with ``executorch.exir``'s package body left unrun: while it imports,
    ``executorch.exir`` is the package's folder alone (its spec, not its ``__init__``), so its submodules load by
    themselves. Afterwards ``executorch.exir`` is unimported again: a later ``import executorch.exir`` runs it
    whole."""
    if COMPILER in sys.modules:  # already paid for
        importlib.import_module("executorch.runtime")
        return
    spec = importlib.util.find_spec(COMPILER)
    if spec is None:
        raise ImportError(f"no {COMPILER} to import executorch.runtime beside")
    sys.modules[COMPILER] = importlib.util.module_from_spec(spec)
    try:
        importlib.import_module("executorch.runtime")
    finally:
        del sys.modules[COMPILER]
