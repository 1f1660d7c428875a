"""Attention over a KV cache computed per group of KV heads inside the delegate
(``workaround.partitioner.delegate.grouped_attention``): the cache neither repeated nor transposed, and the program
equal to eager call after call, by path and from bytes, for the shapes of attention an LLM export makes and a few
it does not (no repeat, no mask, a 4-d mask, a boolean mask, a prefill of several tokens, a causal flag, which is
left to OpenVINO)."""

import pytest

from tests.support.helpers import ad_hoc_case, skip_module_without_executorch_path

skip_module_without_executorch_path()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from repro.harness.lowering.named import LOWERINGS  # noqa: E402
from repro.harness.lowering.to_edge import lower  # noqa: E402
from workaround.partitioner.delegate import grouped_attention  # noqa: E402
from workaround.partitioner.delegate.grouped_attention import ATTENTION, rewrite  # noqa: E402
from workaround.partitioner.graph.nodes import aten_op  # noqa: E402

pytestmark = pytest.mark.executorch
LENGTH, DEPTH, KV_HEADS = 16, 8, 2


class CachedAttention(torch.nn.Module):
    """One attention step over a static KV cache written at ``position``, as ExecuTorch's Llama exports it."""

    def __init__(self, times: int, mask: str, causal: bool = False) -> None:
        super().__init__()
        self.times, self.mask_kind, self.causal = times, mask, causal
        self.register_buffer("keys", torch.zeros(1, KV_HEADS, LENGTH, DEPTH))
        self.register_buffer("values", torch.zeros(1, KV_HEADS, LENGTH, DEPTH))
        self.register_buffer("mask", torch.triu(torch.full((LENGTH, LENGTH), float("-inf")), 1))
        self.register_buffer("allowed", torch.ones(LENGTH, LENGTH, dtype=torch.bool).tril())

    def forward(self, query, key, value, position):
        self.keys[:, :, position] = key
        self.values[:, :, position] = value
        keys, values = self.keys, self.values
        if self.times > 1:
            keys, values = keys.repeat_interleave(self.times, dim=1), values.repeat_interleave(self.times, dim=1)
        mask = {"none": None, "rows": self.mask[position], "4-d": self.mask[position][None, None],
                "boolean": self.allowed[position]}[self.mask_kind]
        return F.scaled_dot_product_attention(query, keys, values, attn_mask=mask, is_causal=self.causal)


VARIANTS = {
    "grouped_heads_one_token": (dict(times=2, mask="rows"), 1, True),
    "a_boolean_mask_as_llama_makes": (dict(times=2, mask="boolean"), 1, True),
    "grouped_heads_a_prefill_of_four": (dict(times=4, mask="rows"), 4, True),
    "one_kv_head_per_query_head": (dict(times=1, mask="rows"), 1, True),
    "a_4d_mask": (dict(times=2, mask="4-d"), 1, True),
    "no_mask": (dict(times=2, mask="none"), 1, True),
    "causal_left_to_openvino": (dict(times=2, mask="none", causal=True), 4, False),
}


def calls(times, tokens):
    generator = torch.Generator().manual_seed(0)

    def random(*shape):
        return torch.randn(*shape, generator=generator)

    return [(random(1, KV_HEADS * times, tokens, DEPTH), random(1, KV_HEADS, tokens, DEPTH),
             random(1, KV_HEADS, tokens, DEPTH), torch.arange(start, start + tokens, dtype=torch.int32))
            for start in range(0, LENGTH - tokens + 1, max(tokens, 3))]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_attention_over_a_cache_equals_eager_call_after_call(runners, tmp_path, monkeypatch, variant):
    options, tokens, rewritten = VARIANTS[variant]
    inputs = calls(options["times"], tokens)
    converted = []  # the ops of each partition as the preprocess hands it to OpenVINO's frontend

    def rewrite_and_keep(graph_module):
        count = rewrite(graph_module)
        converted.append([aten_op(node) for node in graph_module.graph.nodes if node.op == "call_function"])
        return count

    monkeypatch.setattr(grouped_attention, "rewrite", rewrite_and_keep)
    edge = lower(ad_hoc_case(CachedAttention(**options), inputs[0], "cached_attention"), LOWERINGS["workaround"])
    (ops,) = converted
    assert (ATTENTION not in ops) == rewritten, ops
    if rewritten:  # the caches are read where they lie: neither repeated nor transposed
        assert torch.ops.aten.expand_copy.default not in ops
    path = tmp_path / "cached_attention.pte"
    path.write_bytes(edge.to_executorch().buffer)
    model = CachedAttention(**options)
    with torch.no_grad():
        expected = [model(*(tensor.clone() for tensor in call)) for call in inputs]
    # by path, as deployments load; the example's shape from bytes too (how a program is loaded does not change
    # what the delegate computes, and each load costs the gate a run)
    for load, runner in runners.items() if variant == "grouped_heads_one_token" else [("path", runners["path"])]:
        run = runner.run_calls(path, inputs)
        assert run.outputs is not None, f"{load}: {run.status} {run.detail}"
        for step, (outputs, wanted) in enumerate(zip(run.outputs, expected, strict=True)):
            difference = float((outputs[0] - wanted).abs().max() / wanted.abs().max())
            assert difference <= 1e-6, f"{load}, call {step}: {difference:.1e} of the largest value"
