"""Real model families, built from tiny configs with seeded random weights (no model hub), as catalogue
``Case``s: what a model owner exports, none of it written here.

All from transformers: a BERT with an attention mask (int64 inputs, embeddings, layer norm, attention),
GPT-2 with its KV cache (a prefill that returns the cache, which starts empty, and a decode step that takes
it), a ViT, the encoder of a T5, and three CNN backbones: a ConvNeXt, a MobileNetV2 and a ResNet run
channels-last returning its feature maps. (timm's would be the obvious CNNs, but timm imports torchvision,
whose only wheels on this machine's index are CUDA builds that cannot load beside the CPU torch.) Each
case's tolerance is what OpenVINO's bf16 arithmetic on this CPU leaves on that depth of network
(measured); the bugs differ by the size of the values.
"""

import torch

from repro.harness.cpu import precision
from repro.harness.models.catalogue import Case
from repro.harness.models.seed import SEED

DEEP_ATOL = precision.tolerance(precision.DEEP)  # 1e-3 at f32, 5e-2 at bf16 (two to six layers)


def _seeded(make):
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        return make().eval()


def _tokens(*shape, vocab=96):
    return torch.randint(0, vocab, shape, generator=torch.Generator().manual_seed(SEED))


def _pixels(*shape):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(SEED))


class Tensors(torch.nn.Module):
    """A model whose forward returns the named fields of its output as a tuple of tensors."""

    def __init__(self, model: torch.nn.Module, *fields: str) -> None:
        super().__init__()
        self.model, self.fields = model, fields

    def forward(self, *inputs: torch.Tensor) -> tuple[torch.Tensor, ...]:
        output = self.model(*inputs)
        return tuple(getattr(output, field) for field in self.fields)


class Gpt2Prefill(torch.nn.Module):
    """GPT-2 on a prompt with use_cache: the logits and every layer's keys and values (the cache starts empty)."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, ...]:
        output = self.model(input_ids, use_cache=True)
        cache = output.past_key_values
        return (output.logits, *(tensor for layer in cache.layers for tensor in (layer.keys, layer.values)))


class Gpt2DecodeStep(torch.nn.Module):
    """GPT-2 on one new token, given the cache of the prompt as tensors: the logits and the grown cache."""

    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, *keys_and_values: torch.Tensor) -> tuple[torch.Tensor, ...]:
        from transformers import DynamicCache

        cache = DynamicCache(config=self.model.config)
        for layer, index in enumerate(range(0, len(keys_and_values), 2)):
            cache.update(keys_and_values[index], keys_and_values[index + 1], layer)
        output = self.model(input_ids, past_key_values=cache, use_cache=True)
        grown = output.past_key_values
        return (output.logits, *(tensor for layer in grown.layers for tensor in (layer.keys, layer.values)))


def _gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel

    return GPT2LMHeadModel(GPT2Config(n_embd=32, n_layer=2, n_head=2, vocab_size=96, n_positions=64))


def _gpt2_prompt_cache():
    """The prompt's cache, as eager GPT-2 makes it: the decode step's inputs."""
    with torch.no_grad():
        return Gpt2Prefill(_seeded(_gpt2))(_tokens(1, 6))[1:]


def bert() -> "Tensors":
    from transformers import BertConfig, BertModel

    config = BertConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                        vocab_size=96, max_position_embeddings=64)
    return Tensors(BertModel(config, add_pooling_layer=False), "last_hidden_state")


def vit() -> "Tensors":
    from transformers import ViTConfig, ViTModel

    config = ViTConfig(hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                       image_size=32, patch_size=8)
    return Tensors(ViTModel(config, add_pooling_layer=False), "last_hidden_state")


def t5_encoder() -> "Tensors":
    from transformers import T5Config, T5EncoderModel

    config = T5Config(d_model=32, d_ff=64, d_kv=16, num_layers=2, num_heads=2, vocab_size=96)
    return Tensors(T5EncoderModel(config), "last_hidden_state")


def bart() -> "Tensors":
    """An encoder-decoder: the decoder's causal self-attention and its cross-attention over the encoder."""
    from transformers import BartConfig, BartModel

    config = BartConfig(d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                        decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, vocab_size=96,
                        max_position_embeddings=64)
    return Tensors(BartModel(config), "last_hidden_state")


