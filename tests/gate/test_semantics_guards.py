"""The semantics guards on tagged graphs, without compiling or running OpenVINO: each rule of
``workaround.partitioner.rules.openvino_hand_back`` hands back exactly the nodes it names, and where a proof lets a
node stay (``workaround.partitioner.rules.value_ranges``), both sides of the proof are held.

What the handed-back programs compute is held to eager in the real runtime by the catalogue's semantics
cases (tests/gate/test_workaround_end_to_end.py); here only membership, by op identity.
"""

import re

import pytest

from tests.support.helpers import skip_module_without_executorch_path, tagged

skip_module_without_executorch_path()
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from repro.harness.cases.program_contents import op_name  # noqa: E402
from workaround.contract import differences  # noqa: E402
from workaround.partitioner.rules.exclusion import HANDED_BACK_BECAUSE, CannotHandBackError, partition_of  # noqa: E402
from workaround.partitioner.rules.value_ranges import Interval, ValueRanges  # noqa: E402

INT64, INT32, UINT8 = torch.int64, torch.int32, torch.uint8
TABLE = torch.arange(30.0).reshape(10, 3)


def handed_back(function, *inputs, **options):
    """{op name: reason} of the nodes a semantics rule handed back; the delegated op names."""
    program, _ = tagged(function, inputs, **options)
    reasons, delegated = {}, []
    for node in program.graph_module.graph.nodes:
        if node.op != "call_function" or op_name(node) == "getitem":
            continue
        if HANDED_BACK_BECAUSE in node.meta:
            reasons[op_name(node)] = node.meta[HANDED_BACK_BECAUSE]
        if partition_of(node) is not None:
            delegated.append(op_name(node))
    return reasons, sorted(delegated)


def ints(*values, dtype=INT64):
    return torch.tensor(values, dtype=dtype)


@pytest.mark.parametrize(("function", "inputs", "op", "reason"), [
    (lambda x: x * x, (ints(3, 4),), "aten.mul.Tensor", "int64 is computed in 32 bits"),
    (lambda x: x.reshape(2, 1) + 0, (ints(3, 4),), "aten.view_copy.default", "int64 is computed in 32 bits"),
    (lambda x: torch.arange(4) * 2**40 + x, (torch.ones(4, dtype=torch.int64),), "aten.add.Tensor",
     "int64 is computed in 32 bits"),
    (lambda x, y: x + y, (ints(1, 2, dtype=UINT8), ints(3, 4, dtype=UINT8)), "aten.add.Tensor", "saturates"),
    (lambda x: x * 3, (ints(1, 2, dtype=torch.int8),), "aten.mul.Tensor", "saturates"),
    (lambda x, y: x // y, (ints(7, 8, dtype=INT32), ints(2, 3, dtype=INT32)), "aten.div.Tensor_mode",
     "floor division goes through float32"),
    (lambda x, y: torch.div(x, y, rounding_mode="trunc"), (torch.ones(2), torch.ones(2)), "aten.div.Tensor_mode",
     "trunc division"),
    (lambda x: torch.fmod(x, 3.0), (torch.ones(2),), "aten.fmod.Scalar", "remainder"),
    (torch.fmod, (ints(7, 8, dtype=INT32), ints(2, 3, dtype=INT32)), "aten.fmod.Tensor", "remainder"),
    (lambda x: torch.remainder(x.abs(), 3), (ints(7, 8, dtype=INT32),), "aten.remainder.Scalar", "remainder"),
    (lambda x: x * 2, (torch.ones(2, dtype=torch.float64),), "aten.mul.Tensor", "float64"),
    (lambda x: x + 1, (ints(1, 2, dtype=torch.int16),), "aten.add.Tensor", "int16"),
    (lambda x: x + 1, (torch.ones(2, dtype=torch.bfloat16),), "aten.add.Tensor", "bfloat16"),
    (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True), (torch.ones(1, 1, 4, 4),), "aten.avg_pool2d.default",
     "ceil_mode"),
    (lambda x: F.avg_pool2d(x, 2, divisor_override=3), (torch.ones(1, 1, 4, 4),), "aten.avg_pool2d.default",
     "divisor_override"),
    # round two: integers through float32, float16 kept in float32
    (lambda x, y: x == y, (ints(1, 2, dtype=INT32), ints(1, 3, dtype=INT32)), "aten.eq.Tensor", "comparisons"),
    (lambda x, y: x == y, (ints(1, 2), ints(1, 3)), "aten.eq.Tensor", "int64 is computed in 32 bits"),
    (lambda x: x >= 1700000001, (ints(1, 2, dtype=INT32),), "aten.ge.Scalar", "comparisons"),
    (lambda x: x < 3, (ints(1, 2, dtype=INT32),), "aten.lt.Scalar", "comparisons"),
    (torch.logical_not, (ints(2**31 - 1, 0, dtype=INT32),), "aten.logical_not.default", "comparisons"),
    (lambda x: x.amax(1), (ints([1, 2], [3, 4], dtype=INT32),), "aten.amax.default", "max / min"),
    (lambda x: x.min(1)[0], (ints([1, 2], [3, 4], dtype=INT32),), "aten.min.dim", "max / min"),
    (lambda x: x.clamp(0, 5), (ints(1, 9, dtype=INT32),), "aten.clamp.default", "max / min"),
    (torch.relu, (ints(1, -9, dtype=INT32),), "aten.relu.default", "max / min"),
    (lambda x: x.clamp(0, 50000) ** 2, (ints(1, 9, dtype=INT32),), "aten.pow.Tensor_Scalar", "integer pow"),
    (lambda x: x.half().float(), (torch.ones(2),), "dim_order_ops._to_dim_order_copy.default", "float16"),
    (lambda x: (x.half() * 3).float(), (torch.ones(2),), "aten.mul.Tensor", "float16"),
])
def test_op_openvino_computes_differently_is_handed_back_saying_why(function, inputs, op, reason):
    reasons, delegated = handed_back(function, *inputs)
    assert op in reasons, (reasons, delegated)
    assert reason in reasons[op]


