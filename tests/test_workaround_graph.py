"""The exclusion rule on tagged graphs, without compiling or running OpenVINO.

Graphs come from torch.export + to_edge; the stock OpenvinoPartitioner tags them (it
only consults OpenVINO's op-support table), then the workaround decides membership.
Structure is checked by op identity, never by generated node names.
"""

import pytest

from tests.conftest import skip_module_without_executorch_path

skip_module_without_executorch_path()
lowering = pytest.importorskip("repro.lowering")
import torch  # noqa: E402
from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: E402
from executorch.exir import to_edge  # noqa: E402
from executorch.exir.backend.backend_details import CompileSpec  # noqa: E402

from repro import catalogue  # noqa: E402
from workaround import CopySafeOpenvinoPartitioner, UnsafeCopyError  # noqa: E402
from workaround.copy_ops import PASS_THROUGH_COPY_OPS, aten_op  # noqa: E402
from workaround.exclusion import TAG, copies_leaving_partition, depends_on_itself, partition_of  # noqa: E402

SPEC = [CompileSpec("device", b"CPU")]
CLONE, ALIAS = "dim_order_ops._clone_dim_order.default", "aten.alias_copy.default"
SIN, ADD = "aten.sin.default", "aten.add.Tensor"
TO_DIM_ORDER = "dim_order_ops._to_dim_order_copy.default"  # dtype or layout conversions
CONV = "aten.convolution.default"


def tagged(function, inputs, partitioner_class=CopySafeOpenvinoPartitioner, skip_dim_order=False):
    """(edge program after partitioning, partition tags): to_edge, then the partitioner's tagging only."""
    case = catalogue.Case("graph", "graph", function, lambda: inputs, skip_dim_order=skip_dim_order)
    exported = torch.export.export(case.module(), inputs)
    edge = to_edge(exported, compile_config=lowering.compile_config(case))
    program = edge.exported_program()
    result = partitioner_class(SPEC).partition(program)
    return program, result.partition_tags


def membership(program):
    """{"outside": sorted op names, "partitions": sorted lists of op names} by op identity."""
    partitions, outside = {}, []
    for node in program.graph_module.graph.nodes:
        if node.op != "call_function" or lowering.op_name(node) == "getitem":
            continue
        tag = partition_of(node)
        (partitions.setdefault(tag, []) if tag else outside).append(lowering.op_name(node))
    return {"outside": sorted(outside), "partitions": sorted(sorted(ops) for ops in partitions.values())}


EXPECTED = {
    "upstream_clone_sin": {"outside": [CLONE], "partitions": [[SIN]]},
    "detach": {"outside": [ALIAS], "partitions": [[SIN]]},
    "full_slice": {"outside": [ALIAS], "partitions": [[SIN]]},
    "clone_clone": {"outside": [CLONE, CLONE], "partitions": [[SIN]]},
    "transpose_0_0": {"outside": [ALIAS], "partitions": [[SIN]]},
    "dropout_eval": {"outside": [CLONE], "partitions": [[SIN]]},
    "alias_copy": {"outside": [ALIAS, CLONE], "partitions": [[SIN]]},
    "clone_only": {"outside": [CLONE], "partitions": []},
    "two_inputs": {"outside": [CLONE, CLONE], "partitions": [[ADD]]},
    # Channels-last boundaries are handled inside the delegate: layout changes stay delegated.
    "clone_channels_last": {"outside": [CLONE], "partitions": [[SIN]]},
    "conv_channels_last_input": {"outside": [], "partitions": [[CONV]]},
    "conv_output_to_channels_last": {"outside": [], "partitions": [sorted([CONV, TO_DIM_ORDER])]},
    "channels_last_output": {"outside": [], "partitions": [sorted([SIN, "aten.mul.Tensor", TO_DIM_ORDER,
                                                                   TO_DIM_ORDER])]},
    "cat_channels_last_inputs": {"outside": [], "partitions": [sorted(["aten.cat.default", "aten.mul.Tensor",
                                                                       TO_DIM_ORDER])]},
    "clone_used_inside": {"outside": [], "partitions": [
        sorted([CLONE, SIN, TO_DIM_ORDER, ADD])]},
    "intermediate_clone_returned": {"outside": [CLONE], "partitions": [[SIN]]},
    "float16_clone": {"outside": [CLONE], "partitions": [[SIN]]},
    "int64_clone": {"outside": [CLONE], "partitions": [sorted([CLONE, ADD])]},
    "bool_clone": {"outside": [CLONE], "partitions": [sorted([CLONE, "aten.logical_not.default"])]},
    "input_read_after_delegate": {"outside": sorted(["aten.atan2.default", CLONE]),
                                  "partitions": [sorted([CLONE, SIN])]},
}