def whisper_encoder() -> "Tensors":
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    config = WhisperConfig(d_model=32, encoder_layers=2, encoder_attention_heads=2, encoder_ffn_dim=64,
                           num_mel_bins=16, max_source_positions=16)
    return Tensors(WhisperEncoder(config), "last_hidden_state")


def convnext() -> "Tensors":
    from transformers import ConvNextConfig, ConvNextModel

    return Tensors(ConvNextModel(ConvNextConfig(num_stages=2, hidden_sizes=[16, 32], depths=[1, 1])),
                   "pooler_output")


def mobilenet_v2() -> "Tensors":
    from transformers import MobileNetV2Config, MobileNetV2Model

    return Tensors(MobileNetV2Model(MobileNetV2Config(image_size=64, depth_multiplier=0.35)), "pooler_output")


class ChannelsLastFeatures(torch.nn.Module):
    """A ResNet in channels-last returning its stages' feature maps (as a detection backbone does)."""

    def __init__(self) -> None:
        from transformers import ResNetConfig, ResNetModel

        super().__init__()
        config = ResNetConfig(embedding_size=16, hidden_sizes=[16, 32, 64], depths=[1, 1, 1], layer_type="basic")
        self.model = ResNetModel(config).to(memory_format=torch.channels_last)

    def forward(self, pixels: torch.Tensor) -> tuple[torch.Tensor, ...]:
        return tuple(self.model(pixels, output_hidden_states=True).hidden_states[1:])


def _mask():
    return torch.tensor([[1, 1, 1, 1, 1, 1, 0, 0]])


# name -> (what, the module's builder, its inputs): built on demand (``case``), so that naming them needs no
# transformers.
MODELS = {
    "bert_with_attention_mask": ("transformers BertModel, 2 layers, input_ids and attention_mask (int64)", bert,
                                 lambda: (_tokens(1, 8), _mask())),
    "gpt2_prefill_with_kv_cache": ("transformers GPT-2 LM, 2 layers, use_cache: logits and the cache",
                                   lambda: Gpt2Prefill(_gpt2()), lambda: (_tokens(1, 6),)),
    "gpt2_decode_step": ("transformers GPT-2 LM, one token on the prompt's cache: logits and the grown cache",
                         lambda: Gpt2DecodeStep(_gpt2()), lambda: (_tokens(1, 1), *_gpt2_prompt_cache())),
    "vit": ("transformers ViTModel, 2 layers, 32x32 image", vit, lambda: (_pixels(1, 3, 32, 32),)),
    "t5_encoder": ("transformers T5EncoderModel, 2 layers", t5_encoder, lambda: (_tokens(1, 8),)),
    "bart": ("transformers BartModel, 1 encoder and 1 decoder layer: causal and cross-attention", bart,
             lambda: (_tokens(1, 8),)),
    "whisper_encoder": ("transformers WhisperEncoder, 2 layers, 16 mel bins x 32 frames", whisper_encoder,
                        lambda: (_pixels(1, 16, 32),)),
    "convnext": ("transformers ConvNextModel, 2 stages, pooled", convnext, lambda: (_pixels(1, 3, 64, 64),)),
    "mobilenet_v2": ("transformers MobileNetV2Model, depth 0.35, pooled", mobilenet_v2,
                     lambda: (_pixels(1, 3, 64, 64),)),
    "resnet_channels_last_features": ("transformers ResNetModel in channels-last, its three feature maps",
                                      ChannelsLastFeatures,
                                      lambda: (_pixels(1, 3, 64, 64).to(memory_format=torch.channels_last),)),
}


def case(name: str) -> Case:
    """The catalogue ``Case`` of one model: seeded random weights, eval mode."""
    what, build, inputs = MODELS[name]
    return Case(name, what, _seeded(build), inputs, atol=DEEP_ATOL)
