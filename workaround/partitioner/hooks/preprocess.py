"""Compile each OpenVINO partition to read and write its boundary tensors in their own dim order.

Why: ExecuTorch's OpenVINO runtime hands OpenVINO every delegate input and output as a buffer
labelled with its sizes only, so a channels-last tensor entering a partition (a camera frame fed
to a conv) or leaving it (a conv's channels-last result) is read or written as if it were
contiguous. Converting inside the compiled model costs almost nothing (OpenVINO's CPU plugin
prefers channels-last internally), where converting in ExecuTorch's portable kernels costs
several times the model.

How: ``preprocess`` does what ExecuTorch 1.5.1's ``OpenvinoBackend.preprocess`` does (its two passes, OpenVINO's
PyTorch frontend, compile, export) with one step between conversion and compilation. Each input whose dim order
``d`` is not the default becomes ``Parameter(sizes) -> Reshape(ShapeOf[d]) -> Transpose(inverse of d)`` (the bytes
reinterpreted in memory order, then the logical tensor restored), each such output ``Transpose(d) ->
Reshape(ShapeOf)`` (the bytes written in the order ExecuTorch expects). The targets come from ``ShapeOf``, so
dynamic dimensions work. A partition whose boundary is all in the default dim order, that asks for no inference
precision, has no int64 boundary tensor and holds no compressed weight and no dynamic quantization asked for
(``workaround.partitioner.delegate.compressed_weights``: the group size is pinned in the blob, 0 by default), goes
to the stock preprocess untouched (unless it was made with ``special_values="torch"``:
``workaround.partitioner.exact_rewrites`` rewrites some of its ops exactly), and so does every partition the
copy-safe rule did not make (``workaround.contract.provenance``). An int64 boundary tensor is named
``executorch_int64_within_int32:<position>``: the partitioner proved its values fit int32, the precision OpenVINO
computes int64 in.

The converted tensors carry the names ``executorch_input_dim_order:<port>:0,2,3,1`` /
``executorch_output_dim_order:...`` (``workaround.contract.boundary_marks``), which survive
``export_model``/``import_model``: that is how ``workaround.checker.program_check`` tells a delegate that honours
its dim orders from a stock one.

``CopySafeOpenvinoPartitioner`` installs this preprocess when constructed, ``install()`` too;
``uninstall()`` restores the stock one.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from executorch.backends.openvino.preprocess import OpenvinoBackend
from executorch.exir.backend.backend_details import PreprocessResult
from torch.export import ExportedProgram
from torch.export.graph_signature import OutputKind

from workaround.contract.boundary_marks import INPUT_MARK, OUTPUT_MARK, int64_mark, mark
from workaround.contract.delegate_specs import SPECIAL_VALUES_KEY, SpecialValues
from workaround.contract.openvino_types import OpenvinoModel, OpenvinoNode
from workaround.contract.provenance import made_by_workaround
from workaround.partitioner import exact_rewrites
from workaround.partitioner.delegate import grouped_attention
from workaround.partitioner.delegate import state as delegate_state
from workaround.partitioner.delegate.compressed_weights import (
    DYNAMIC_QUANTIZATION,
    UNQUANTIZED,
    holds_compressed_weights,
    pin_dynamic_quantization,
)
from workaround.partitioner.exact_rewrites import constant_abs
from workaround.partitioner.graph.nodes import aten_op
from workaround.partitioner.hooks.method_patch import MethodPatch
from workaround.partitioner.layouts.dim_order import dim_order, is_default

DimOrder = Sequence[int] | None

# A CompileSpec of this key ("f32", "bf16", "f16") reaches compile_model as INFERENCE_PRECISION_HINT;
# the stock preprocess ignores it (its only working keys are "device" and, as a string, "config").
PRECISION_KEY = "inference_precision"
TORCH_TO_OPENVINO_TYPES = {torch.float32: "f32", torch.float64: "f64", torch.float16: "f16",
                           torch.bfloat16: "bf16", torch.int64: "i64", torch.int32: "i32", torch.int8: "i8",
                           torch.uint8: "u8", torch.bool: "boolean"}


def boundary_values(edge_program: ExportedProgram) -> tuple[list[object], list[object]]:
    """(the example value of each user input, of each output that crosses the boundary) of a partition; None for
    non-nodes. A buffer's new value does not cross it: the delegate keeps it (``delegate.state``)."""
    user_inputs = set(edge_program.graph_signature.user_inputs)
    inputs = [node.meta.get("val") for node in edge_program.graph.nodes
              if node.op == "placeholder" and node.name in user_inputs]
    output = next(node for node in edge_program.graph.nodes if node.op == "output")
    kinds = [spec.kind for spec in edge_program.graph_signature.output_specs]
    outputs = [arg.meta.get("val") if isinstance(arg, torch.fx.Node) else None
               for arg, kind in zip(torch.utils._pytree.tree_leaves(output.args[0]), kinds, strict=True)
               if kind != OutputKind.BUFFER_MUTATION]
    return inputs, outputs


