"""ExecuTorch's LLM pipeline (export_llm) with `quantization.pt2e_quantize=openvino_4wo` compresses the
transformer's matmuls to 4 bits but leaves the output layer (and the embedding) at 8 bits, where XNNPACK's
4-bit mode (`8da4w`) quantizes the output layer at 4 bits too.

The output layer is the largest matmul of a small LLM: at Llama-3.2-1B's shapes 128256 x 2048, 262 MB at 8 bits
against 131 MB at 4 bits, read at every decode step. `get_ov_quantizer` in extension/llm/export/quantizer_lib.py
asks NNCF for INT4WO_SYM with a group size and leaves `all_layers` at NNCF's default (False), so NNCF compresses
the first and last layers with its backup precision, INT8_ASYM.

1. Write a tiny random-weight Llama 3.2 (params.json and checkpoint.pth: 2 layers, 256 wide, a 1024-token
   vocabulary; no model hub).
2. Export it with `python -m executorch.extension.llm.export.export_llm`, the OpenVINO backend, the Llama
   example's KV cache, static shapes and `openvino_4wo` (group 128), in a fresh process as a user runs it.
3. Open the program's OpenVINO blob with `openvino.Core().import_model` and print the element type of the
   weights each matmul of the compiled model reads: the output layer is the one whose output is the vocabulary.

Needs torch, executorch, nncf and openvino installed; takes no arguments.
Exit status (git bisect run): 0 the output layer is compressed to 4 bits, 1 it is left at 8 bits, 2 usage
error, 125 could not test (the export failed, or the pipeline does not import).
"""

import collections
import io
import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch

PARAMS = {"dim": 256, "hidden_dim": 512, "n_heads": 4, "n_kv_heads": 2, "n_layers": 2, "vocab_size": 1024,
          "norm_eps": 1e-05, "rope_theta": 500000.0, "use_scaled_rope": True}
FOUR_BITS = {"i4", "u4", "nf4", "f4e2m1"}


def write_checkpoint(folder):
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    with open(f"{folder}/params.json", "w") as file:
        json.dump(PARAMS, file)
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(**PARAMS, max_seq_len=32, max_context_len=32))
    torch.save(model.state_dict(), f"{folder}/checkpoint.pth")


def export_llm(folder):
    """export_llm in a fresh process: the program's path, or None and what it printed last."""
    output = f"{folder}/program.pte"
    command = [sys.executable, "-m", "executorch.extension.llm.export.export_llm", "base.model_class=llama3_2",
               f"base.params={folder}/params.json", f"base.checkpoint={folder}/checkpoint.pth",
               "backend.openvino.enabled=true", "model.use_kv_cache=true", "model.enable_dynamic_shape=false",
               "export.max_seq_length=16", "export.max_context_length=32",
               "quantization.pt2e_quantize=openvino_4wo", "quantization.group_size=128",
               f"export.output_name={output}"]
    # In the temporary folder: Hydra writes its outputs/ where it runs.
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder)
    if result.returncode == 0 and os.path.exists(output):
        return output, None
    return None, (result.stderr.strip().splitlines() or [f"exit {result.returncode}"])[-1]


def matmul_weights(program_path):
    """[(output width, weight element type)] of every matmul in the program's OpenVINO blobs: the element type of
    the constant each one's weights are decompressed from."""
    import openvino as ov
    from executorch.exir._serialize._program import deserialize_pte_binary

    with open(program_path, "rb") as file:
        program = deserialize_pte_binary(file.read())
    program = getattr(program, "program", program)  # newer releases wrap it with its named data
    found = []
    for data in program.backend_delegate_data:
        compiled = ov.Core().import_model(io.BytesIO(bytes(data.data)), "CPU")
        for node in compiled.get_runtime_model().get_ordered_ops():
            if node.get_rt_info()["layerType"].astype(str) != "FullyConnected":
                continue
            weights = node.input_value(1).get_node()
            precision = weights.get_rt_info()["outputPrecisions"].astype(str)
            found.append((int(node.get_output_partial_shape(0)[-1].get_length()), precision))
    return found


def main():
    try:
        import executorch.extension.llm.export.export_llm  # noqa: F401
        import openvino
        from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: F401 (needs nncf)
    except ImportError as error:
        print(f"COULD NOT TEST: {error}")
        return 125
    print(f"executorch {version('executorch')}, OpenVINO {openvino.get_version()}, nncf {version('nncf')}, "
          f"torch {torch.__version__}")
    with tempfile.TemporaryDirectory() as folder:
        write_checkpoint(folder)
        program, error = export_llm(folder)
        if program is None:
            print(f"COULD NOT TEST: the export failed: {error}")
            return 125
        matmuls = matmul_weights(program)
    if not matmuls:
        print("COULD NOT TEST: the program's blob has no matmul")
        return 125
    counts = collections.Counter(precision for _, precision in matmuls)
    print(f"openvino_4wo, group 128: {len(matmuls)} matmuls; weights by element type: "
          + ", ".join(f"{precision} {count}" for precision, count in sorted(counts.items())))
    output = [precision for width, precision in matmuls if width == PARAMS["vocab_size"]]
    print(f"the output layer ({PARAMS['dim']} -> {PARAMS['vocab_size']}): {', '.join(output) or 'not found'}")
    if not output:
        print("COULD NOT TEST: no matmul makes the vocabulary")
        return 125
    if output[0] in FOUR_BITS:
        print("OK: the output layer is compressed to 4 bits")
        return 0
    print(f"REPRODUCED: openvino_4wo leaves the output layer at {output[0]}")
    return 1


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif sys.argv[1:]:
        print("executorch_openvino_4wo_layers.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
