"""The ExecuTorch issue body for the portable runtime's missing kernels (``sort``, ``avg_pool3d``,
``max_pool3d_with_indices``: load_method 0x14) and kernels that compute otherwise than PyTorch (integer
``remainder``, ``ceil`` of integers, integer ``pow``, ``max_pool2d`` and ``sign`` with NaN, float64
``_log_softmax``). ExecuTorch's tracker was searched first: no issue covers them. Built from the matrix's rows
(``repro/matrix.py --executorch`` runs ``attachments/executorch_portable_kernels.py``).
"""

from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

REPRODUCER = md.attachment("executorch_portable_kernels.py")
FIELD = "executorch_portable_kernels"
# The lines, at ExecuTorch main (et.EXECUTORCH_MAIN), each with its function so that a moved line is findable.
REMAINDER_LINE = (f"[`remainder_override`]({et.SOURCE_URL}/kernels/portable/cpu/util/math_util.h#L213-L218) "
                  "(integral overload)")
UNARY_LINE = (f"[`unary_ufunc_realhbf16`]({et.SOURCE_URL}/kernels/portable/cpu/pattern/"
              "unary_ufunc_realhbf16.cpp#L47-L48)")


def executorch_portable_kernels(matrix: Matrix) -> str:
    rows = matrix["rows"]
    return md.render(
        "executorch_portable_kernels",
        remainder_line=REMAINDER_LINE,
        unary_line=UNARY_LINE,
        reproduction=et.reproduction(REPRODUCER, rows, FIELD, et.NEWEST_OPENVINO, (et.NEWEST_OPENVINO,)),
        versions=et.environment_section(rows, FIELD))