def constant(values: Sequence[int] | int) -> OpenvinoNode:
    import openvino.opset8 as ops

    return ops.constant(np.array(values, dtype=np.int64))


def read_input_in(model: OpenvinoModel, index: int, order: list[int]) -> None:
    """Input ``index`` arrives as the bytes of a tensor in dim order ``order``, labelled with its sizes."""
    import openvino.opset8 as ops

    old = model.get_parameters()[index]
    new = ops.parameter(old.get_partial_shape(), old.get_element_type(), name=old.get_friendly_name())
    in_memory_order = ops.reshape(new, ops.gather(ops.shape_of(new), constant(order), constant(0)), False)
    logical = ops.transpose(in_memory_order, constant([order.index(d) for d in range(len(order))]))
    for target in list(old.output(0).get_target_inputs()):
        target.replace_source_output(logical.output(0))
    model.replace_parameter(index, new)
    new.output(0).get_tensor().set_names(old.output(0).get_names() | {mark(INPUT_MARK, index, order)})


def write_output_in(model: OpenvinoModel, index: int, order: list[int]) -> None:
    """Output ``index`` is written as the bytes of a tensor in dim order ``order``."""
    import openvino.opset8 as ops

    result = model.get_results()[index]
    value = result.input_value(0)
    in_memory_order = ops.transpose(value, constant(order))
    labelled = ops.reshape(in_memory_order, ops.shape_of(value), False)
    result.input(0).replace_source_output(labelled.output(0))
    model.outputs[index].get_tensor().set_names({mark(OUTPUT_MARK, index, order)})


def is_int64(value: object) -> bool:
    return isinstance(value, torch.Tensor) and value.dtype is torch.int64


def mark_int64_boundaries(model: OpenvinoModel, examples: Sequence[object],
                          output_values: Sequence[object]) -> None:
    """Name every int64 boundary tensor as proven within int32: the partitioner handed back every node whose
    int64 values it could not prove so (``workaround.partitioner.rules.openvino_hand_back``), and the checker reads
    the names back."""
    ports = [*model.inputs, *model.outputs]
    values = [*examples, *output_values]
    for position, (port, value) in enumerate(zip(ports, values, strict=True)):
        if is_int64(value):
            port.get_tensor().set_names(port.get_names() | {int64_mark(position)})


def honour_dim_orders(model: OpenvinoModel, input_orders: Sequence[DimOrder],
                      output_orders: Sequence[DimOrder]) -> None:
    """Convert every non-default boundary tensor inside ``model`` (an ``ov.Model``), in place."""
    for index, order in enumerate(input_orders):
        if order is not None and not is_default(order):
            read_input_in(model, index, list(order))
    for index, order in enumerate(output_orders):
        if order is not None and not is_default(order):
            write_output_in(model, index, list(order))
    model.validate_nodes_and_infer_types()


