"""ExecuTorch's own text runner (``TextLLMRunner``) on programs exported by ExecuTorch's LLM pipeline
(``export_llm``), as a model owner runs them: by path, a tokenizer trained here, greedy, two conversations with
``reset()`` between and a prompt that continues one (``repro.harness.llm.conversation``). Each turn's tokens are
held, token for token, to the reference's greedy decoding: the graph the pipeline lowered, run by PyTorch, each new
conversation starting from the model's initial state.

The workaround's programs, for Llama-, Qwen3- and LFM2-class models (LFM2: a convolution state not indexed by
position), static and dynamic shapes, uncompressed and 4-bit; stock and XNNPACK as rows; the runner without and
with the line ``openvino-runtime-env`` prints."""

import os
import subprocess
import sys

import pytest

from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()

import torch  # noqa: E402

from repro.harness.llm import tokenizer  # noqa: E402
from repro.harness.llm.conversation import CONVERSATION, run_runner  # noqa: E402
from repro.harness.llm.pipeline import TINY_PARAMS, LlmCase, PipelineSettings  # noqa: E402
from repro.harness.llm.runs import exported  # noqa: E402
from workaround.contract.openvino_library import VARIABLE  # noqa: E402

pytestmark = pytest.mark.executorch
MODEL_CLASSES = ("llama3_2", "qwen3_0_6b", "lfm2_350m")
# turn 1 is turn 0's prompt after reset(): a new conversation says the same
RESET_TURN = 1


@pytest.fixture(scope="session")
def tokenizer_file(tmp_path_factory):
    return tokenizer.train(tmp_path_factory.mktemp("tokenizer") / "tokenizer.model",
                           TINY_PARAMS["llama3_2"]["vocab_size"])


def conversation_settings(tokenizer_file):
    """The tier's tiny models, a 64-token cache (two turns of a conversation fit), the conversation's prompts."""
    prompts = tuple((turn.reset_before, tuple(tokenizer.encode(tokenizer_file, turn.prompt)))
                    for turn in CONVERSATION)
    return PipelineSettings(max_context_length=64, conversation=prompts)


def runtime_environment(with_openvino=True):
    """This environment, the variable the runner finds OpenVINO by set as ``openvino-runtime-env`` prints it (a
    model owner's ``eval "$(openvino-runtime-env)"``), or removed."""
    environment = {name: value for name, value in os.environ.items() if name != VARIABLE}
    if with_openvino:
        line = subprocess.run([sys.executable, "-m", "workaround.runtime_env"], capture_output=True, text=True,
                              check=True).stdout.strip()
        name, value = line.removeprefix("export ").split("=", 1)
        environment[name] = value.strip("'")
    return environment


def exported_program(case_name, lowering, tokenizer_file, folder):
    record = exported(LlmCase.from_name(case_name), lowering, folder, conversation_settings(tokenizer_file))
    assert record.error is None, record.error
    return folder / "program.pte", torch.load(folder / "reference.pt")["turns"]


def held_to_reference(run, reference_turns, tokenizer_file):
    """Each turn the runner said, against the reference's pieces: (turn, said, expected) for each that differs."""
    assert run.status == "ok", f"{run.status}: {run.detail}"
    expected = [tokenizer.pieces(tokenizer_file, tokens) for tokens in reference_turns]
    assert len(run.turns) == len(expected)
    return [(turn, said, wanted) for turn, (said, wanted) in enumerate(zip(run.turns, expected, strict=True))
            if said != wanted]


@pytest.mark.parametrize("compression", ["none", "4wo"])
@pytest.mark.parametrize("shape", ["static", "dynamic"])
@pytest.mark.parametrize("model_class", MODEL_CLASSES)
def test_the_workarounds_program_generates_the_references_tokens_across_resets(tmp_path, tokenizer_file,
                                                                              model_class, shape, compression):
    program, reference = exported_program(f"{model_class}-kv-{shape}-{compression}", "workaround", tokenizer_file,
                                          tmp_path)
    run = run_runner(program, tokenizer_file, environment=runtime_environment())
    assert held_to_reference(run, reference, tokenizer_file) == []


def test_a_stock_program_crashes_the_runner(tmp_path, tokenizer_file):
    """Stock exports only compressed (uncompressed: the pipeline's IndexError); by path, as the runner loads, the
    freed blob crashes it (bug-facts: ExecuTorch 1.5.1 with OpenVINO 2026.4)."""
    program, _ = exported_program("llama3_2-kv-static-4wo", "stock", tokenizer_file, tmp_path)
    run = run_runner(program, tokenizer_file, environment=runtime_environment())
    assert run.status == "SIGSEGV", f"{run.status}: {run.detail} -- the by-path crash is gone: retire this row"


def test_without_the_variable_the_runner_cannot_find_openvino(tmp_path, tokenizer_file):
    """The first run a model owner makes, before ``openvino-runtime-env``: the runner says only that generation
    failed (the backend's log says why). (Importing ``executorch.runtime`` first would have set the variable:
    its pybindings look for OpenVINO; the runner's binding does not.)"""
    program, _ = exported_program("llama3_2-kv-static-none", "workaround", tokenizer_file, tmp_path)
    environment = runtime_environment(with_openvino=False)
    environment.pop("LD_LIBRARY_PATH", None)
    run = run_runner(program, tokenizer_file, environment=environment)
    assert (run.status, run.detail) == ("failed", "Generation failed")


def test_without_the_conversation_start_a_reset_keeps_the_last_conversations_state(tmp_path, tokenizer_file):
    """ExecuTorch's LFM2 as shipped, through XNNPACK (its own backend, no workaround installed): ``reset()`` sets
    the runner's position to 0 and leaves the convolution state, so the new conversation differs from its first
    saying, and so does the one it goes on into. What ``workaround.install()`` fixes at export
    (``workaround.partitioner.hooks.llm_pipeline``) and the ``lfm2-conversation-start`` series upstream: when
    ExecuTorch's model or runner resets the state, this goes red: retire it."""
    program, reference = exported_program("lfm2_350m-kv-static-none", "xnnpack", tokenizer_file, tmp_path)
    run = run_runner(program, tokenizer_file, environment=runtime_environment(), llm_kernels=True)
    differing = [turn for turn, _, _ in held_to_reference(run, reference, tokenizer_file)]
    assert differing[:1] == [RESET_TURN], f"turns that differ: {differing}"
