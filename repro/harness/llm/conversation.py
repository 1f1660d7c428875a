"""A conversation through ExecuTorch's own text runner (``TextLLMRunner``), as a model owner runs an exported LLM,
and the same conversation decoded greedily by the graph the pipeline lowered, run by PyTorch.

The runner loads the program by path, prefills each prompt (one token a call for a static program, the whole
prompt in one call for a dynamic one), then feeds back each token it picks, greedily at temperature 0; its
position goes on from turn to turn until ``reset()``, which sets it back to 0 and touches nothing else
(``extension/llm/runner/text_llm_runner.cpp``). A turn after ``reset()`` is a new conversation: the reference
starts it from the model's initial state, as eager's ``reset_cache()`` would. A turn without it continues the
conversation where the last one stopped: the runner never feeds its last picked token, so neither does the
reference.

The runner runs in a child (``python -m repro.harness.llm.conversation PTE TOKENIZER TURNS_JSON
[--llm-kernels]``): a stock program crashes by path, and the runner finds OpenVINO only through the environment it
is given (``workaround.contract.openvino_library``).
"""

import copy
import json
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

NEW_TOKENS = 12  # per turn: GenerationConfig(max_new_tokens=...)


@dataclass(frozen=True)
class Turn:
    """One ``generate()`` of the runner: its prompt, and whether ``reset()`` comes first."""

    prompt: str
    reset_before: bool = False


# Two conversations: a prompt, the same prompt after reset() (a new conversation must say the same), another
# prompt continuing that conversation, and that prompt again in a new one.
CONVERSATION = (Turn("the robot arm moves left"), Turn("the robot arm moves left", reset_before=True),
                Turn("open the box"), Turn("open the box", reset_before=True))


@dataclass(frozen=True)
class RunnerRun:
    """What the runner child said: each turn's pieces, or how it failed."""

    status: str  # "ok", "failed" (the runner raised: its message in detail), or how the child ended
    turns: list[list[str]]
    detail: str = ""


def greedy_turns(module: Any, turns: list[tuple[bool, list[int]]], dynamic_shape: bool, eos: int
                 ) -> list[list[int]]:
    """Each turn's tokens as the runner would pick them from ``module`` (a graph the pipeline made, taking
    ``(tokens, {"input_pos": position})``), given each turn's (reset before it, prompt tokens)."""
    import torch

    initial = copy.deepcopy(module)
    model, position, picked = copy.deepcopy(initial), 0, []

    def step(tokens: list[int]) -> int:
        nonlocal position
        with torch.no_grad():
            logits = model(torch.tensor([tokens]), {"input_pos": torch.tensor([position])})
        position += len(tokens)
        return int(logits.reshape(-1, logits.shape[-1])[-1].argmax())

    for reset_before, prompt in turns:
        if reset_before:
            model, position = copy.deepcopy(initial), 0
        token = step(prompt) if dynamic_shape else [step([prompt_token]) for prompt_token in prompt][-1]
        tokens = [token]
        while len(tokens) < NEW_TOKENS and token != eos:
            token = step([token])
            tokens.append(token)
        picked.append(tokens)
    return picked


def run_runner(program: Path, tokenizer: Path, *, turns: tuple[Turn, ...] = CONVERSATION,
               environment: dict[str, str] | None = None, timeout: float = 600,
               llm_kernels: bool = False) -> RunnerRun:
    """The conversation ``turns`` through ``TextLLMRunner`` in a child with ``environment``; ``llm_kernels``:
    with ExecuTorch's LLM kernels registered (XNNPACK's programs call its SDPA). Registering them imports
    ExecuTorch's pybindings, whose ``portable_lib.py`` sets ``OPENVINO_LIB_PATH`` itself where it is unset; the
    runner's own binding does not."""
    command = [sys.executable, "-m", "repro.harness.llm.conversation", str(program), str(tokenizer),
               json.dumps([asdict(turn) for turn in turns]), *(["--llm-kernels"] if llm_kernels else [])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=environment,
                              cwd=Path(__file__).resolve().parents[3], check=False)
    except subprocess.TimeoutExpired:
        return RunnerRun("timed out", [], f"no answer in {timeout:.0f} s")
    answer = next((line for line in reversed(done.stdout.splitlines()) if line.startswith("{")), None)
    if answer is None:
        from repro.harness.runtime.program_runner import how_it_ended

        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return RunnerRun(how_it_ended(done.returncode), [], tail)
    return RunnerRun(**json.loads(answer))


def child_main(program: str, tokenizer: str, turns_json: str, llm_kernels: bool) -> None:
    """Runs the turns and prints one JSON line; the runner's own printing goes to stderr."""
    import os

    stdout = os.dup(1)
    os.dup2(2, 1)  # the runner prints each piece and its report on the C stdout
    if llm_kernels:
        import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    from executorch.extension.llm.runner import GenerationConfig, TextLLMRunner

    config = GenerationConfig(max_new_tokens=NEW_TOKENS, temperature=0.0, echo=False, warming=False, num_bos=0)
    turns: list[list[str]] = []
    try:
        runner = TextLLMRunner(program, tokenizer)
        for turn in (Turn(**fields) for fields in json.loads(turns_json)):
            if turn.reset_before:
                runner.reset()
            turns.append([])
            runner.generate(turn.prompt, config, token_callback=turns[-1].append)
        run = RunnerRun("ok", turns)
    except RuntimeError as error:
        run = RunnerRun("failed", turns, str(error))
    os.write(stdout, (json.dumps(asdict(run)) + "\n").encode())


if __name__ == "__main__":
    child_main(*sys.argv[1:4], llm_kernels="--llm-kernels" in sys.argv[4:])
