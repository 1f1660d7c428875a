"""The conversion the workaround's preprocess adds at partition boundaries, on plain OpenVINO models.

A tensor in dim order ``d`` reaches OpenVINO as its bytes in memory order labelled with its logical
sizes; the compiled model must read (input) or write (output) exactly those bytes. Checked for
every rank ExecuTorch can express, every dtype the delegate takes, static and dynamic shapes, and
for the marks that let the checker recognise such a model after export and import.
"""

import numpy as np
import pytest

from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()
boundary = pytest.importorskip("workaround.partitioner.hooks.preprocess")

import openvino as ov  # noqa: E402
import openvino.opset8 as ops  # noqa: E402

from workaround.contract.boundary_marks import INPUT_MARK, OUTPUT_MARK, mark, read_mark  # noqa: E402

ORDERS = {"nhwc": (0, 2, 3, 1), "transposed_matrix": (1, 0), "rank3": (0, 2, 1), "ndhwc": (0, 2, 3, 4, 1)}
SHAPES = {2: (3, 5), 3: (2, 3, 5), 4: (2, 3, 4, 5), 5: (2, 3, 2, 4, 5)}
DTYPES = [np.float32, np.float16, np.int64, np.int32, np.int8, np.uint8, np.bool_]


def as_handed_over(logical, order):
    """The bytes of ``logical`` stored in dim order ``order``, labelled with the logical sizes."""
    return np.ascontiguousarray(logical.transpose(order)).reshape(logical.shape)


def values(shape, dtype):
    data = np.arange(np.prod(shape)).reshape(shape) % 7
    return data.astype(dtype)


def identity_model(shape, dtype, dynamic_batch=False):
    """x -> x + 0 (+ or logical_or for bool): each element must stay where its logical index says."""
    partial = ov.PartialShape([-1, *shape[1:]]) if dynamic_batch else ov.PartialShape(list(shape))
    x = ops.parameter(partial, ov.Type(np.dtype(dtype)), name="x")
    zero = ops.constant(np.zeros((), dtype))
    body = ops.logical_or(x, zero) if dtype is np.bool_ else ops.add(x, zero)
    return ov.Model([ops.result(body)], [x])


def infer(model, array):
    return ov.Core().compile_model(model, "CPU").create_infer_request().infer([array])[0]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_input_in_any_dim_order_is_read_as_the_logical_tensor(order, dtype):
    logical = values(SHAPES[len(order)], dtype)
    model = identity_model(logical.shape, dtype)
    boundary.honour_dim_orders(model, [order], [None])
    assert np.array_equal(infer(model, as_handed_over(logical, order)), logical)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda t: np.dtype(t).name)
@pytest.mark.parametrize("order", ORDERS.values(), ids=ORDERS.keys())
def test_output_in_any_dim_order_is_written_in_that_order(order, dtype):
    logical = values(SHAPES[len(order)], dtype)
    model = identity_model(logical.shape, dtype)
    boundary.honour_dim_orders(model, [None], [order])
    assert np.array_equal(infer(model, logical), as_handed_over(logical, order))


def test_dynamic_batch_takes_the_reshape_target_from_the_input_shape():
    order = (0, 2, 3, 1)
    model = identity_model(SHAPES[4], np.float32, dynamic_batch=True)
    boundary.honour_dim_orders(model, [order], [order])
    reshapes = [node for node in model.get_ordered_ops() if node.get_type_name() == "Reshape"]
    assert len(reshapes) == 2
    for reshape in reshapes:
        target = reshape.input_value(1).get_node()
        while target.get_type_name() not in ("ShapeOf", "Constant"):
            target = target.input_value(0).get_node()
        assert target.get_type_name() == "ShapeOf", "a constant target would pin the batch size"
    for batch in (1, 3):
        logical = values((batch, *SHAPES[4][1:]), np.float32)
        assert np.array_equal(infer(model, as_handed_over(logical, order)), as_handed_over(logical, order))


