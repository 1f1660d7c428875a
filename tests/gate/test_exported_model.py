"""workaround.checker.blob_model and the checker's findings from it, on blobs plain OpenVINO compiles here: the IR
inside a CPU blob is found and read (its key recovered from the blob), with the attributes and folded names
the runtime graph lacks; the two rules built on it fire on what OpenVINO computes wrong and not on its
neighbours (the stock and workaround programs of the catalogue are in tests/gate/test_workaround_end_to_end.py).
"""

import io

import numpy as np
import pytest

from workaround.checker import blob_model
from workaround.checker.blob_differences import exported_model_findings

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset14")  # AvgPool-14 has the PyTorch frontend's ceil_torch


def blob_of(*outputs_and_parameters):
    *outputs, parameter = outputs_and_parameters
    exported = io.BytesIO()
    ov.Core().compile_model(ov.Model(outputs, [parameter]), "CPU").export_model(exported)
    return exported.getvalue()


def avg_pool_blob(rounding, pads, exclude_pad=False):
    x = ops.parameter([1, 1, 4, 4], np.float32)
    return blob_of(ops.avg_pool(x, [2, 2], pads, pads, [3, 3], exclude_pad, rounding), x)


def folded_constant_blob(make, name):
    """x + make(Range(-2, 2)), ``make`` named as the PyTorch frontend names an op: OpenVINO folds it into a
    constant (an Abs, from 2025.4.0, dropped first)."""
    x = ops.parameter([4], np.float32)
    folded = make(ops.range(ops.constant(np.float32(-2)), ops.constant(np.float32(2)), ops.constant(np.float32(1)),
                            "f32"))
    folded.set_friendly_name(name)
    return blob_of(ops.add(x, folded), x)


def test_layers_of_a_cpu_blob_carry_the_attributes_the_runtime_graph_lacks():
    pools = [layer for layer in blob_model.layers(avg_pool_blob("ceil", [1, 1])) if layer.type == "AvgPool"]
    assert len(pools) == 1
    expected = {"kernel": "3, 3", "strides": "2, 2", "pads_begin": "1, 1", "exclude-pad": "false",
                "rounding_type": "ceil"}
    assert {key: pools[0].data[key] for key in expected} == expected


def test_a_constant_keeps_the_names_of_the_ops_folded_into_it():
    found = list(blob_model.layers(folded_constant_blob(ops.abs, "pad/aten.abs.default/Abs")))
    constants = [layer for layer in found if "pad/aten.abs.default/Abs" in layer.fused_names]
    assert [layer.type for layer in constants] == ["Const"], found


def test_an_ir_not_obfuscated_is_read_too():
    """Period 1, key 0: a release that stopped obfuscating is still read."""
    text = b"".join(blob_model.ir_chunks(avg_pool_blob("ceil", [1, 1])))
    assert text.endswith(b"</net>")
    assert b"".join(blob_model.ir_chunks(b"header" + text + b"weights")) == text


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_the_ir_reads_the_same_in_chunks_of_any_size_even_with_its_end_split_between_two(chunk):
    blob = avg_pool_blob("ceil", [1, 1])
    assert b"".join(blob_model.ir_chunks(blob, chunk)) == b"".join(blob_model.ir_chunks(blob))


@pytest.mark.parametrize("blob", [b"", b"RR_UPCVO" + bytes(range(256)) * 40,
                                  np.random.default_rng(0).bytes(1 << 16)])
def test_bytes_without_an_ir_read_as_no_layers(blob):
    assert list(blob_model.layers(blob)) == []


@pytest.mark.parametrize(("rounding", "pads", "exclude_pad", "flagged"), [
    ("ceil", [1, 1], False, True),  # what OpenVINO divides by the whole kernel
    ("ceil_torch", [1, 1], False, True),  # what the PyTorch frontend makes of ceil_mode=True
    ("floor", [1, 1], False, False),
    ("ceil", [0, 0], False, False),
    ("ceil", [1, 1], True, False),
])
def test_avg_pool_is_flagged_only_with_ceil_rounding_counted_padding_and_padding(rounding, pads, exclude_pad,
                                                                                   flagged):
    found = {kind for kind, _, _ in exported_model_findings(avg_pool_blob(rounding, pads, exclude_pad))}
    assert found == ({"avg_pool_ceil_window_divisor"} if flagged else set())


@pytest.mark.parametrize(("folded", "name", "flagged"), [("abs", "pad/aten.abs.default/Abs", True),
                                                         ("negative", "pad/aten.neg.default/Negative", False)])
def test_a_constant_is_flagged_only_when_an_aten_abs_was_folded_into_it(folded, name, flagged):
    found = {kind for kind, _, _ in exported_model_findings(folded_constant_blob(getattr(ops, folded), name))}
    assert found == ({"constant_abs_dropped"} if flagged else set())


def compressed_matmul_blob(group_size=None):
    """x @ ((q - 128) * scale)^T, q a uint8 constant: the weight decompression the CPU plugin fuses into a
    FullyConnectedCompressed; ``group_size``: a DYNAMIC_QUANTIZATION_GROUP_SIZE runtime option the model
    carries."""
    rng = np.random.default_rng(0)
    x = ops.parameter([4, 64], np.float32)
    weight = ops.multiply(ops.subtract(ops.convert(ops.constant(rng.integers(0, 255, (16, 64), np.uint8)), "f32"),
                                       ops.constant(np.float32(128))),
                          ops.constant(rng.uniform(0.01, 0.02, (16, 1)).astype(np.float32)))
    model = ov.Model([ops.matmul(x, weight, False, True)], [x])
    if group_size is not None:
        model.set_rt_info(group_size, ["runtime_options", "DYNAMIC_QUANTIZATION_GROUP_SIZE"])
    exported = io.BytesIO()
    ov.Core().compile_model(model, "CPU").export_model(exported)
    return exported.getvalue()


@pytest.mark.parametrize(("group_size", "importer_quantizes", "flagged"), [
    (None, True, True),  # OpenVINO's default on an AVX-512 VNNI or AMX importer: int8 activations
    (None, False, False),  # an AVX2 importer has no such kernel
    ("0", True, False),  # pinned unquantized, as the workaround pins it
    ("32", True, True),
])
def test_compressed_matmuls_are_flagged_only_where_the_importer_quantizes_their_activations(
        group_size, importer_quantizes, flagged):
    blob = compressed_matmul_blob(group_size)
    assert any(layer.type == "FullyConnectedCompressed" for layer in blob_model.layers(blob))
    found = {kind for kind, _, _ in exported_model_findings(blob, importer_quantizes)}
    assert found == ({"activations_quantized"} if flagged else set())
