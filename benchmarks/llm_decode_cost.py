"""What a decode step and a prefill cost through ExecuTorch's OpenVINO delegate, against its peers.

ExecuTorch's own LLM pipeline (``repro.harness.llm.pipeline``) exports one llama3_2 larger than the tier's (4
layers, 256 wide, a 1024-token vocabulary, random weights) several ways:

- the decode step: the OpenVINO example's setting, a KV cache and static shapes (one token a call, here at
  position 20 of a 32-token context). Unquantized: XNNPACK (the peer), the workaround (by path), and plain
  OpenVINO running the workaround's delegate blob itself, imported by ``openvino.Core`` and fed the same inputs
  (what is left is ExecuTorch's share: its call into the delegate, the cache copied across the boundary).
  Compressed (``openvino_8wo``, ``openvino_4wo``): stock (from bytes: by path its program crashes on 2026.4) and
  the workaround (by path).
- the prefill: no cache, static shapes, one call over the 16-token window; the same candidates, and for the
  compressed ones the workaround installed with OpenVINO's dynamic quantization asked for
  (``CompileSpec("DYNAMIC_QUANTIZATION_GROUP_SIZE", b"32")``: int8 activations on VNNI, not exact), to show what
  the exactness pin costs.

Stock has no unquantized row: its pipeline fails before lowering (``IndexError``, reported upstream). Every
program runs in this process, interleaved call by call (``benchmarks.timing``), at float32 on every CPU class
(``OV_CPU_MAX_ISA`` capped below bf16 and AMX, as the gate runs: ``repro.harness.cpu.precision``). Prints one JSON
object: medians in milliseconds and the ratios the LLM issue sets goals for.

    python -m benchmarks.llm_decode_cost [--repeats 50]
"""

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from repro.harness.cpu.precision import F32_ISA_CAP

SIZES = {"dim": 256, "hidden_dim": 512, "n_layers": 4, "n_heads": 8, "n_kv_heads": 4, "vocab_size": 1024}
POSITION = 20  # the decode step's position in the static KV-cache program's context
DECODE_GOALS = {"xnnpack": 1.2, "plain OpenVINO": 1.1}  # the workaround's decode step at most this many times
COMPRESSED_GOAL = 1.05  # the workaround at most this many times stock, compressed, prefill and decode


def exported_programs(folder: Path) -> dict[tuple[str, str], Path]:
    """{(setting, candidate): program} for every candidate above, exported by the pipeline in children."""
    from repro.harness.llm.pipeline import QUANTIZING_ACTIVATIONS, LlmCase, PipelineSettings
    from repro.harness.llm.runs import exported

    wanted = {("none", "xnnpack"), ("none", "workaround"), ("8wo", "stock"), ("8wo", "workaround"),
              ("4wo", "stock"), ("4wo", "workaround")}
    prefill_only = {("8wo", QUANTIZING_ACTIVATIONS), ("4wo", QUANTIZING_ACTIVATIONS)}
    programs = {}
    for cache in ("kv", "nokv"):
        for compression, lowering in sorted(wanted | (prefill_only if cache == "nokv" else set())):
            weights = None if compression == "none" else f"openvino_{compression}"
            case = LlmCase("llama3_2", cache == "kv", False, weights)
            files = folder / f"{case.name}.{lowering}"
            record = exported(case, lowering, files, PipelineSettings(SIZES))
            if record.error is not None:
                sys.exit(f"{case.name} ({lowering}) did not export: {record.error}")
            programs[f"{'decode' if cache == 'kv' else 'prefill'} {compression}", lowering] = files / "program.pte"
    return programs


def call(setting: str):
    """The inputs of one timed call: a decode step's token and position, or the prefill's 16-token window."""
    import torch

    from repro.harness.llm.pipeline import MAX_SEQ_LENGTH

    if setting.startswith("decode"):
        return [torch.tensor([[7]]), torch.tensor([POSITION])]
    return [torch.arange(1, MAX_SEQ_LENGTH + 1).reshape(1, -1)]


