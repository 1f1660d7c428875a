"""ExecuTorch's own LLM pipeline with the OpenVINO backend, as a model owner runs it: ``export_llm``'s config
(``backend.openvino.enabled``, ``quantization.pt2e_quantize=openvino_8wo|openvino_4wo``, a KV cache or not,
static or dynamic shapes) over tiny random-weight checkpoints of model classes the pipeline knows, stock or with
``workaround.install()`` first, in the same process. No model hub: each class's ``params.json`` is written here,
small, with the features its real config has (Qwen3's QK norm and explicit head size, Phi-4-mini's partial
rotary embedding and scaled RoPE).

An export runs in a child (``python -m repro.harness.llm.pipeline``): the pipeline and ``install()`` change
process-wide state. The child writes the program, the calls a model owner's runner would make (a prefill, then
greedy decode steps), and the reference outputs for those calls. The reference is the graph the pipeline hands to
the partitioner, run by PyTorch: ``torch.export``'s program of the model (eager PyTorch's ops), or for compressed
weights the graph NNCF's ``compress_pt2e`` made of it with each weight decompressed exactly (in float32, as
OpenVINO decompresses it, where NNCF's graph rounds it to float16), so that what is measured is the delegate, not
the quantization (docs/design.md, "LLMs through ExecuTorch's pipeline").
"""

import copy
import json
import sys
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from repro.harness.llm.conversation import greedy_turns
from repro.harness.llm.tokenizer import BOS, EOS

PROMPT_LENGTH = 5
DECODE_STEPS = 4
MAX_SEQ_LENGTH = 16  # export.max_seq_length: the static no-cache program's window
MAX_CONTEXT_LENGTH = 32
GROUP_SIZE = 32  # quantization.group_size: the tiny models' rows are 64 wide (the example's 128 needs 128)
COMPRESSIONS = (None, "openvino_8wo", "openvino_4wo")
# Llama-3.2-1B's shapes (its params.json: hidden 8192 from ffn_dim_multiplier 1.5), for what runs at real width.
LLAMA_3_2_1B = {"dim": 2048, "hidden_dim": 8192, "n_heads": 32, "n_kv_heads": 8, "n_layers": 16,
                "vocab_size": 128256}

_COMMON = {"dim": 64, "hidden_dim": 128, "n_heads": 4, "n_kv_heads": 2, "n_layers": 2, "vocab_size": 128,
           "ffn_dim_multiplier": 1}
# Each model class's params.json, small: what its real config (ExecuTorch's examples/models/<class>/config)
# turns on, kept.
TINY_PARAMS: dict[str, dict[str, Any]] = {
    "llama3_2": {**_COMMON, "norm_eps": 1e-05, "rope_theta": 500000.0, "use_scaled_rope": True},
    "qwen3_0_6b": {**_COMMON, "head_dim": 16, "norm_eps": 1e-06, "rope_theta": 1000000.0, "use_scaled_rope": False,
                   "use_hf_rope": True, "attention_qkv_bias": False, "use_qk_norm": True,
                   "qk_norm_before_rope": True},
    "phi_4_mini": {**_COMMON, "norm_eps": 1e-05, "rope_theta": 10000.0, "use_scaled_rope": False,
                   "use_hf_rope": True, "partial_rotary_factor": 0.75, "attention_qkv_bias": False,
                   "original_max_position_embeddings": 16, "max_position_embeddings": 64,
                   "rope_scaling_short_factor": [1.0] * 6,
                   "rope_scaling_long_factor": [1.0, 1.5, 2.0, 2.5, 3.0, 3.5]},
    # A hybrid: a short-convolution block, whose state (conv_state) is not indexed by position, and an attention
    # block with Qwen3-style QK norm, as LFM2's config has them.
    "lfm2_350m": {**_COMMON, "norm_eps": 1e-05, "rope_theta": 1000000.0, "use_scaled_rope": False,
                  "use_hf_rope": True, "use_qk_norm": True, "qk_norm_before_rope": True,
                  "layer_types": ["conv", "full_attention"]},
}


