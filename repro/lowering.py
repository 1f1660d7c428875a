"""Lowering a catalogue case for the OpenVINO delegate, and what the lowered program contains.

``torch.export`` -> ``to_edge_transform_and_lower`` with one of the named lowerings
(stock ``OpenvinoPartitioner``, the project's workaround, or no partitioner at all), plus
the checks that the real runtime can run OpenVINO delegates here at all.
"""

import contextlib
import ctypes
import os
import sys
from importlib.metadata import version
from pathlib import Path

import torch

PROJECT = Path(__file__).resolve().parent.parent


class Untestable(RuntimeError):
    """ExecuTorch, its OpenVINO backend or OpenVINO's C library cannot be used here."""


def locate_openvino_c():
    """Point the runtime's dlopen at the wheel's libopenvino_c unless the caller already did."""
    if os.environ.get("OPENVINO_LIB_PATH"):
        return os.environ["OPENVINO_LIB_PATH"]
    try:
        import openvino
    except Exception as error:
        raise Untestable(f"cannot import openvino: {error}") from error
    libs = sorted((Path(openvino.__file__).parent / "libs").glob("libopenvino_c.so*"))
    if not libs:
        raise Untestable(f"no libopenvino_c.so* in the openvino wheel ({version('openvino')})")
    os.environ["OPENVINO_LIB_PATH"] = str(libs[0])
    return str(libs[0])


def check_runtime():
    """The runtime must have the OpenVINO delegate and a libopenvino_c to load (it reads
    OPENVINO_LIB_PATH when it first loads a delegate, so this runs before any program)."""
    locate_openvino_c()
    try:
        from executorch.runtime import Runtime
    except Exception as error:
        raise Untestable(f"cannot import executorch.runtime: {error}") from error
    try:
        ctypes.CDLL(os.environ["OPENVINO_LIB_PATH"])
    except OSError as error:
        raise Untestable(f"cannot load OPENVINO_LIB_PATH={os.environ['OPENVINO_LIB_PATH']}: {error}") from error
    names = Runtime.get().backend_registry.registered_backend_names
    if "OpenvinoBackend" not in names:
        raise Untestable(f"this ExecuTorch runtime has no OpenvinoBackend (it has {names})")


# --- The lowerings ----------------------------------------------------------------------------


def stock_partitioner():
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir.backend.backend_details import CompileSpec

    return OpenvinoPartitioner([CompileSpec("device", b"CPU")]), []


def make_project_importable():
    """Put the project root on sys.path, so that ``workaround`` imports when a script runs from repro/."""
    if str(PROJECT) not in sys.path:
        sys.path.insert(0, str(PROJECT))


def workaround_partitioner():
    """The copy-safe partitioner: the whole fix, one line in an export script."""
    make_project_importable()
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    return CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")]), []


def no_partitioner():
    """ExecuTorch's own kernels only: what ExecuTorch can run without OpenVINO."""
    return None, []


# name -> () -> (partitioner or None, transform passes)
PARTITIONERS = {"stock": stock_partitioner, "workaround": workaround_partitioner, "none": no_partitioner}


def compile_config(case):
    from executorch.exir import EdgeCompileConfig

    return EdgeCompileConfig(_skip_dim_order=case.skip_dim_order)


def lower(case, lowering, config=None):
    """torch.export -> edge dialect (``config`` or the case's), lowered with (partitioner, transform passes)."""
    from executorch.exir import to_edge_transform_and_lower

    partitioner, passes = lowering
    dynamic_shapes = case.dynamic_shapes() if case.dynamic_shapes else None
    exported = torch.export.export(case.module(), case.inputs(), dynamic_shapes=dynamic_shapes)
    config = config or compile_config(case)
    with contextlib.redirect_stdout(sys.stderr):  # the partitioner prints every op it rejects
        return to_edge_transform_and_lower(exported, partitioner=[partitioner] if partitioner else None,
                                           transform_passes=passes, compile_config=config)


# --- Inspecting the lowered program ---------------------------------------------------


def op_name(node):
    return getattr(node.target, "__name__", str(node.target))


def is_delegate_call(node):
    return node.op == "call_function" and node.target is torch.ops.higher_order.executorch_call_delegate


def delegated_and_outside_ops(edge):
    """Op names inside OpenVINO delegates, and op names left to ExecuTorch's kernels."""
    graph_module = edge.exported_program().graph_module
    inside, outside = [], []
    for node in graph_module.graph.nodes:
        if is_delegate_call(node):
            lowered = getattr(graph_module, node.args[0].target)
            inside += [op_name(n) for n in lowered.original_module.graph.nodes if n.op == "call_function"]
        elif node.op == "call_function" and op_name(node) != "getitem":
            outside.append(op_name(node))
    return sorted(inside), sorted(outside)
