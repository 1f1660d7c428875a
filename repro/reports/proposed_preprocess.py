"""The change we propose to ExecuTorch's ``backends/openvino/preprocess.py``, as a unified diff.

It is built from the workaround's own functions (``workaround/boundary_dim_orders.py`` and the
dim-order helpers they use), copied into the file by ``inspect``, so the proposal and the
workaround cannot drift apart; the gate applies the diff to a copy of the installed file and
runs the catalogue's channels-last cases with the stock partitioner through it.

What changes in ``OpenvinoBackend.preprocess``: the boundary dim orders are read before the
passes revert dim-order ops, and ``openvino_compile`` (convert + compile in one call) is replaced
by the same conversion, then the boundary conversion, then ``compile_model``. ``openvino_compile``'s
cache handling is unused by ExecuTorch (no model hash) and its ``config`` option reaches
``compile_model`` as a string, which fails, so nothing that worked is lost.
"""

import difflib
import inspect
from importlib.metadata import version
from pathlib import Path

UPSTREAM_PATH = "backends/openvino/preprocess.py"
# What the proposal replaces in the stock file (executorch 1.5.1), and with what.
STOCK_IMPORT = '''from openvino.frontend.pytorch.torchdynamo.compile import (  # type: ignore[import-untyped]
    openvino_compile,
)
'''
STOCK_FIRST_PASS = "        for pass_cls in [DimOrderOpsRevertPass, DecomposeFloorDividePass]:\n"
STOCK_COMPILE = '''        compiled = openvino_compile(
            edge_program.module(), *args, options=compile_options
        )
'''
PROPOSED_COMPILE = '''        model = convert(edge_program.module(), args)
        honour_dim_orders(model, input_orders, output_orders)
        compiled = Core().compile_model(model, compile_options.get("device", "CPU"))
'''


class StockFileChanged(RuntimeError):
    """The installed preprocess.py is not the one the proposal was written against."""


def installed_preprocess():
    from executorch.backends.openvino import preprocess

    return Path(preprocess.__file__)


def helper_block():
    """The workaround's functions the proposal needs, as module-level source."""
    from workaround import boundary_dim_orders as boundary
    from workaround import boundary_marks, dim_order, layouts

    functions = [layouts.strides_in, dim_order.contiguous_strides, dim_order.is_ambiguous, dim_order.dim_order,
                 dim_order.is_default, boundary_marks.mark,
                 boundary.boundary_dim_orders, boundary.constant, boundary.read_input_in,
                 boundary.write_output_in, boundary.honour_dim_orders, boundary.convert]
    constants = (f"INPUT_MARK, OUTPUT_MARK = {boundary_marks.INPUT_MARK!r}, {boundary_marks.OUTPUT_MARK!r}\n"
                 f"TORCH_TO_OPENVINO_TYPES = {boundary.TORCH_TO_OPENVINO_TYPES!r}\n")  # torch dtypes repr as code
    header = ("# A boundary tensor in a non-default dim order reaches OpenVINO as its bytes labelled with its\n"
              "# logical sizes (OpenvinoBackend.cpp wraps buffers with sizes only): read and write it in that\n"
              "# order inside the compiled model.\n")
    return header + constants + "\n\n" + "\n\n".join(inspect.getsource(function) for function in functions)


def proposed_source(stock):
    for part in (STOCK_IMPORT, STOCK_FIRST_PASS, STOCK_COMPILE, "\n@final\n"):
        if stock.count(part) != 1:
            raise StockFileChanged(f"{UPSTREAM_PATH} of executorch {version('executorch')} does not contain "
                                   f"exactly one {part.strip().splitlines()[0]!r}: the proposal needs rewriting")
    return (stock.replace(STOCK_IMPORT, "import numpy as np\nimport torch\nfrom openvino import Core  "
                                        "# type: ignore[import-untyped]\n")
            .replace("\n@final\n", "\n" + helper_block() + "\n\n@final\n")
            .replace(STOCK_FIRST_PASS, "        input_orders, output_orders = boundary_dim_orders(edge_program)\n"
                                       + STOCK_FIRST_PASS)
            .replace(STOCK_COMPILE, PROPOSED_COMPILE))


def proposed_diff():
    """The unified diff of the proposal against the installed executorch's preprocess.py."""
    stock = installed_preprocess().read_text()
    return "".join(difflib.unified_diff(stock.splitlines(keepends=True),
                                        proposed_source(stock).splitlines(keepends=True),
                                        f"a/{UPSTREAM_PATH}", f"b/{UPSTREAM_PATH}"))