@dataclass(frozen=True)
class LlmCase:
    """One configuration of the pipeline, as ``export_llm``'s options name it."""

    model_class: str
    kv_cache: bool
    dynamic_shape: bool
    compression: str | None  # quantization.pt2e_quantize, None for none

    @property
    def name(self) -> str:
        return "-".join([self.model_class, "kv" if self.kv_cache else "nokv",
                         "dynamic" if self.dynamic_shape else "static",
                         (self.compression or "openvino_none").removeprefix("openvino_")])

    @classmethod
    def from_name(cls, name: str) -> "LlmCase":
        parts = name.rsplit("-", 3)
        model_class, cache, shape, compression = parts if len(parts) == 4 else ("", "", "", "")
        if model_class not in TINY_PARAMS or cache not in ("kv", "nokv") or shape not in ("dynamic", "static") \
                or compression not in ("none", "8wo", "4wo"):
            raise ValueError(f"not an LLM case: {name!r} (model class {'|'.join(TINY_PARAMS)}, kv|nokv, "
                             "static|dynamic, none|8wo|4wo, joined by '-')")
        return cls(model_class, cache == "kv", shape == "dynamic",
                   None if compression == "none" else f"openvino_{compression}")


def every_case() -> list[LlmCase]:
    return [LlmCase(model_class, kv_cache, dynamic_shape, compression) for model_class in TINY_PARAMS
            for kv_cache in (True, False) for dynamic_shape in (False, True) for compression in COMPRESSIONS]


# stock and workaround: the OpenVINO backend without and with workaround.install(); quantizing activations: the
# workaround installed with OpenVINO's dynamic quantization asked for (int8 speed for compressed weights, not
# exact); xnnpack: the pipeline's XNNPACK backend instead. The last two are timed (benchmarks/llm_decode_cost.py).
QUANTIZING_ACTIVATIONS = "workaround-quantizing-activations"
LOWERINGS = ("stock", "workaround", QUANTIZING_ACTIVATIONS, "xnnpack")
QUANTIZED_GROUP_SIZE = b"32"  # OpenVINO's CPU default for DYNAMIC_QUANTIZATION_GROUP_SIZE


# XNNPACK's own quantization at the weight bits of each OpenVINO compression, as the pipeline offers it: 8-bit
# weights with int8 activations quantized at run time (pt2e ``xnnpack_dynamic``), and ``8da4w`` (4-bit weights in
# groups, int8 activations).
XNNPACK_QUANTIZATION: dict[str, dict[str, str]] = {"openvino_8wo": {"pt2e_quantize": "xnnpack_dynamic"},
                                                   "openvino_4wo": {"qmode": "8da4w"}}


@dataclass(frozen=True)
class PipelineSettings:
    """What ``export_llm`` is asked besides the case: the model's sizes (``params.json``, over the tiny model's),
    the static windows, the group size of compressed weights, and whether the reference is made (a benchmark at
    real width needs none: it would hold a second copy of the model and run it)."""

    sizes: dict[str, int] = field(default_factory=dict)
    max_seq_length: int = MAX_SEQ_LENGTH
    max_context_length: int = MAX_CONTEXT_LENGTH
    group_size: int = GROUP_SIZE
    reference: bool = True
    # A conversation through ExecuTorch's text runner (repro.harness.llm.conversation): each turn's (reset before
    # it, prompt tokens); the reference's greedy tokens for it are saved with the reference.
    conversation: tuple[tuple[bool, tuple[int, ...]], ...] = ()


TIER = PipelineSettings()  # the LLM tier's: the tiny model, 16- and 32-token windows, groups of 32


@dataclass(frozen=True)
class ExportRecord:
    """What the export child leaves in its folder's ``record.json``."""

    case: str
    lowering: str  # one of LOWERINGS
    error: str | None  # the pipeline's exception, its type and message's last line, None when it exported
    delegates: int | None
    nodes_inside: int | None  # call_function nodes inside OpenVINO delegates
    nodes_outside: int | None  # call_function nodes left to ExecuTorch's kernels (getitem not counted)
    ops_outside: list[str] | None  # those nodes' ops, once each, sorted
    buffers_outside: int | None  # mutated buffers (KV caches) ExecuTorch keeps: each crosses a delegate every call


