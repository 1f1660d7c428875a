"""The ExecuTorch issue body: a program whose only constants are 0-size loads from bytes but fails by path
(``load_method``: 0x23), which is what a KV-cache decoder becomes once a delegate takes every weight.
Built from the matrix's rows (``repro/matrix.py --executorch`` runs
``attachments/executorch_empty_constants.py`` with each ExecuTorch release).
"""

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


def executorch_empty_constants(matrix):
    rows = matrix["rows"]
    return md.issue(
        "[Runtime] A program whose only constants are 0-size fails to load by path (0x23): every KV-cache "
        "export whose delegate takes the weights",
        [("🐛 Describe the bug", f"""\
A program whose constant tensors are all 0-size has a 0-byte constant segment. Loaded from bytes it runs;
loaded by path (`Runtime.load_program(path)`, the C++ `Module`), `load_method` fails:
`constant_buffer path is disabled (ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0)`, then
`getTensorDataPtr() failed: 0x23`. The file loaders return a null buffer for a 0-byte load
({EMPTY_LOAD_IS_NULL}); {NULL_MEANS_NO_SEGMENT} takes a null segment for "this program has no constant
segment". The buffer loader returns a pointer into the bytes, so from bytes it does not show.

No delegate is needed (the reproducer's program with no partitioner), but delegates make it common: a
KV-cache decoder starts its cache empty (`torch.tensor([])`, or transformers' `(batch, heads, 0, dim)`
caches) and concatenates onto it. Once a delegate takes every op and weight (OpenVINO does; XNNPACK too
when it takes the weights), the empty caches stay behind as unused constant placeholders, the program's only
constants. Such a program exports and runs from bytes, and fails on device."""),
         ("To reproduce", et.reproduction(EMPTY_CONSTANTS_REPRODUCER, rows, "executorch_empty_constants",
                                          et.NEWEST_OPENVINO, (et.NEWEST_OPENVINO,))),
         ("Versions", et.environment_section(rows, "executorch_empty_constants")),
         ("Proposed fix", """\
A proposal, not tested against a build:

- in `Program::get_constant_buffer_data`, decide by the program (`constant_segment()` with offsets) whether
  constants live in a segment, not by the loaded buffer's pointer, and serve a 0-byte request without
  dereferencing it; or have the file loaders return a non-null empty buffer for a 0-byte load, as the buffer
  loader effectively does;
- in the emitter, drop constant placeholders that nothing uses after lowering (as
  `remove_unused_parameters_pass` does for parameters before lowering), so a delegate's leftovers do not
  reach the program.""")])
