"""The runtime children import ExecuTorch's runtime without its compiler
(``repro/harness/runtime/child_import.py``): only ``executorch.exir._warnings`` of exir is loaded, the OpenVINO
backend is registered, and exir is left unimported for a later import to run whole. (That ``import
executorch.runtime`` as ExecuTorch ships it still loads the compiler is the upstream env's test of our report's
reproducer: when it turns red, retire the module.)"""

import json
import sys

from tests.support.helpers import run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
from repro.harness.runtime.child_import import COMPILER, import_runtime_without_the_compiler  # noqa: E402
from workaround.contract.provenance import OPENVINO_BACKEND  # noqa: E402

IMPORT_AND_SAY = """
import json, sys
from repro.harness.runtime.child_import import import_runtime_without_the_compiler
import_runtime_without_the_compiler()
from executorch.runtime import Runtime
print(json.dumps({"exir": sorted(name for name in sys.modules if name.startswith("executorch.exir")),
                  "backends": list(Runtime.get().backend_registry.registered_backend_names)}))
"""


def test_a_fresh_process_loads_the_runtime_with_one_module_of_the_compiler():
    result = run_cli("python", "-c", IMPORT_AND_SAY)
    assert result.returncode == 0, result.stderr[-2000:]
    said = json.loads(result.stdout.splitlines()[-1])
    assert said["exir"] == ["executorch.exir._warnings"], "the rest of exir stays unimported, the package included"
    assert OPENVINO_BACKEND in said["backends"]


def test_a_process_that_already_imported_the_compiler_keeps_it():
    import executorch.exir

    import_runtime_without_the_compiler()
    assert sys.modules[COMPILER] is executorch.exir
    assert hasattr(sys.modules[COMPILER], "to_edge_transform_and_lower")
