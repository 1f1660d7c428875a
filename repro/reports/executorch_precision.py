"""The ExecuTorch issue body: the OpenVINO backend cannot run an f32 model in f32 on CPUs with AVX-512 BF16 or
AMX, where OpenVINO's CPU plugin computes in bf16 by default: the compile specs do not reach ``compile_model``,
and ``ov_core_import_model`` takes no properties. With the ``precision`` series inline and what the reproducer
prints with its runtime part. Built from the matrix's rows (``repro/matrix.py --executorch`` runs
``attachments/executorch_precision.py`` at the CPU's default precision, with ``--executorch-source`` also with
the ``precision`` backend).
"""

from repro.harness import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md

REPRODUCER = md.attachment("executorch_precision.py")
FIELD = "executorch_precision"
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
# At ExecuTorch main (et.EXECUTORCH_MAIN), by function so that a moved line is findable.
IMPORT = f"[`OpenvinoBackend::init`]({et.SOURCE_URL}/{BACKEND}#L146-L163)"
OPTIONS = f"[`OpenvinoBackend.preprocess`]({et.SOURCE_URL}/backends/openvino/preprocess.py#L53-L59)"
# benchmarks/precision_cost.py, 2026-12-02, executorch 1.5.1, OpenVINO 2026.4.1, 2 cores (AMD EPYC, AVX-512
# BF16): from bytes, median of 5 interleaved rounds of 20; max error against eager float32.
COST = md.table(
    ["model", "time at f32 / at the default", "max error, f32", "max error, default (bf16)"],
    [["Conv2d(3, 8, 3) and ReLU on 8x8", "1.03", "1.8e-7", "3.4e-3"],
     ["three convolutions on 224x224", "1.62", "3.0e-8", "2.1e-4"],
     ["a transformer encoder block (256 wide, 64 tokens)", "1.44", "1.7e-6", "8.9e-3"]])


def executorch_precision(matrix):
    rows = matrix["rows"]
    runtime, preprocess, test = patches.patch_files(patches.PRECISION)
    return md.issue(
        "[OpenVINO] The backend cannot run an f32 model in f32 on CPUs with AVX-512 BF16 or AMX: no compile "
        "spec reaches OpenVINO's precision",
        [("🐛 Describe the bug", f"""\
On CPUs with AVX-512 BF16 or AMX (Sapphire Rapids and later Xeons, Zen 4 and later EPYCs) OpenVINO's CPU
plugin computes f32 models in bf16 unless asked otherwise, which is documented. Through this backend nothing
can ask: {OPTIONS} turns every compile spec into a string option, and `openvino_compile` reads only `device`,
`config` (a dict, which a compile spec's bytes cannot carry) and its cache keys; and even a model compiled at
f32 would not stay so, because the exported blob does not keep its precision and {IMPORT} imports it with
`ov_core_import_model`, which takes no properties. So the same `.pte` gives results that depend on the CPU it
runs on: a 256-wide f32 matmul is about 0.1 off float64 instead of 2e-5, with no error or warning. OpenVINO's
side (the import drops the precision) is reported to OpenVINO separately."""),
         ("To reproduce", et.reproduction(REPRODUCER, rows, FIELD, et.NEWEST_OPENVINO)),
         ("Versions", et.environment_section(rows, FIELD)),
         ("Proposed fix", f"""\
Compile specs named as OpenVINO names its properties (`INFERENCE_PRECISION_HINT`, `EXECUTION_MODE_HINT`, ...)
are OpenVINO properties: `init` sets them on the device with `ov_core_set_property` before the import (the
core is the delegate's own, so no other delegate's import sees them), and `preprocess` passes them to
`compile_model`. The default stays OpenVINO's; a user who needs f32 asks for it with
`CompileSpec("INFERENCE_PRECISION_HINT", b"f32")`. Its cost, to choose by (time at f32 over time at the
default, same machine, interleaved):

{COST}

{et.patch_block(runtime)}

{et.patch_block(preprocess)}

Its test, which fails without the two changes on such a CPU (bf16: about 0.1) and passes with them:

{et.patch_block(test)}

{md.details("The reproducer with the runtime rebuilt with the first patch (against the installed wheel)",
            et.outputs(rows, f"{FIELD}_patched", (et.NEWEST_OPENVINO,)))}

Until a release has it, `OV_CPU_MAX_ISA=AVX512_CORE_VNNI` in the environment of the process that loads the
program makes the CPU plugin compute in f32 (it caps every kernel at that ISA, so int8 models lose AMX too)."""),
         ("Related threads (searched 2026-12-02)", md.bullets([
             "None in ExecuTorch's tracker asks for the OpenVINO backend's precision or reports bf16 results "
             "(searched: OpenVINO precision, bf16, compile spec, options).",
             "openvinotoolkit/openvino#28032: `benchmark_app` ran bf16 on Sapphire Rapids; the answer was to ask "
             "with `-infer_precision f32`, the property this backend cannot pass. openvinotoolkit/openvino#28425 "
             "(\"Executorch initial support\") is where `openvino_compile` took the `options` it reads.",
             "Other runtimes over OpenVINO pin or pass it: WasmEdge/WasmEdge#5348 pins f32 at compile, since "
             "without it \"the same F32 model would produce host-dependent output\"; pykeio/ort#536 asks to pass "
             "such keys through."]))])
