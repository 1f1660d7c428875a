"""A Llama from ExecuTorch's own ``export_llm`` at Llama-3.2-1B's width (dim 2048, 32 heads, 8 KV heads, a 128256
vocabulary), two layers, random weights, uncompressed: 2.6 GB, equal to the reference by path and from bytes. A
module of its own, so the 2.25 GiB programs of ``test_programs_past_the_flatbuffer_limit.py`` are gone from the
disk before it writes its checkpoint and program."""

import json

import pytest

from repro.harness.cpu.precision import F32_ISA_CAP
from repro.harness.llm.pipeline import LLAMA_3_2_1B
from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()

pytestmark = pytest.mark.executorch
GIB = 1 << 30
F32 = F32_ISA_CAP  # f32 on every CPU class (repro/harness/cpu/precision.py); a no-op on AVX2
LLAMA_1B_WIDTH = {**LLAMA_3_2_1B, "n_layers": 2}


def test_a_llama_at_1b_width_from_export_llm_past_2_gib_equals_its_reference_by_path_and_from_bytes(tmp_path):
    from repro.harness.llm.pipeline import LlmCase, PipelineSettings
    from repro.harness.llm.runs import exported as llm_exported
    from repro.harness.llm.runs import run_loads
    from repro.harness.runtime.program_runner import ProgramRunner

    case = LlmCase("llama3_2", kv_cache=True, dynamic_shape=False, compression=None)
    record = llm_exported(case, "workaround", tmp_path, PipelineSettings(LLAMA_1B_WIDTH))
    assert record.error is None, record
    assert record.delegates == 1, record
    assert record.nodes_outside == 0, record
    assert (tmp_path / "program.pte").stat().st_size > 2 * GIB
    with ProgramRunner("path", timeout=900, environment=F32) as by_path, \
            ProgramRunner("bytes", timeout=900, environment=F32) as from_bytes:
        runs = run_loads(tmp_path, {"path": by_path, "bytes": from_bytes})
    print(json.dumps({load: {"status": run.status, "difference": run.max_relative_difference}
                      for load, run in runs.items()}))
    assert all(run.equal for run in runs.values()), runs

