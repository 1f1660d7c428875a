"""Every form of ``scaled_dot_product_attention`` users export lowers with the workaround and equals eager, by
path and from bytes: the attention kept whole for OpenVINO only where that lowers
(``copy_safe_partitioner.FUSED_WHEN_KEPT``), computed per group of KV heads where the preprocess recognizes it
(``workaround.partitioner.delegate.grouped_attention``). The forms of encoders (a padding mask, a dynamic
length), T5 (a relative position bias computed from a parameter), decoders (causal, cross-attention with a scale),
ViT (``nn.MultiheadAttention``), masks per head (ALiBi), unbatched inputs and ``enable_gqa``."""

import pytest

from tests.support.helpers import ad_hoc_case, assert_calls_equal, skip_module_without_executorch_path

skip_module_without_executorch_path()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from repro.harness.lowering.named import LOWERINGS  # noqa: E402
from repro.harness.lowering.to_edge import lower  # noqa: E402
from repro.harness.models.seed import SEED  # noqa: E402

pytestmark = pytest.mark.executorch
HEADS, DEPTH = 2, 8


def seeded(make):
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        return make()


class RelativePositionBias(torch.nn.Module):
    """T5's attention: a bias per head from an embedding of relative positions, plus a padding mask, no scale."""

    def __init__(self) -> None:
        super().__init__()
        self.projection = torch.nn.Linear(16, 3 * HEADS * DEPTH)
        self.bias = torch.nn.Embedding(8, HEADS)

    def forward(self, x, padding):
        batch, length, _ = x.shape
        query, key, value = self.projection(x).view(batch, length, 3, HEADS, DEPTH).permute(2, 0, 3, 1, 4)
        relative = torch.arange(length)[:, None] - torch.arange(length)[None, :]
        mask = self.bias(relative.clamp(0, 7)).permute(2, 0, 1)[None] + padding[:, None, None, :]
        return F.scaled_dot_product_attention(query, key, value, attn_mask=mask, scale=1.0)


class MaskIsAParameter(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.mask = torch.nn.Parameter(torch.randn(4, 4))

    def forward(self, query):
        return F.scaled_dot_product_attention(query, query, query, attn_mask=self.mask)


class MaskPerHead(torch.nn.Module):
    """ALiBi's form: a float bias of its own for each head, [1, H, L, S]."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("slopes", -0.5 * torch.arange(HEADS * 16.0).view(1, HEADS, 4, 4))

    def forward(self, query):
        return F.scaled_dot_product_attention(query, query, query, attn_mask=self.slopes)


class Attention(torch.nn.Module):
    """``F.scaled_dot_product_attention(query, key, value, **options)``."""

    def __init__(self, **options) -> None:
        super().__init__()
        self.options = options

    def forward(self, query, key, value):
        return F.scaled_dot_product_attention(query, key, value, **self.options)


class PaddingMask(torch.nn.Module):
    """BERT's form: a mask over the keys, [B, 1, 1, S], boolean or additive."""

    def forward(self, query, mask):
        return F.scaled_dot_product_attention(query, query, query, attn_mask=mask[:, None, None, :])


class MultiHead(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.attention = torch.nn.MultiheadAttention(16, HEADS, batch_first=True)

    def forward(self, x):
        return self.attention(x, x, x, need_weights=False)[0]


def normal(*shape, seed):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def additive_padding(batch, length, valid):
    mask = torch.zeros(batch, length)
    mask[:, valid:] = float("-inf")
    return mask


def heads_of_four_tokens():
    return [(normal(1, HEADS, 4, DEPTH, seed=step),) for step in range(2)]


def length_dynamic():
    length = torch.export.Dim("length", min=2, max=32)
    return (({2: length}, {1: length}),)


# form: (the model, each call's inputs, torch.export's dynamic_shapes or None)
FORMS = {
    "t5_relative_position_bias_from_a_parameter": (
        RelativePositionBias, [(normal(1, 6, 16, seed=step), additive_padding(1, 6, 4 + step))
                               for step in range(2)], None),
    "a_mask_that_is_a_parameter": (MaskIsAParameter, heads_of_four_tokens(), None),
    "a_float_mask_per_head": (MaskPerHead, heads_of_four_tokens(), None),
    "cross_attention_with_a_scale": (
        lambda: Attention(scale=0.3),
        [(normal(1, 4, 3, DEPTH, seed=step), *[normal(1, 4, 7, DEPTH, seed=9)] * 2) for step in range(2)], None),
    "causal_self_attention": (
        lambda: Attention(is_causal=True), [tuple(normal(1, HEADS, 5, DEPTH, seed=step + k) for k in range(3))
                                            for step in range(2)], None),
    "grouped_query_heads_enable_gqa": (
        lambda: Attention(enable_gqa=True),
        [(normal(1, 4, 3, DEPTH, seed=step), normal(1, 2, 3, DEPTH, seed=7), normal(1, 2, 3, DEPTH, seed=8))
         for step in range(2)], None),
    "unbatched_three_dimensional": (
        Attention, [(normal(4, 3, DEPTH, seed=step), normal(4, 5, DEPTH, seed=7), normal(4, 5, DEPTH, seed=8))
                    for step in range(2)], None),
    "a_boolean_padding_mask": (
        PaddingMask, [(normal(2, HEADS, 5, DEPTH, seed=0), torch.tensor([[1, 1, 1, 0, 0], [1] * 5]).bool())],
        None),
    "an_additive_padding_mask_at_a_dynamic_length": (
        PaddingMask, [(normal(1, HEADS, length, DEPTH, seed=length), additive_padding(1, length, valid))
                      for length, valid in ((6, 4), (9, 9), (3, 2))], length_dynamic),
    "vit_multihead_attention": (MultiHead, [(normal(1, 5, 16, seed=step),) for step in range(2)], None),
}


@pytest.mark.parametrize("form", list(FORMS))
def test_an_attention_form_lowers_and_equals_eager(runners, tmp_path, form):
    make_model, calls, dynamic_shapes = FORMS[form]
    model = seeded(make_model).eval()
    edge = lower(ad_hoc_case(model, calls[0], form, dynamic_shapes=dynamic_shapes), LOWERINGS["workaround"])
    path = tmp_path / f"{form}.pte"
    path.write_bytes(edge.to_executorch().buffer)
    with torch.no_grad():
        expected = [[model(*map(torch.clone, call))] for call in calls]
    # contiguous: eager's attention over permuted heads (T5) returns its result in the heads' strides, which no
    # lowering keeps
    assert_calls_equal(runners, path, calls, expected, tolerance=1e-5, same_strides=False)