def llm_config(case: LlmCase, folder: Path, lowering: str = "stock",
               settings: PipelineSettings = TIER) -> Any:
    """The LlmConfig ``export_llm`` builds from its YAML and command line (Hydra, then OmegaConf), for ``case``
    with the OpenVINO backend, or XNNPACK's for ``lowering`` xnnpack (its own quantization at the same bits)."""
    from executorch.extension.llm.export.config.llm_config import LlmConfig
    from omegaconf import OmegaConf

    options: dict[str, Any] = {
        "base": {"model_class": case.model_class, "params": str(folder / "params.json"),
                 "checkpoint": str(folder / "checkpoint.pth")},
        "model": {"use_kv_cache": case.kv_cache, "enable_dynamic_shape": case.dynamic_shape,
                  "dtype_override": "fp32"},
        # output_name is taken as it is when it ends in .pte (output_dir is then ignored): a full path.
        "export": {"max_seq_length": settings.max_seq_length, "max_context_length": settings.max_context_length,
                   "output_dir": str(folder), "output_name": str(folder / "program.pte")},
        "backend": {"xnnpack" if lowering == "xnnpack" else "openvino": {"enabled": True}},
    }
    if settings.conversation:  # the runner's BOS and EOS: the tokenizer's (repro.harness.llm.tokenizer)
        options["base"]["metadata"] = json.dumps({"get_bos_id": BOS, "get_eos_ids": [EOS]})
    if lowering == "xnnpack" and case.kv_cache:  # the XNNPACK example's attention: its cache updated in place
        options["model"]["use_sdpa_with_kv_cache"] = True
    if case.compression:
        asked = (XNNPACK_QUANTIZATION[case.compression] if lowering == "xnnpack"
                 else {"pt2e_quantize": case.compression})
        options["quantization"] = {**asked, "group_size": settings.group_size}
    return OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(LlmConfig), OmegaConf.create(options)))


def write_checkpoint(case: LlmCase, folder: Path, settings: PipelineSettings = TIER) -> None:
    """``params.json`` and a seeded random checkpoint with the names the pipeline loads; ``settings.sizes``
    overrides the tiny model's (``dim``, ``n_layers``, ...: a benchmark's larger model)."""
    import torch
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    params = {**TINY_PARAMS[case.model_class], **settings.sizes}
    (folder / "params.json").write_text(json.dumps(params))
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(**params, max_seq_len=settings.max_context_length,
                                            max_context_len=settings.max_context_length))
    with torch.no_grad():  # larger than the default init, so that logits differ visibly between tokens
        for parameter in model.parameters():
            parameter.normal_(0.0, 0.2) if parameter.dim() > 1 else parameter.uniform_(0.5, 1.5)
    torch.save(model.state_dict(), folder / "checkpoint.pth")


def prompt() -> list[int]:
    import torch

    generator = torch.Generator().manual_seed(1)
    vocab = TINY_PARAMS["llama3_2"]["vocab_size"]
    return torch.randint(1, vocab, (PROMPT_LENGTH,), generator=generator).tolist()


def call_inputs(case: LlmCase, tokens: list[int], step: int) -> list[list[Any]]:
    """The runner's calls for the sequence ``tokens`` at ``step`` (0: the prefill of the prompt; then one decode
    step each), as the program's flat inputs: tokens [1, n], and with a KV cache the position [1]."""
    import torch

    def ids(values):
        return torch.tensor([values], dtype=torch.long)

    if case.kv_cache:
        if step == 0 and not case.dynamic_shape:  # a static program takes one token a call
            return [[ids([token]), torch.tensor([position])] for position, token in enumerate(tokens)]
        start = 0 if step == 0 else len(tokens) - 1
        return [[ids(tokens[start:]), torch.tensor([start])]]
    if case.dynamic_shape:
        return [[ids(tokens)]]
    window = tokens[-MAX_SEQ_LENGTH:]  # the static program's fixed window, padded on the left with token 0
    return [[ids([0] * (MAX_SEQ_LENGTH - len(window)) + window)]]


def reference_calls(case: LlmCase, module: Any) -> tuple[list[list[Any]], list[Any]]:
    """The calls a prefill and ``DECODE_STEPS`` greedy steps make, each next token the reference's argmax, and the
    reference's logits for each call: ``module`` (a graph the pipeline made) run by PyTorch."""
    import torch

    tokens, calls, outputs = prompt(), [], []
    for step in range(DECODE_STEPS + 1):
        step_calls = call_inputs(case, tokens, step)
        for call in step_calls:
            with torch.no_grad():
                logits = module(call[0], {"input_pos": call[1]}) if case.kv_cache else module(call[0])
            calls.append(call)
            outputs.append(logits.detach().clone())
        tokens = [*tokens, int(outputs[-1].reshape(-1, outputs[-1].shape[-1])[-1].argmax())]
    return calls, outputs