def catalogue_tagged(name):
    case = catalogue.CASES[name]
    return tagged(case.function, case.inputs(), skip_dim_order=case.skip_dim_order)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_catalogue_case_delegates_exactly_the_expected_ops(name):
    program, _ = catalogue_tagged(name)
    assert membership(program) == EXPECTED[name]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_no_copy_leaves_and_no_partition_depends_on_itself(name):
    program, tags = catalogue_tagged(name)
    graph = program.graph_module.graph
    assert copies_leaving_partition(graph) == set()
    assert not any(depends_on_itself(graph, tag) for tag in tags)
    assert set(tags) == {partition_of(n) for n in graph.nodes} - {None}, "a returned tag has no node"


def test_copy_used_only_inside_keeps_the_stock_delegate_count():
    case = catalogue.CASES["clone_used_inside"]
    _, stock_tags = tagged(case.function, case.inputs(), OpenvinoPartitioner)
    program, tags = tagged(case.function, case.inputs())
    assert len(tags) == len(stock_tags) == 1
    assert CLONE in membership(program)["partitions"][0]


def test_partition_emptied_by_the_exclusion_is_dropped():
    _, tags = catalogue_tagged("clone_only")
    assert tags == {}


def chain_of_copies(x):
    return x.clone().detach()[:, :].clone(), torch.sin(x)


def test_chain_of_copies_leaves_whole():
    program, _ = tagged(chain_of_copies, (catalogue.uniform(2, 3),))
    assert membership(program) == {"outside": sorted([CLONE, ALIAS, ALIAS, CLONE]), "partitions": [[SIN]]}


def copy_used_inside_and_outside(x):
    """A copy of an intermediate used both inside and outside: untagging it alone would leave a cycle."""
    s = torch.sin(x)
    c = s.clone()
    return c, c * 2 + s


def test_copy_used_inside_and_outside_splits_the_partition_instead_of_a_cycle():
    stock_program, _ = tagged(copy_used_inside_and_outside, (catalogue.uniform(2, 3),), OpenvinoPartitioner)
    assert len(membership(stock_program)["partitions"]) == 1
    program, tags = tagged(copy_used_inside_and_outside, (catalogue.uniform(2, 3),))
    assert membership(program) == {"outside": [CLONE], "partitions": [
        sorted([ADD, "aten.mul.Tensor", TO_DIM_ORDER]), [SIN]]}
    assert not any(depends_on_itself(program.graph_module.graph, tag) for tag in tags)


def partitions_around_an_unsupported_op(x):
    """atan2 is not delegated, so the graph has two OpenVINO partitions with copies at both edges."""
    y = x.clone()
    a = torch.sin(y)
    b = torch.atan2(a, y)
    c = torch.cos(b)
    return c.clone(), c.clone() * 2, a


def test_copies_leaving_any_of_several_partitions_are_excluded():
    program, tags = tagged(partitions_around_an_unsupported_op, (catalogue.uniform(2, 3),))
    assert len(tags) == 2
    assert membership(program) == {
        "outside": sorted([CLONE, CLONE, "aten.atan2.default"]),
        "partitions": [sorted(["aten.cos.default", CLONE, "aten.mul.Tensor", TO_DIM_ORDER]), [SIN]],
    }


@pytest.mark.parametrize("op", sorted(PASS_THROUGH_COPY_OPS, key=str), ids=str)
def test_every_listed_op_is_recognised_as_a_copy_by_identity(op):
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    copy = graph.call_function(op, (x,))  # returned: leaves the partition
    kept = graph.call_function(op, (x,))  # read only by sin inside the partition
    graph.output((copy, graph.call_function(torch.ops.aten.sin.default, (kept,))))
    for node in graph.nodes:
        if node.op == "call_function":
            node.meta[TAG] = "tag0"
    assert aten_op(copy) is op
    assert copies_leaving_partition(graph) == {copy}


def test_layout_changing_copy_with_dim_order_off_is_refused_with_a_clear_error():
    case = catalogue.CASES["clone_channels_last_dim_order_off"]
    with pytest.raises(UnsafeCopyError) as error:
        catalogue_tagged(case.name)
    message = str(error.value)
    assert "aten.clone.default" in message
    assert "memory_format=torch.channels_last" in message
    assert "Keep dim order on" in message