def test_marks_name_each_converted_tensor_and_survive_export_and_import():
    order = (0, 2, 3, 1)
    model = identity_model(SHAPES[4], np.float32)
    boundary.honour_dim_orders(model, [order], [order])
    core = ov.Core()
    imported = core.import_model(core.compile_model(model, "CPU").export_model().getvalue(), "CPU")
    assert mark(INPUT_MARK, 0, order) in imported.inputs[0].get_names()
    assert mark(OUTPUT_MARK, 0, order) in imported.outputs[0].get_names()


def test_two_inputs_in_the_same_dim_order_get_distinct_marks():
    """OpenVINO makes tensor names unique: without the port in the mark the second would get a suffix."""
    order = (0, 2, 3, 1)
    x, y = (ops.parameter(list(SHAPES[4]), np.float32, name=name) for name in ("x", "y"))
    model = ov.Model([ops.result(ops.add(x, y))], [x, y])
    boundary.honour_dim_orders(model, [order, order], [None])
    core = ov.Core()
    imported = core.import_model(core.compile_model(model, "CPU").export_model().getvalue(), "CPU")
    assert [read_mark(INPUT_MARK, name) for port in imported.inputs for name in port.get_names()
            if name.startswith(INPUT_MARK)] == [(0, list(order)), (1, list(order))]


def test_default_dim_orders_leave_the_model_unchanged():
    model = identity_model(SHAPES[4], np.float32)
    before = [node.get_type_name() for node in model.get_ordered_ops()]
    boundary.honour_dim_orders(model, [(0, 1, 2, 3)], [None])
    assert [node.get_type_name() for node in model.get_ordered_ops()] == before


def test_partition_lowered_with_a_dynamic_batch_reads_any_batch_in_its_dim_order():
    """Through torch.export with a dynamic batch and the workaround's partitioner: the delegate's own
    compiled model keeps its input's batch dynamic and reads a channels-last frame of any batch correctly.
    (Its output is the batch mean: a dynamic-shaped output would be kept out of the partition.)"""
    import torch
    from executorch.exir import to_edge_transform_and_lower

    from repro.harness.lowering.named import WORKAROUND
    from repro.harness.models import catalogue

    model = catalogue.Forward(lambda x: catalogue.CONV(x).mean(0, keepdim=True)).eval()
    frame = catalogue.uniform(2, 3, 4, 4, channels_last=True)
    exported = torch.export.export(model, (frame,), dynamic_shapes=(({0: torch.export.Dim("batch", max=8)},),))
    partitioner, _ = WORKAROUND.make()
    edge = to_edge_transform_and_lower(exported, partitioner=[partitioner])
    [blob] = [bytes(module.processed_bytes) for module in edge.exported_program().graph_module.modules()
              if type(module).__name__ == "LoweredBackendModule"]
    compiled = ov.Core().import_model(blob, "CPU")
    assert compiled.inputs[0].get_partial_shape()[0].is_dynamic
    marks = {prefix: read_mark(prefix, name) for prefix, port in ((INPUT_MARK, compiled.inputs[0]),
                                                                  (OUTPUT_MARK, compiled.outputs[0]))
             for name in port.get_names() if name.startswith(prefix)}
    order = (0, 2, 3, 1)
    assert marks[INPUT_MARK] == (0, list(order)), "the channels-last input is converted"
    output_order = marks[OUTPUT_MARK][1] if OUTPUT_MARK in marks else (0, 1, 2, 3)  # as the program declares it
    for batch in (1, 3):
        x = catalogue.uniform(batch, 3, 4, 4)
        out = compiled.create_infer_request().infer([as_handed_over(x.numpy(), order)])[0]
        expected = as_handed_over(model(x).detach().numpy(), output_order)
        assert out.shape == expected.shape
        assert np.abs(out - expected).max() < catalogue.CONV_ATOL
