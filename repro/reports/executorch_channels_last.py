"""The ExecuTorch issue body: the OpenVINO backend hands every boundary tensor to OpenVINO with its
sizes only, so channels-last tensors at a partition's edge give wrong values. Built from an
``executorch_path.py`` run's dim-order cases, with the proposed change to ``preprocess.py`` as a diff.
"""

from repro.reports import markdown as md
from repro.reports import proposed_preprocess

CHANNELS_LAST_REPRODUCER = md.attachment("executorch_channels_last.py")
CREATE_TENSOR_SOURCE = ("`backends/openvino/runtime/OpenvinoBackend.cpp` on main (commit cff6f4d, 2026-08-22), "
                        "`OpenvinoBackend::create_ov_tensor`, lines 337-378")


def channels_last_table(report, case_names):
    rows = []
    for record in report["cases"]:
        if record["case"] not in case_names:
            continue
        run = record["runs"].get("bytes") or {}
        diffs = ", ".join(f"{row['max_abs_diff']:.3g}" for row in run.get("outputs") or [])
        rows.append([f"`{record['case']}`", record["what"], run.get("outcome", record["outcome"]), diffs or "-"])
    return md.table(["case", "model", "stock, from bytes", "max abs diff per output"], rows)


def executorch_channels_last(report, case_names):
    """The ExecuTorch issue body, from an executorch_path.py run with the stock partitioner."""
    env = report["environment"]
    diff = proposed_preprocess.proposed_diff()
    return md.issue(
        "[OpenVINO] Channels-last tensors at a delegate's boundary are handed over as contiguous: wrong values",
        [("Summary", f"""\
`OpenvinoBackend` wraps every delegate input and output with `tensor.sizes()` and its data pointer
only ({CREATE_TENSOR_SOURCE}: `ov_.shape_create(rank, dims, &shape)` from the sizes, then
`ov_.tensor_create_from_host_ptr(ov_type, shape, tensor.mutable_data_ptr(), ...)`), never with its
dim order. A channels-last tensor entering a partition (a camera frame fed to a conv) is read as if
it were contiguous, and a channels-last result is written as if it were: wrong values, no error.
Elementwise-only partitions happen to be right."""),
         ("Environment", md.bullets([f"executorch {env['executorch']}, torch {env['torch']}, OpenVINO "
                                     f"{env['openvino']}, Python {env['python']}", env["os"]])),
         ("Reproducer", f"""\
`pip install torch executorch openvino`, then `python executorch_channels_last.py`:

{md.code_block(CHANNELS_LAST_REPRODUCER.read_text())}"""),
         ("Measured", f"""\
The catalogue's dim-order cases with the stock `OpenvinoPartitioner` (ExecuTorch runtime, compared
with eager PyTorch; the bug shows as differences of the size of the values):

{channels_last_table(report, case_names)}"""),
         ("Proposed change", f"""\
Convert inside the compiled model, where it costs almost nothing: in `preprocess`, read each
boundary tensor's dim order before `DimOrderOpsRevertPass`, and after converting the partition give
each input in dim order `d` `Parameter(sizes) -> Reshape(ShapeOf[d]) -> Transpose(inverse of d)` and
each such output `Transpose(d) -> Reshape(ShapeOf)`. Partitions whose boundaries are all in the
default dim order compile exactly as before. Measured with a two-conv stack on a channels-last frame:
faster than the same model exported on a contiguous frame (OpenVINO's CPU plugin prefers
channels-last), where converting in ExecuTorch's portable kernels cost about 3x. We apply this diff
to executorch {env['executorch']}'s file in our tests and run every case above through it with the
stock partitioner: all equal eager. `openvino_compile` is replaced by its conversion and
`compile_model`: its cache is unused here (no model hash) and its `config` option reaches
`compile_model` as a string, which fails.

{md.code_block(diff, "diff")}""")])
