"""A comment for ExecuTorch PR #22788 ("Do not mistake an empty constant segment for the deprecated constant
buffer"), not a new issue: the PR has the root cause and the fix; we add that delegation makes such programs
common (a KV-cache decoder once a delegate takes every weight, a tiny GPT-2 shown), that only loads by path
fail, the releases measured, a user-side fix until a release has it, and a check for shipped files. Built
from the matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/executorch_empty_constants.py``).
"""

from repro.dependencies import dependency_group
from repro.reports import executorch_issue as et
from repro.reports import markdown as md

EMPTY_CONSTANTS_REPRODUCER = md.attachment("executorch_empty_constants.py")
# The lines, at ExecuTorch main (et.EXECUTORCH_MAIN), each with its function so that a moved line is findable.
NULL_MEANS_NO_SEGMENT = (f"[`Program::get_constant_buffer_data`]({et.SOURCE_URL}/runtime/executor/program.cpp"
                         "#L433) (`if (constant_segment_data_.data() != nullptr)`, else the deprecated "
                         f"path, [compiled out]({et.SOURCE_URL}/runtime/executor/program.cpp#L500-L502))")
EMPTY_LOAD_IS_NULL = (f"[`MmapDataLoader::load`]({et.SOURCE_URL}/extension/data_loader/mmap_data_loader.cpp"
                      f"#L187-L188) and [`FileDataLoader::load`]({et.SOURCE_URL}/extension/data_loader/"
                      "file_data_loader.cpp#L165-L166) (`if (size == 0) return FreeableBuffer(nullptr, 0, ...)`)")


PULL_REQUEST = "pytorch/executorch#22788"


def executorch_empty_constants(matrix):
    rows = matrix["rows"]
    transformers = dependency_group("models")[0]
    return md.issue(
        f"Comment for {PULL_REQUEST}: delegation makes these programs common (a KV-cache decoder once a "
        "delegate takes every weight), by path only",
        [("What we add", f"""\
We hit the failure {PULL_REQUEST} fixes (`getTensorDataPtr() failed: 0x23`, `constant_buffer path is
disabled`) from the other side, and this is what our measurements add to the PR:

- **Delegation produces it.** A KV-cache decoder starts its cache empty (transformers' `DynamicLayer`
  starts each layer as `torch.tensor([])`) and concatenates onto it. Once a delegate takes every op and
  weight, the empty caches stay behind as unused constant placeholders: the program's only constants. The
  reproducer below shows it with the OpenVINO delegate on a tiny-config GPT-2 prompt step with its cache
  (2 layers, random weights; `transformers` {transformers.split("==")[1]}) and on a toy concat, and with
  XNNPACK on a program whose one constant is empty.
- **By path only.** The same programs run from bytes (the buffer loader returns a pointer into them);
  `Runtime.load_program(path)` fails at `load_method`. The lines: {EMPTY_LOAD_IS_NULL}, and
  {NULL_MEANS_NO_SEGMENT}.
- **A user-side fix until a release has the PR**: after `to_edge_transform_and_lower`, remove each
  constant, buffer or parameter placeholder that has no users and no elements (graph, signature, and the
  program's constants or state dict) before `to_executorch`. Nothing reads them, so no value changes. With
  it, the OpenVINO-delegated GPT-2 prompt step (and a decode step on its cache) loads by path and equals
  eager within this CPU's bf16 noise (max |diff| 2.2e-3 and 1.4e-3).
- **A check for files already shipped**: a program whose constants are all 0-size has a 0-byte constant
  segment, which can be read from the `.pte` with the flatbuffer schema alone (no torch); we flag such
  files before they reach a device.

Does the PR fix these reproducers? Not tested: its diff is not reachable from where we work (we could read
its description only), and the change is in `runtime/executor/program.cpp`, which the wheel compiles into
its pybindings, so we could not rebuild it against the wheel as we can a backend. Every failing row below
fails in `get_constant_buffer_data`, the function the PR changes, with the message it quotes."""),
         ("To reproduce", et.reproduction(EMPTY_CONSTANTS_REPRODUCER, rows, "executorch_empty_constants",
                                          et.NEWEST_OPENVINO, (et.NEWEST_OPENVINO,))
          + f"\n\n(`pip install {transformers}` as well for the GPT-2 rows.)"),
         ("Versions", et.environment_section(rows, "executorch_empty_constants"))])
