"""ExecuTorch's LLM pipeline (export_llm) with the OpenVINO backend fails to export on two settings of its own:
no weight compression, and dynamic shapes (its default).

1. Write a tiny random-weight Llama 3.2 (params.json and checkpoint.pth: 2 layers, 64 wide; no model hub).
2. Export it with ``python -m executorch.extension.llm.export.export_llm``, the OpenVINO backend and the Llama
   example's KV cache, three ways, each in a fresh process as a user runs it:
   - no quantization.pt2e_quantize, static shapes: IndexError: list index out of range, in
     examples/models/llama/export_llama_lib.py's _to_edge_and_lower_llama_openvino, which hands quantizers[0]
     of an empty list to NNCF's compression;
   - openvino_8wo, model.enable_dynamic_shape=true: AttributeError: 'SymInt' object has no attribute 'type', in
     OpenVINO's openvino_compile called by OpenvinoBackend.preprocess: OpenvinoOperatorsSupport looks an op up
     as "torch.ops." + target.__name__, which never matches aten.sym_size.int, aten._local_scalar_dense or
     Python's operator.add, so each size and the cache position enter the partition as SymInt inputs;
   - openvino_8wo, static shapes (the example's setting): exports, which shows the rest of the config works.

Needs torch, executorch, nncf and openvino installed; takes no arguments.
Exit status (git bisect run): 0 every export succeeds, 1 an export fails, 2 usage error, 125 could not test
(the control export failed, or the pipeline does not import).
"""

import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import version

import torch

PARAMS = {"dim": 64, "hidden_dim": 128, "n_heads": 4, "n_kv_heads": 2, "n_layers": 2, "vocab_size": 128,
          "norm_eps": 1e-05, "rope_theta": 500000.0, "use_scaled_rope": True}
# (what is exported, export_llm's options beyond the common ones); the last is the control.
EXPORTS = [("no compression, static shapes ", ["model.enable_dynamic_shape=false"]),
           ("openvino_8wo, dynamic shapes  ", ["model.enable_dynamic_shape=true",
                                               "quantization.pt2e_quantize=openvino_8wo"]),
           ("openvino_8wo, static shapes   ", ["model.enable_dynamic_shape=false",
                                               "quantization.pt2e_quantize=openvino_8wo"])]


def write_checkpoint(folder):
    from executorch.examples.models.llama.llama_transformer import construct_transformer
    from executorch.examples.models.llama.model_args import ModelArgs

    with open(f"{folder}/params.json", "w") as file:
        json.dump(PARAMS, file)
    torch.manual_seed(0)
    model = construct_transformer(ModelArgs(**PARAMS, max_seq_len=32, max_context_len=32))
    torch.save(model.state_dict(), f"{folder}/checkpoint.pth")


def export_llm(folder, options):
    """export_llm in a fresh process; None when it wrote the program, else the error and where it was raised."""
    output = f"{folder}/program.pte"
    if os.path.exists(output):
        os.remove(output)
    command = [sys.executable, "-m", "executorch.extension.llm.export.export_llm", "base.model_class=llama3_2",
               f"base.params={folder}/params.json", f"base.checkpoint={folder}/checkpoint.pth",
               "backend.openvino.enabled=true", "model.use_kv_cache=true", "export.max_seq_length=16",
               "export.max_context_length=32", f"export.output_name={output}", *options]
    # In the temporary folder: Hydra writes its outputs/ where it runs. HYDRA_FULL_ERROR: the whole traceback.
    result = subprocess.run(command, capture_output=True, text=True, check=False, cwd=folder,
                            env={**os.environ, "HYDRA_FULL_ERROR": "1"})
    if result.returncode == 0 and os.path.exists(output):
        return None
    lines = result.stderr.strip().splitlines() or [f"exit {result.returncode}, nothing printed"]
    frames = [line.strip() for line in lines if line.strip().startswith('File "')]
    if not frames:
        return lines[-1]
    where = frames[-1].split("site-packages/")[-1].replace('", line ', ":").replace(", in ", ", ")
    return f"{lines[-1]} (raised at {where})"


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
        errors = []
        for what, options in EXPORTS:
            error = export_llm(folder, options)
            print(f"{what}: {error or 'exported'}", flush=True)
            errors.append(error)
    if errors[-1] is not None:
        print("COULD NOT TEST: the control export failed")
        return 125
    failed = sum(error is not None for error in errors)
    print(f"BUG REPRODUCED: {failed} of {len(errors) - 1} exports fail" if failed else
          "OK: every export succeeds")
    return 1 if failed else 0


if __name__ == "__main__":
    if sys.argv[1:] in (["-h"], ["--help"]):
        print(__doc__)
    elif sys.argv[1:]:
        print("executorch_llm_pipeline.py: error: takes no arguments (see --help)", file=sys.stderr)
        sys.exit(2)
    else:
        sys.exit(main())