def exactly_decompressed(module: Any) -> Any:
    """``module`` with each of NNCF's weight decompressors computing ``(q - zero_point) * scale`` in float32 rather
    than in its scale's float16: the exact weight, which is what OpenVINO computes
    (``workaround.partitioner.rules.openvino_hand_back``,
    ``decompressed_weight``). A module without compressed weights is returned as it is."""
    from nncf.torch.quantization.layers import BaseWeightsDecompressor

    for submodule in module.modules():
        if isinstance(submodule, BaseWeightsDecompressor):
            submodule._scale = submodule._scale.float()
    return module


def contents(edge: Any) -> dict[str, Any]:
    """The ``ExportRecord`` fields that count what the partitioner delegated in the lowered edge program."""
    from repro.harness.cases.program_contents import delegated_and_outside_ops, is_delegate_call

    inside, outside = delegated_and_outside_ops(edge)
    program = edge.exported_program()
    return {"delegates": sum(1 for node in program.graph.nodes if is_delegate_call(node)),
            "nodes_inside": len(inside), "nodes_outside": len(outside), "ops_outside": sorted(set(outside)),
            "buffers_outside": len(program.graph_signature.buffers_to_mutate)}


def export(case: LlmCase, lowering: str, folder: Path,
           settings: PipelineSettings = TIER) -> ExportRecord:
    """Runs the pipeline for ``case`` in this process (``workaround.install()`` first for the workaround), writing
    ``program.pte``, and ``reference.pt`` (the calls and the reference's outputs) when the graph reached the
    partitioner and ``settings`` asks for it."""
    if lowering not in LOWERINGS:
        raise ValueError(f"not a lowering of the pipeline: {lowering!r} ({'|'.join(LOWERINGS)})")
    import torch
    from executorch.examples.models.llama import export_llama_lib
    from executorch.extension.llm.export.builder import LLMEdgeManager

    write_checkpoint(case, folder, settings)
    if lowering in ("workaround", QUANTIZING_ACTIVATIONS):
        from executorch.exir.backend.compile_spec_schema import CompileSpec

        import workaround
        from workaround.partitioner.delegate.compressed_weights import DYNAMIC_QUANTIZATION

        asked = CompileSpec(DYNAMIC_QUANTIZATION, QUANTIZED_GROUP_SIZE)
        workaround.install(compile_specs=[asked] if lowering == QUANTIZING_ACTIVATIONS else [])
    seen: dict[str, Any] = {}
    lower = LLMEdgeManager.to_edge_transform_and_lower

    def lowered_after_keeping_the_reference(self, *arguments, **options):
        if settings.reference:
            seen["reference"] = exactly_decompressed(copy.deepcopy(self.pre_autograd_graph_module))
        result = lower(self, *arguments, **options)
        seen["contents"] = contents(self.edge_manager)  # before to_executorch adds its out variants and allocs
        return result

    LLMEdgeManager.to_edge_transform_and_lower = lowered_after_keeping_the_reference
    try:
        export_llama_lib.export_llama(llm_config(case, folder, lowering, settings))
        error = None
    except Exception as exception:  # the pipeline's failure is the finding
        lines = str(exception).strip().splitlines() or [""]
        error = f"{type(exception).__name__}: {lines[-1][:300]}"
        traceback.print_exc()
    finally:
        LLMEdgeManager.to_edge_transform_and_lower = lower
    if "reference" in seen:
        # the conversation first: the calls below leave the reference's buffers (LFM2's conv_state) mutated
        turns = greedy_turns(seen["reference"], [(reset, list(prompt)) for reset, prompt in settings.conversation],
                             case.dynamic_shape, EOS) if settings.conversation else []
        calls, outputs = reference_calls(case, seen["reference"])
        torch.save({"calls": calls, "outputs": outputs, "turns": turns}, folder / "reference.pt")
    counts = seen.get("contents", dict.fromkeys(("delegates", "nodes_inside", "nodes_outside", "ops_outside",
                                                       "buffers_outside")))
    record = ExportRecord(case.name, lowering, error, **counts)
    (folder / "record.json").write_text(json.dumps(asdict(record), indent=1))
    return record


if __name__ == "__main__":  # python -m repro.harness.llm.pipeline CASE LOWERING FOLDER [SETTINGS_JSON]
    export(LlmCase.from_name(sys.argv[1]), sys.argv[2], Path(sys.argv[3]),
           PipelineSettings(**json.loads(sys.argv[4])) if len(sys.argv) > 4 else TIER)