@pytest.mark.parametrize(("function", "inputs", "op"), [
    # int64 proven within int32: positions from arange and shapes, indices bounded by the table they index.
    (lambda x: x + (torch.arange(4) * 3 + 1), (torch.ones(2, 4),), "aten.mul.Tensor"),
    (lambda ids: F.embedding(ids, TABLE), (ints(1, 9),), "aten.embedding.default"),
    (lambda x: torch.gather(x, 1, x.argmax(1, keepdim=True) + 1), (torch.rand(3, 4),), "aten.gather.default"),
    # uint8 that cannot leave its range: a view, and a conversion (which wraps in OpenVINO as in PyTorch).
    (lambda x: x.reshape(2, 2) + 0.5, (ints(1, 2, 3, 4, dtype=UINT8),), "aten.view_copy.default"),
    (lambda x: (x * 300).to(UINT8), (torch.ones(2),), "dim_order_ops._to_dim_order_copy.default"),
    # integer division with operands float32 holds exactly
    (lambda x: x + torch.arange(6) // 4, (torch.ones(6),), "aten.div.Tensor_mode"),
    # float floor division, true division of integers, and pools without all three of ceil, pad and counting pad
    (lambda x, y: torch.div(x, y, rounding_mode="floor"), (torch.ones(2), torch.ones(2)), "aten.div.Tensor_mode"),
    (lambda x, y: x / y, (ints(7, 8, dtype=INT32), ints(2, 3, dtype=INT32)), "aten.div.Tensor"),
    (lambda x: F.avg_pool2d(x, 3, 2, 0, ceil_mode=True), (torch.ones(1, 1, 5, 5),), "aten.avg_pool2d.default"),
    (lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False), (torch.ones(1, 1, 4, 4),),
     "aten.avg_pool2d.default"),
    # an abs that reads an input; the Abs of a constant, rewritten exactly in the delegate (reflection padding)
    (lambda x: torch.abs(x) + 1, (torch.ones(2),), "aten.abs.default"),
    (lambda x: F.pad(x, (2, 1), mode="reflect"), (torch.ones(1, 1, 5),), "aten.abs.default"),
    # a constant computation read only by constants is folded by OpenVINO's exact reference kernels; where it
    # reaches a runtime op, its evaluated values are its range
    (lambda x: x + (torch.arange(4) * 2**40 // 2**38), (torch.ones(4),), "aten.mul.Tensor"),
    (lambda x: x + (torch.arange(4) * 2**40 // 2**38), (torch.ones(4),), "aten.div.Tensor_mode"),
    # integers float32 holds exactly: compared, reduced and raised within +-2**24 (by proof or by dtype)
    (lambda x: x + (torch.arange(4) > 2), (torch.ones(4),), "aten.gt.Scalar"),
    (lambda x: x + torch.arange(4) ** 2, (torch.ones(4),), "aten.pow.Tensor_Scalar"),
    (lambda x, y: x == y, (ints(1, 2, dtype=UINT8), ints(1, 3, dtype=UINT8)), "aten.eq.Tensor"),
    (lambda x: x.amax(1), (ints([1, 2], [3, 4], dtype=torch.int8),), "aten.amax.default"),
    # integer ops measured exact beyond 2**24
    (torch.maximum, (ints(1, 2, dtype=INT32), ints(1, 3, dtype=INT32)), "aten.maximum.default"),
    (lambda x: x.abs(), (ints(1, -2, dtype=INT32),), "aten.abs.default"),
    # float16 that leaves its partition as float16 is rounded there, as in PyTorch
    (lambda x: x.half(), (torch.ones(2),), "dim_order_ops._to_dim_order_copy.default"),
])
def test_op_openvino_computes_as_pytorch_stays_delegated(function, inputs, op):
    reasons, delegated = handed_back(function, *inputs)
    assert op in delegated, (reasons, delegated)


@pytest.mark.parametrize("function", [lambda x: x > 0, lambda x: x.amax(1), torch.exp])
def test_special_values_are_openvinos_by_default_and_pytorchs_when_asked(function):
    x = torch.rand(2, 2)
    _, delegated_by_default = handed_back(function, x)
    reasons, delegated = handed_back(function, x, special_values="torch")
    assert delegated_by_default, "the default leaves NaN and infinities to OpenVINO"
    assert reasons
    assert all("NaN" in why or "inf" in why for why in reasons.values()), reasons
    assert not set(reasons) & set(delegated)


@pytest.mark.parametrize(("function", "op"), [
    (torch.relu, "aten.relu.default"), (lambda x: x.clamp(0, 1), "aten.clamp.default"),
    (F.hardtanh, "aten.hardtanh.default"), (lambda x: torch.maximum(x, 1 - x), "aten.maximum.default"),
    (lambda x: torch.minimum(x, 1 - x), "aten.minimum.default"), (torch.sign, "aten.sign.default"),
    (lambda x: F.max_pool2d(x.reshape(1, 1, 2, 2), 2), "aten.max_pool2d_with_indices.default"),
    (lambda x: x.softmax(1), "aten._softmax.default"), (lambda x: x.log_softmax(1), "aten._log_softmax.default")])
def test_special_values_an_exact_rewrite_makes_pytorchs_stay_delegated(function, op):
    """With special_values="torch", the ops workaround.partitioner.exact_rewrites makes exact stay in the delegate,
    whose delegation spec asks for the rewrites."""
    program, tags = tagged(function, (torch.rand(2, 2),), special_values="torch")
    delegated = {op_name(node) for node in program.graph_module.graph.nodes if partition_of(node) is not None}
    assert op in delegated, delegated
    assert all(("special_values", b"torch") in {(spec.key, spec.value) for spec in delegation.compile_specs}
               for delegation in tags.values()), tags


def test_a_max_pool_whose_indices_are_read_is_refused_with_torch_special_values():
    """The rewrite leaves the indices as OpenVINO makes them (a NaN's index is not PyTorch's), and ExecuTorch's own
    kernel drops NaN too: refused, in one line, rather than handed back to wrong values."""
    pool = lambda x: F.max_pool2d(x, 2, return_indices=True)  # noqa: E731
    with pytest.raises(CannotHandBackError, match=r"max_pool2d_with_indices drops NaN.*special_values=\"openvino"):
        handed_back(pool, torch.rand(1, 1, 2, 2), special_values="torch")


def test_a_float_made_bool_is_handed_back_only_with_torch_special_values_saying_the_registrys_reason():
    """OpenVINO makes NaN False (PyTorch: True); a conversion to bool has no op of its own, so the rule reads the
    dtype it makes."""
    convert = lambda x: (x * 2).bool()  # noqa: E731
    by_default, _ = handed_back(convert, torch.rand(2, 2))
    reasons, _ = handed_back(convert, torch.rand(2, 2), special_values="torch")
    assert by_default == {}
    op, why = "dim_order_ops._to_dim_order_copy.default", differences.named("nan_converted_to_false").computes
    assert reasons == {op: f"{op} {why}"}


def test_a_float_floor_division_is_refused_with_torch_special_values_saying_the_registrys_reason():
    """OpenVINO gives +-inf for inf // 1 and ExecuTorch's kernel does not give PyTorch's NaN either: refused."""
    reason = re.escape(differences.named("float_floor_division_of_infinities").computes)
    with pytest.raises(CannotHandBackError, match=rf"aten\.div\.Tensor_mode {reason}.*special_values=\"openvino"):
        handed_back(lambda x: (x * 3) // 2, torch.rand(2, 2), special_values="torch")


def test_special_values_must_be_named_correctly():
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    with pytest.raises(ValueError, match="special_values must be one of"):
        CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")], special_values="ieee")


def ranges_of(function, *inputs, dynamic_shapes=None):
    program, _ = tagged(function, inputs, dynamic_shapes=dynamic_shapes)
    ranges = ValueRanges(program)
    return {op_name(node): ranges[node] for node in program.graph_module.graph.nodes
            if node.op == "call_function" and ranges[node] is not None}


def test_value_ranges_of_constants_are_their_evaluated_values():
    found = ranges_of(lambda x: x + (torch.arange(2, 10, 3) * -4 - 1), torch.ones(3))
    assert found["aten.arange.start_step"] == Interval(2, 8)  # 2, 5, 8
    assert found["aten.mul.Tensor"] == Interval(-32, -8)
    assert found["aten.sub.Tensor"] == Interval(-33, -9)


def test_value_ranges_follow_arange_and_arithmetic_where_a_size_is_dynamic():
    found = ranges_of(lambda x: x + (torch.arange(2, x.shape[0] + 2) * -4 - 1).unsqueeze(1), torch.ones(8, 3),
                      dynamic_shapes=lambda: (({0: torch.export.Dim("batch", min=2, max=8)},),))
    assert found["aten.arange.start_step"] == Interval(2, 9)  # from 2 up to 8 + 2 - 1
    assert found["aten.mul.Tensor"] == Interval(-36, -8)
    assert found["aten.sub.Tensor"] == Interval(-37, -9)


def test_value_ranges_bound_a_dynamic_length_by_its_dim():
    found = ranges_of(lambda x: x + torch.arange(x.shape[0]).unsqueeze(1), torch.ones(4, 3),
                      dynamic_shapes=lambda: (({0: torch.export.Dim("batch", max=16)},),))
    assert found["aten.arange.start_step"] == Interval(0, 15)


def test_value_ranges_bound_indices_by_the_table_and_sums_by_the_count():
    found = ranges_of(lambda ids: (F.embedding(ids, TABLE), ids.sum()), ints(1, 2, 3))
    assert found["aten.sum.dim_IntList"] == Interval(-30, 27), "three ids in [-10, 9]"


def test_value_ranges_read_constants_and_know_nothing_of_inputs():
    offsets = torch.tensor([5, -7])
    found = ranges_of(lambda x: x + offsets, ints(1, 2))
    assert found["aten.add.Tensor"] == Interval(-2**63 - 7, 2**63 - 1 + 5)
