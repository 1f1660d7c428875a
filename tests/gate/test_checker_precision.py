"""``openvino-pte-check`` says the precision each delegate runs at, imported as ExecuTorch 1.5.1's runtime
imports it, and flags a delegate lowered asking for f32 that imports at another precision here. The importing
environment decides, so the same file is checked twice: as is, and in a process whose ISA is capped
(``OV_CPU_MAX_ISA=AVX512_CORE``: no bf16 kernels, so f32)."""

import json

import pytest

from repro.harness.cpu import precision
from tests.support.helpers import cpu_default_is_bf16, run_cli, skip_module_without_executorch_path

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch
DEFAULT = precision.without_cap()  # the CPU's default precision, as a deployment imports
F32_CAPPED = {**DEFAULT, "OV_CPU_MAX_ISA": "AVX512_CORE"}  # measured: the CPU plugin's default becomes f32


@pytest.fixture(scope="module")
def pinned_program(tmp_path_factory):
    """A Linear lowered with the workaround asking for f32 (``workaround.PRECISION_KEY``), saved as a .pte."""
    import torch
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import PRECISION_KEY, CopySafeOpenvinoPartitioner

    torch.manual_seed(0)
    model, x = torch.nn.Linear(64, 64).eval(), torch.rand(2, 64)
    specs = [CompileSpec("device", b"CPU"), CompileSpec(PRECISION_KEY, b"f32")]
    program = to_edge_transform_and_lower(torch.export.export(model, (x,)),
                                          partitioner=[CopySafeOpenvinoPartitioner(specs)]).to_executorch()
    path = tmp_path_factory.mktemp("precision") / "pinned.pte"
    path.write_bytes(program.buffer)
    return path


def check(pte, environment):
    result = run_cli("python", "-m", "workaround.check", pte, "--json", env=environment)
    assert result.returncode in (0, 1), result.stderr[-2000:]
    return result.returncode, json.loads(result.stdout)


def test_a_delegate_asking_for_f32_that_imports_at_bf16_is_a_finding(pinned_program):
    code, report = check(pinned_program, DEFAULT)
    [found] = report["precision"]
    bf16 = cpu_default_is_bf16()
    assert found == {"delegate": 0, "runs_at": "bf16" if bf16 else "f32", "asked": "f32",
                         "spec": "inference_precision"}
    kinds = [finding["kind"] for finding in report["findings"]]
    assert kinds == (["precision_not_kept"] if bf16 else []), report["findings"]
    assert code == (1 if bf16 else 0)


def test_the_importing_environment_decides_the_precision(pinned_program):
    code, report = check(pinned_program, F32_CAPPED)
    assert [p["runs_at"] for p in report["precision"]] == ["f32"]
    assert not report["findings"]
    assert code == 0


def test_the_text_report_says_each_delegates_precision(pinned_program):
    result = run_cli("python", "-m", "workaround.check", pinned_program, env=DEFAULT)
    runs_at = "bf16" if cpu_default_is_bf16() else "f32"
    assert f"OpenVINO delegate 0 runs at {runs_at} here (asked for f32 (inference_precision))" in result.stdout
