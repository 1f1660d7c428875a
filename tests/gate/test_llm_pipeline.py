"""The gate's slice of the LLM tier (``tox -e llm`` runs the whole, ``repro/llm_tier.py``): ExecuTorch's own LLM
pipeline with the OpenVINO backend, as the Llama example configures it (a KV cache, static shapes), on a tiny
random-weight llama3_2, uncompressed. Stock, the pipeline fails before lowering (``quantizers[0]`` of an empty
list); with ``workaround.install()`` first it exports, and a prefill and decode steps equal the reference from
bytes and by path."""

import pytest

from tests.support.helpers import skip_module_without_executorch_path
from tests.support.outcomes import LoweringFailed, WrongValues, expected_failure

skip_module_without_executorch_path()
pytest.importorskip("nncf", reason="ExecuTorch's OpenVINO LLM pipeline imports NNCF")
from repro.harness.llm.pipeline import LlmCase  # noqa: E402
from repro.harness.llm.runs import run_llm_case  # noqa: E402

pytestmark = pytest.mark.executorch
EXAMPLE_UNCOMPRESSED = LlmCase("llama3_2", kv_cache=True, dynamic_shape=False, compression=None)


@pytest.fixture(scope="module")
def llm_record(runners, pte_dir):
    made = {}

    def record(lowering):
        if lowering not in made:
            made[lowering] = run_llm_case(EXAMPLE_UNCOMPRESSED, lowering, runners, pte_dir / "llm")
        return made[lowering]

    return record


@pytest.mark.parametrize("lowering", [
    pytest.param("stock", marks=expected_failure(
        "lowering_failed", "export_llama_lib passes quantizers[0] to NNCF whatever the config: IndexError")),
    "workaround"])
def test_uncompressed_kv_cache_llama_equals_its_reference_both_loads(llm_record, lowering):
    record = llm_record(lowering)
    if record.export.error is not None:
        raise LoweringFailed(f"the pipeline failed: {record.export.error}")
    if not record.equal:
        raise WrongValues(str(record.as_json()))
    assert (record.export.delegates, record.export.nodes_outside) == (1, 0), record.as_json()
    # its 4 KV caches (2 layers) are OpenVINO state: none crosses the delegate's boundary
    assert record.export.buffers_outside == 0, record.as_json()


def test_the_stock_pipeline_fails_on_the_empty_quantizer_list_only(llm_record):
    """The measured reason of the expected failure above, so a new one is not taken for it."""
    assert llm_record("stock").export.error == "IndexError: list index out of range"
