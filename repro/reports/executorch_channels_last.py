"""The ExecuTorch issue body: the OpenVINO backend hands every boundary tensor to OpenVINO with its sizes
only, so channels-last tensors at a partition's edge give wrong values; with the two-step fix
(``repro/patches/executorch/channels-last``: fail loud at export, then convert inside the model
``openvino_compile`` converts) and each step's op-test result. Built from the matrix's rows
(``repro/matrix.py --executorch``).
"""

from repro.harness import executorch_patches as patches
from repro.harness.outcomes import Outcome
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_report import by_release

CHANNELS_LAST_REPRODUCER = md.attachment("executorch_channels_last.py")
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
CREATE_TENSOR = f"[`OpenvinoBackend::create_ov_tensor`]({et.SOURCE_URL}/{BACKEND}#L337-L378)"


def dim_order_table(rows):
    """The stock partitioner's dim-order cases on the newest release whose ExecuTorch path ran, from bytes."""
    ran = [row for row in by_release(rows) if (row.get("executorch") or {}).get("cases")]
    if not ran:
        return "(The ExecuTorch path was not run in this matrix.)"
    table = []
    for record in ran[-1]["executorch"]["cases"]:
        if record.get("group") == "dim order":
            run = record["runs"].get("bytes") or {}
            diffs = ", ".join(f"{output['max_abs_diff']:.3g}" for output in run.get("outputs") or [])
            table.append([record["what"], run.get("outcome", record["outcome"]), diffs or "-"])
    wrong = sum(row[1] != Outcome.CORRECT for row in table)
    return md.details(f"Dim-order models on OpenVINO {ran[-1]['release']}, loaded from bytes, against eager "
                      f"PyTorch: {wrong} of {len(table)} wrong",
                      md.table(["model (inputs channels-last unless said)", "result", "max abs diff per output"],
                               table))


RELATED = md.bullets([
    "#4873 (closed, 2024-08), \"Call for Action: Supporting Dim Order in Backend Delegates\": asked every "
    "delegate to honour dim order; the OpenVINO backend came later (#8573, 2025-02) and does not. This is "
    "that gap for one backend, measured, with a fix.",
    "Arm's answer to #4873 (#5576): ahead-of-time and runtime guards that refuse non-contiguous inputs, as "
    "our first patch does ahead of time; NXP's Neutron backend (#16146) checks the dim order at run time and "
    "transposes, the runtime-side alternative to our second patch.",
    "RFC #19299 (open, 2026-05), \"Common memory-layout handling infra\": shared infrastructure instead of "
    "each backend's own; our patches are backend-local and would move onto it if it lands.",
    "No thread reports wrong values from the OpenVINO delegate with channels-last tensors.",
])


def executorch_channels_last(matrix):
    rows = matrix["rows"]
    refuse, convert = patches.patch_files(patches.CHANNELS_LAST)
    op_tests = et.op_test_results(rows, patches.CHANNELS_LAST, "backends/openvino/tests/ops/test_dim_order.py",
                                  "both patches")
    return md.issue(
        "[OpenVINO] Channels-last tensors at a partition's boundary are handed to OpenVINO as contiguous: "
        "wrong values, no error",
        [("🐛 Describe the bug", f"""\
{CREATE_TENSOR} wraps every delegate input and output with `tensor.sizes()` and its data pointer only
(`ov_.shape_create(rank, dims, &shape)`, then `ov_.tensor_create_from_host_ptr(...)`), never with its dim
order, and `preprocess` compiles the partition for contiguous inputs and outputs. A channels-last tensor
entering a partition (a camera frame fed to a convolution) is read as if it were contiguous, and a
channels-last result is written as if it were: wrong values, no error. Partitions whose ops read and write
alike (elementwise only) happen to be right. It does not depend on the OpenVINO release: the ones below are
inside ExecuTorch's supported range ({et.SUPPORTED_OPENVINO}) and what `pip install openvino` gives today
({et.NEWEST_OPENVINO})."""),
         ("To reproduce", f"""\
{et.reproduction(CHANNELS_LAST_REPRODUCER, rows, "executorch_channels_last", et.SUPPORTED_OPENVINO)}

{dim_order_table(rows)}"""),
         ("Versions", et.environment_section(rows, "executorch_channels_last")),
         ("Proposed fix", f"""\
In two steps, each its own commit. First fail loud: `preprocess` refuses a partition input or output in
another dim order, naming it, so nobody gets wrong values silently:

{et.patch_block(refuse)}

Then convert instead of refusing, inside the model that `openvino_compile` converts (so its device choice and
cache stay): an input arrives as its elements in dim order, so it is viewed with its sizes in that order and
permuted back; an output is permuted into its dim order and viewed with its sizes. OpenVINO folds the pair
into its own layout choice. A tensor with dynamic sizes in another dim order stays refused:

{et.patch_block(convert)}

{op_tests}

What the patches leave: layouts that size-1 dims make ambiguous (a one-channel channels-last image
(1, 1, H, W) has strides that fit both orders: torch labels it (0, 2, 3, 1), the serializer derives
(0, 2, 1, 3), and the portable kernels reject that, with or without the patches); and dynamic sizes in
another dim order, refused at export, not converted."""),
         ("Related threads (searched 2026-12-02)", RELATED)])