def convert(graph_module: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> OpenvinoModel:
    """The partition as an ``ov.Model``, converted and typed the way ``openvino_compile`` does it."""
    from openvino import PartialShape, Type
    from openvino.frontend import FrontEndManager
    from openvino.frontend.pytorch.fx_decoder import TorchFXPythonDecoder

    decoder = TorchFXPythonDecoder(graph_module)
    frontend = FrontEndManager().load_by_framework("pytorch")
    model = frontend.convert(frontend.load(decoder))
    for index, example in enumerate(example_inputs):
        parameter = model.inputs[index].get_node()
        if isinstance(example, int):
            parameter.set_element_type(Type.i64)
            parameter.set_partial_shape(PartialShape([1]))
        else:
            parameter.set_element_type(getattr(Type, TORCH_TO_OPENVINO_TYPES[example.dtype]))
            parameter.set_partial_shape(PartialShape(list(decoder.input_shapes[index])))
    model.validate_nodes_and_infer_types()
    return model


def has_attention(graph: torch.fx.Graph) -> bool:
    """Whether the partition holds an attention kept whole
    (``workaround.partitioner.delegate.grouped_attention``)."""
    return any(node.op == "call_function" and aten_op(node) is grouped_attention.ATTENTION for node in graph.nodes)


def has_abs(graph: torch.fx.Graph) -> bool:
    """Whether the partition takes an ``abs``, which the exact rewrites keep from being dropped when it is
    constant (``workaround.partitioner.exact_rewrites.constant_abs``)."""
    return any(node.op == "call_function" and aten_op(node) in constant_abs.MAKES_EXACT for node in graph.nodes)


def preprocess(cls: type, edge_program: ExportedProgram, compile_specs: Sequence[Any]) -> PreprocessResult:
    """OpenvinoBackend.preprocess, honouring each boundary tensor's dim order (see the module docstring)."""
    from executorch.backends.openvino._passes import DecomposeFloorDividePass
    from executorch.exir.passes.memory_format_ops_pass import DimOrderOpsRevertPass
    from openvino import Core

    if not made_by_workaround(edge_program.graph):
        return BOUNDARY_DIM_ORDERS.stock.__func__(cls, edge_program, compile_specs)
    examples, output_values = boundary_values(edge_program)  # before the passes revert dim-order ops
    input_orders, output_orders = [dim_order(value) for value in examples], [dim_order(v) for v in output_values]
    options = {spec.key: spec.value.decode() for spec in compile_specs}
    precision = options.get(PRECISION_KEY)
    special_values = SpecialValues(options.get(SPECIAL_VALUES_KEY, SpecialValues.OPENVINO))
    # Asked for among the compile specs, or pinned to 0 where a compressed weight would quantize activations.
    dynamic_quantization = options.get(DYNAMIC_QUANTIZATION) or (
        UNQUANTIZED if holds_compressed_weights(edge_program) else None)
    stock_would_do = precision is None and special_values != SpecialValues.TORCH and not any(
        map(is_int64, [*examples, *output_values])) and not has_abs(edge_program.graph) \
        and dynamic_quantization is None and not delegate_state.states(edge_program) \
        and not has_attention(edge_program.graph)
    if all(map(is_default, input_orders + output_orders)) and stock_would_do:
        return BOUNDARY_DIM_ORDERS.stock.__func__(cls, edge_program, compile_specs)
    for pass_class in (DimOrderOpsRevertPass, DecomposeFloorDividePass):
        result = pass_class()(edge_program.graph_module)
        if result and result.graph_module:
            edge_program._graph_module = result.graph_module
    grouped_attention.rewrite(edge_program.graph_module)
    owned = delegate_state.states(edge_program)
    if owned:
        graph_module, mutated = delegate_state.graph_with_state_at_the_boundary(edge_program, owned)
        model = convert(graph_module, [*(state.initial for state in owned), *examples])
        delegate_state.keep_state_inside(model, owned, mutated)
    else:
        model = convert(edge_program.module(), examples)
    exact_rewrites.rewrite(model, special_values)
    honour_dim_orders(model, input_orders, output_orders)
    mark_int64_boundaries(model, examples, output_values)
    if dynamic_quantization is not None:
        pin_dynamic_quantization(model, dynamic_quantization)
    config = {"INFERENCE_PRECISION_HINT": precision} if precision else {}
    compiled = Core().compile_model(model, options.get("device", "CPU"), config)
    return PreprocessResult(processed_bytes=compiled.export_model().getvalue())


BOUNDARY_DIM_ORDERS = MethodPatch(OpenvinoBackend, "preprocess", classmethod(preprocess))
