"""A comment for ExecuTorch PR #22788 ("Do not mistake an empty constant segment for the deprecated constant
buffer"), not a new issue: the PR has the root cause and the fix; we add that delegation makes such programs
common (a KV-cache decoder once a delegate takes every weight, a tiny GPT-2 shown), that only loads by path
fail, the releases measured, a user-side fix until a release has it, and a check for shipped files. Built
from the matrix's rows (``repro/matrix.py --executorch`` runs ``attachments/executorch_empty_constants.py``).
"""

from repro.dependencies import dependency_group
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

EMPTY_CONSTANTS_REPRODUCER = md.attachment("executorch_empty_constants.py")
# The lines, at ExecuTorch main (et.EXECUTORCH_MAIN), each with its function so that a moved line is findable.
NULL_MEANS_NO_SEGMENT = (f"[`Program::get_constant_buffer_data`]({et.SOURCE_URL}/runtime/executor/program.cpp"
                         "#L433) (`if (constant_segment_data_.data() != nullptr)`, else the deprecated "
                         f"path, [compiled out]({et.SOURCE_URL}/runtime/executor/program.cpp#L500-L502))")
EMPTY_LOAD_IS_NULL = (f"[`MmapDataLoader::load`]({et.SOURCE_URL}/extension/data_loader/mmap_data_loader.cpp"
                      f"#L187-L188) and [`FileDataLoader::load`]({et.SOURCE_URL}/extension/data_loader/"
                      "file_data_loader.cpp#L165-L166) (`if (size == 0) return FreeableBuffer(nullptr, 0, ...)`)")


PULL_REQUEST = "pytorch/executorch#22788"


def executorch_empty_constants(matrix: Matrix) -> str:
    rows = matrix["rows"]
    transformers = dependency_group("models")[0]
    return md.render(
        "executorch_empty_constants",
        empty_load_is_null=EMPTY_LOAD_IS_NULL,
        null_means_no_segment=NULL_MEANS_NO_SEGMENT,
        pull_request=PULL_REQUEST,
        transformers_release=transformers.split("==")[1],
        reproduction=et.reproduction(EMPTY_CONSTANTS_REPRODUCER, rows, "executorch_empty_constants",
                                     et.NEWEST_OPENVINO, (et.NEWEST_OPENVINO,)),
        transformers=transformers,
        versions=et.environment_section(rows, "executorch_empty_constants"))