def executorch_call(program: Path, inputs: list, by_path: bool, keep: list):
    # XNNPACK's KV-cache programs call the Llama example's SDPA and cache update (use_sdpa_with_kv_cache), whose
    # kernels this import registers with the runtime, as the example's runner links them in.
    import executorch.extension.llm.custom_ops.custom_ops  # noqa: F401
    from executorch.runtime import Runtime

    loaded = Runtime.get().load_program(str(program) if by_path else program.read_bytes())
    keep.append(loaded)
    method = loaded.load_method("forward")
    return lambda: method.execute(inputs)


def plain_openvino_call(program: Path, inputs: list):
    """The program's one OpenVINO delegate, imported and run by OpenVINO itself: each input of the call's shape
    fed the call's token or position, every other input (a cache crossing the boundary, a weight kept out of the
    blob past 1 GiB of constants) zeros of its shape, set once: what it holds does not change the time."""
    import io

    import numpy as np
    import openvino as ov

    from workaround.checker.pte.reader import delegates

    (delegate,) = delegates(program.read_bytes())
    compiled = ov.Core().import_model(io.BytesIO(delegate.blob), "CPU")
    request = compiled.create_infer_request()
    unfed = [value.numpy() for value in inputs]
    for port in compiled.inputs:
        shape, dtype = list(port.get_partial_shape().to_shape()), port.get_element_type().to_dtype()
        fed = next((value for value in unfed if list(value.shape) == shape and np.issubdtype(dtype, np.integer)),
                   None)
        if fed is not None:
            unfed = [value for value in unfed if value is not fed]
        request.set_tensor(port, ov.Tensor(np.zeros(shape, dtype) if fed is None else fed.astype(dtype)))
    if unfed:
        raise ValueError(f"{program}: its delegate takes no input of shape {list(unfed[0].shape)}")
    return lambda: request.infer(share_outputs=True)  # outputs not copied out: OpenVINO's own time


def measure(repeats: int, folder: Path) -> dict:
    from benchmarks.timing import interleaved_timings
    from repro.harness.llm.pipeline import QUANTIZING_ACTIVATIONS

    programs = exported_programs(folder)
    keep: list = []
    runners = {}
    for (setting, lowering), program in programs.items():
        inputs = call(setting)
        runners[f"{setting}: {lowering}"] = executorch_call(program, inputs, lowering != "stock", keep)
        if setting == "decode none" and lowering == "workaround":
            runners[f"{setting}: plain OpenVINO"] = plain_openvino_call(program, inputs)
    for run in runners.values():  # compiled, warmed
        run()
    timings = interleaved_timings(runners, repeats)
    median = {name: timing["median_ms"] for name, timing in timings.items()}
    ratios = {
        "decode: workaround / xnnpack": median["decode none: workaround"] / median["decode none: xnnpack"],
        "decode: workaround / plain OpenVINO":
            median["decode none: workaround"] / median["decode none: plain OpenVINO"],
        "prefill: workaround / xnnpack": median["prefill none: workaround"] / median["prefill none: xnnpack"],
        **{f"{setting} {compression}: workaround / stock": median[f"{setting} {compression}: workaround"]
           / median[f"{setting} {compression}: stock"]
           for setting in ("decode", "prefill") for compression in ("8wo", "4wo")},
        **{f"prefill {compression}: workaround quantizing activations / stock":
           median[f"prefill {compression}: {QUANTIZING_ACTIVATIONS}"] / median[f"prefill {compression}: stock"]
           for compression in ("8wo", "4wo")},
    }
    return {"sizes": SIZES, "repeats": repeats, "timings": timings, "ratios": ratios,
            "goals": {"decode: workaround / xnnpack": DECODE_GOALS["xnnpack"],
                      "decode: workaround / plain OpenVINO": DECODE_GOALS["plain OpenVINO"],
                      "compressed: workaround / stock": COMPRESSED_GOAL}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=50)
    options = parser.parse_args()
    if options.repeats < 1:
        parser.error("--repeats must be at least 1")
    os.environ.update(F32_ISA_CAP)  # float32 on every class, before OpenVINO loads
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(measure(options.repeats, Path(folder)), indent=1))


if __name__ == "__main__":
    main()
