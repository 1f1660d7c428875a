"""After ExecuTorch's text runner resets, an LFM2 program starts the new conversation from the last one's
convolution state.

LFM2's short convolution (examples/models/lfm2/short_conv.py) keeps the last inputs of each call in its
`conv_state` buffer and reads them as the left padding of the next call; only `reset_cache()` zeroes it.
`TextLLMRunner::reset()` (extension/llm/runner/text_llm_runner.cpp) sets the runner's position back to 0 and
touches no buffer, so the next conversation's prompt is prefilled from position 0 over the old state. A KV cache
needs nothing more (attention reads only the positions written since); this state does.

1. Write a tiny random-weight LFM2-class model (params.json and checkpoint.pth: one `conv` layer and one
   `full_attention` layer, 64 wide, a 128-token vocabulary; no model hub).
2. Export it with `python -m executorch.extension.llm.export.export_llm` (model class lfm2_350m, KV cache, static
   shapes, portable kernels: no backend), in a fresh process as a user runs it.
3. Load the program with `executorch.runtime` and make the runner's calls: a prompt prefilled one token a call
   from position 0, three greedy decode steps, then, as after `reset()`, the same prompt from position 0 again.
   Print the logits of the prompt's last token both times.

Needs torch and executorch installed; takes no arguments.
Exit status (git bisect run): 0 the second conversation computes as the first, 1 it does not, 2 usage error,
125 could not test (the export failed, or the pipeline does not import).
"""

import json
import os
import platform
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch

PARAMS = {"dim": 64, "hidden_dim": 128, "n_heads": 4, "n_kv_heads": 2, "n_layers": 2, "vocab_size": 128,
          "ffn_dim_multiplier": 1, "norm_eps": 1e-05, "rope_theta": 1000000.0, "use_scaled_rope": False,
          "use_hf_rope": True, "use_qk_norm": True, "qk_norm_before_rope": True,
          "layer_types": ["conv", "full_attention"]}
PROMPT = [5, 17, 42, 9]
DECODE_STEPS = 3


def write_checkpoint(folder):
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    with open(f"{folder}/params.json", "w") as file:
        json.dump(PARAMS, file)
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(**PARAMS, max_seq_len=32, max_context_len=32))
    with torch.no_grad():  # larger than the default init, so that the logits differ visibly
        for parameter in model.parameters():
            parameter.normal_(0.0, 0.2) if parameter.dim() > 1 else parameter.uniform_(0.5, 1.5)
    torch.save(model.state_dict(), f"{folder}/checkpoint.pth")


def export_llm(folder):
    """export_llm in a fresh process: the program's path, or None and what it printed last."""
    output = f"{folder}/program.pte"
    command = [sys.executable, "-m", "executorch.extension.llm.export.export_llm", "base.model_class=lfm2_350m",
               f"base.params={folder}/params.json", f"base.checkpoint={folder}/checkpoint.pth",
               "model.use_kv_cache=true", "model.enable_dynamic_shape=false", "model.dtype_override=fp32",
               "export.max_seq_length=16", "export.max_context_length=32", f"export.output_name={output}"]
    # In the temporary folder: Hydra writes its outputs/ where it runs.
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder)
    if result.returncode == 0 and os.path.exists(output):
        return output, ""
    return None, (result.stdout + result.stderr).strip()[-3000:]


def prefill(method, tokens):
    """The runner's sequential prefill from position 0: the logits of the last token."""
    for position, token in enumerate(tokens):
        logits = method.execute((torch.tensor([[token]]), torch.tensor([position])))[0]
    return logits


def main():
    print(f"python {platform.python_version()}, torch {torch.__version__}, executorch {version('executorch')}, "
          f"{platform.platform()}")
    with tempfile.TemporaryDirectory() as folder:
        try:
            write_checkpoint(folder)
        except ImportError as error:
            print(f"COULD NOT TEST: ExecuTorch's LLM example does not import: {error}")
            return 125
        program_path, log = export_llm(folder)
        if program_path is None:
            print(f"COULD NOT TEST: export_llm failed:\n{log}")
            return 125
        from executorch.runtime import Runtime

        program = Runtime.get().load_program(program_path)
        method = program.load_method("forward")
        first = prefill(method, PROMPT)
        token, position = int(first.argmax()), len(PROMPT)
        for _ in range(DECODE_STEPS):  # the conversation goes on
            token = int(method.execute((torch.tensor([[token]]), torch.tensor([position])))[0].argmax())
            position += 1
        again = prefill(method, PROMPT)  # reset(): the position back to 0, nothing else
    difference = float((again - first).abs().max())
    print(f"prompt {PROMPT}, then {DECODE_STEPS} decode steps, then the prompt again from position 0")
    print(f"first conversation, last prompt token's logits[:6]: {first.flatten()[:6].tolist()}")
    print(f"after reset,        last prompt token's logits[:6]: {again.flatten()[:6].tolist()}")
    print(f"max |difference|: {difference:.3g}; greedy next token {int(first.argmax())}, then "
          f"{int(again.argmax())}")
    if difference == 0.0:
        print("OK: the new conversation computes as the first")
        return 0
    print("REPRODUCED: the new conversation starts from the last one's conv_state")
    return 1


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif sys.argv[1:]:
        print("executorch_lfm2_reset.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
