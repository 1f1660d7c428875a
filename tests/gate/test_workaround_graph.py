"""The exclusion rule on tagged graphs, without compiling or running OpenVINO.

Graphs come from torch.export + to_edge; the stock OpenvinoPartitioner tags them (it
only consults OpenVINO's op-support table), then the workaround decides membership.
Structure is checked by op identity, never by generated node names.
"""

import pytest

from tests.support.helpers import skip_module_without_executorch_path, tagged

skip_module_without_executorch_path()
import torch  # noqa: E402
from executorch.backends.openvino.partitioner import OpenvinoPartitioner  # noqa: E402

from repro.harness.cases.program_contents import op_name  # noqa: E402
from repro.harness.models import catalogue  # noqa: E402
from tests.support.graph_models import copy_used_inside_and_outside, partitions_around_an_unsupported_op  # noqa: E402
from workaround import UnsafeCopyError  # noqa: E402
from workaround.partitioner.graph.nodes import aten_op  # noqa: E402
from workaround.partitioner.rules.copy_ops import PASS_THROUGH_COPY_OPS  # noqa: E402
from workaround.partitioner.rules.exclusion import TAG, copies_to_hand_back, depends_on_itself, partition_of  # noqa: E402

CLONE, ALIAS = "dim_order_ops._clone_dim_order.default", "aten.alias_copy.default"
SIN, ADD, SUM = "aten.sin.default", "aten.add.Tensor", "aten.sum.dim_IntList"
TO_DIM_ORDER = "dim_order_ops._to_dim_order_copy.default"  # dtype or layout conversions
CONV = "aten.convolution.default"




def membership(program):
    """{"outside": sorted op names, "partitions": sorted lists of op names} by op identity."""
    partitions, outside = {}, []
    for node in program.graph_module.graph.nodes:
        if node.op != "call_function" or op_name(node) == "getitem":
            continue
        tag = partition_of(node)
        (partitions.setdefault(tag, []) if tag else outside).append(op_name(node))
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
    # x is an int64 input of unknown range: OpenVINO would compute it in 32 bits
    # (workaround.partitioner.rules.openvino_hand_back).
    "int64_clone": {"outside": sorted([ADD, CLONE, CLONE]), "partitions": []},
    "bool_clone": {"outside": [CLONE], "partitions": [sorted([CLONE, "aten.logical_not.default"])]},
    "input_read_after_delegate": {"outside": sorted(["aten.atan2.default", CLONE]),
                                  "partitions": [sorted([CLONE, SIN])]},
    # A copy of a computed value is its only way out: it stays, and only the input's copy leaves.
    "clone_sin_chain": {"outside": [CLONE], "partitions": [sorted([CLONE] * 7 + [SIN] * 8)]},
    "two_copies_of_a_computed_value": {"outside": [CLONE, CLONE], "partitions": [[SIN]]},
    # What the delegate cannot take at its boundary goes to ExecuTorch's kernels.
    "zero_d_input": {"outside": ["aten.mul.Tensor", SIN, TO_DIM_ORDER], "partitions": []},
    "zero_size_input": {"outside": ["aten.mul.Tensor", SIN, TO_DIM_ORDER], "partitions": []},
    "zero_d_output": {"outside": [SUM], "partitions": [["aten.mul.Tensor", TO_DIM_ORDER]]},
    "dynamic_batch": {"outside": ["aten.mul.Tensor", SIN, TO_DIM_ORDER], "partitions": []},
    "dynamic_batch_static_output": {"outside": [], "partitions": [sorted([SIN, "aten.sum.dim_IntList"])]},
    "dynamic_height_width_conv": {"outside": [CONV], "partitions": []},
    "cond_two_outputs": {"outside": sorted([SUM, "aten.gt.Scalar", "cond"]), "partitions": []},
}


def catalogue_tagged(name):
    case = catalogue.CASES[name]
    return tagged(case.function, case.inputs(), skip_dim_order=case.skip_dim_order,
                  dynamic_shapes=case.dynamic_shapes)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_catalogue_case_delegates_exactly_the_expected_ops(name):
    program, _ = catalogue_tagged(name)
    assert membership(program) == EXPECTED[name]


@pytest.mark.parametrize("name", list(EXPECTED))
def test_no_copy_leaves_and_no_partition_depends_on_itself(name):
    program, tags = catalogue_tagged(name)
    graph = program.graph_module.graph
    assert copies_to_hand_back(graph) == set()
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


def test_copy_used_inside_and_outside_splits_the_partition_instead_of_a_cycle():
    stock_program, _ = tagged(copy_used_inside_and_outside, (catalogue.uniform(2, 3),), OpenvinoPartitioner)
    assert len(membership(stock_program)["partitions"]) == 1
    program, tags = tagged(copy_used_inside_and_outside, (catalogue.uniform(2, 3),))
    assert membership(program) == {"outside": [CLONE], "partitions": [
        sorted([ADD, "aten.mul.Tensor", TO_DIM_ORDER]), [SIN]]}
    assert not any(depends_on_itself(program.graph_module.graph, tag) for tag in tags)


def test_copies_of_inputs_leave_any_of_several_partitions_and_copies_of_computed_values_stay():
    """x.clone() feeds both partitions and leaves; c.clone() is cos's only way out and stays."""
    program, tags = tagged(partitions_around_an_unsupported_op, (catalogue.uniform(2, 3),))
    assert len(tags) == 2
    assert membership(program) == {
        "outside": sorted([CLONE, "aten.atan2.default"]),
        "partitions": [sorted(["aten.cos.default", CLONE, CLONE, "aten.mul.Tensor", TO_DIM_ORDER]), [SIN]],
    }


# Written out here, not derived from PASS_THROUGH_COPY_OPS, so that dropping an op from the workaround's
# set fails a test. aten.alias / aten.detach / aten.lift_fresh_copy only reach a partitioner in graphs
# that skipped functionalization, so their graphs are built directly.
OPS_OPENVINO_COMPILES_TO_NOTHING = ["aten.clone.default", "dim_order_ops._clone_dim_order.default",
                                    "aten.alias_copy.default", "aten.alias.default", "aten.detach.default",
                                    "aten.lift_fresh_copy.default"]


def resolve(name):
    namespace, op, overload = name.split(".")
    return getattr(getattr(getattr(torch.ops, namespace), op), overload)


def graph_returning_and_using(op, *extra_args):
    """x -> op -> returned (leaves the partition); x -> op -> sin (stays inside); all in one partition."""
    graph = torch.fx.Graph()
    x = graph.placeholder("x")
    returned = graph.call_function(op, (x, *extra_args))
    kept = graph.call_function(op, (x, *extra_args))
    graph.output((returned, graph.call_function(torch.ops.aten.sin.default, (kept,))))
    for node in graph.nodes:
        if node.op == "call_function":
            node.meta[TAG] = "tag0"
    return graph, returned


def test_the_workaround_lists_exactly_the_ops_openvino_compiles_to_nothing():
    assert {str(op) for op in PASS_THROUGH_COPY_OPS} == set(OPS_OPENVINO_COMPILES_TO_NOTHING)


@pytest.mark.parametrize("name", OPS_OPENVINO_COMPILES_TO_NOTHING)
def test_a_returned_copy_of_an_input_is_handed_back_whatever_copy_op_made_it(name):
    graph, returned = graph_returning_and_using(resolve(name))
    assert aten_op(returned) is resolve(name)
    assert copies_to_hand_back(graph) == {returned}


@pytest.mark.parametrize(("name", "extra_args"), [
    ("aten.sin.default", ()), ("aten.view_copy.default", ([6],)), ("aten.permute_copy.default", ([1, 0],)),
    ("dim_order_ops._to_dim_order_copy.default", ())])
def test_an_op_that_computes_is_not_taken_for_a_copy(name, extra_args):
    graph, _ = graph_returning_and_using(resolve(name), *extra_args)
    assert copies_to_hand_back(graph) == set()


def test_layout_changing_copy_with_dim_order_off_is_refused_with_a_clear_error():
    case = catalogue.CASES["clone_channels_last_dim_order_off"]
    with pytest.raises(UnsafeCopyError) as error:
        catalogue_tagged(case.name)
    message = str(error.value)
    assert "aten.clone.default" in message
    assert "memory_format=torch.channels_last" in message
    assert "Keep dim order on" in message


def test_a_chain_of_40_returned_copies_of_computed_values_keeps_one_partition():
    """Only the first copy is of the input; an earlier rule made 41 partitions (benchmarks/copy_chain_cost)."""
    program, tags = tagged(catalogue.clone_sin_chain(40), (catalogue.uniform(2, 3),))
    assert len(tags) == 1
    assert membership(program)["outside"] == [CLONE]


def test_a_zero_size_input_with_a_size_one_dim_is_partitioned_in_bounded_time():
    """(1, 0, 3): torch's contiguous strides (3, 3, 1) differ from the layout rule's at the size-1 dim, which
    once made declare_ambiguous_layouts_default loop forever (found by the conformance sweep: acos)."""
    import threading

    finished = []
    worker = threading.Thread(target=lambda: finished.append(tagged(torch.acos, (torch.rand(1, 0, 3),))),
                              daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert finished, "partitioning a (1, 0, 3) input did not end within 120 s"


def reflect_pad(x):
    return torch.nn.functional.pad(x, (1, 1, 1, 1), mode="reflect") * 2


def stack_then_sum(x):
    return torch.stack([x, x]).sum(0)


@pytest.mark.parametrize(("function", "dynamic", "filtered"), [
    pytest.param(lambda x: x.sin() + 1, False, False, id="nothing_kept_no_filter"),
    pytest.param(reflect_pad, False, False, id="every_kept_node_delegated_no_filter"),
    pytest.param(stack_then_sum, True, True, id="a_kept_node_that_may_be_handed_back_filters"),
])
def test_the_node_filter_is_asked_for_only_where_a_kept_op_may_be_handed_back(function, dynamic, filtered):
    """A filter costs ExecuTorch's EDGE_DO_NOT_DECOMP path (three run_decompositions instead of one or two)."""
    from workaround import CopySafeOpenvinoPartitioner

    inputs = (torch.randn(2, 3, 6, 6),)
    shapes = (({0: torch.export.Dim("batch", min=1, max=8)},),) if dynamic else None
    exported = torch.export.export(catalogue.Forward(function), inputs, dynamic_shapes=shapes)
    program = exported.run_decompositions({})
    partitioner = CopySafeOpenvinoPartitioner([])
    _, node_filter = partitioner.ops_to_not_decompose(program)
    assert (node_filter is not None) == filtered


def attention_with_a_boolean_mask(query, key, value):
    mask = torch.ones(query.shape[-2], key.shape[-2], dtype=torch.bool).tril()
    return torch.nn.functional.scaled_dot_product_attention(query, key, value, attn_mask=mask)


@pytest.mark.parametrize(("function", "dynamic", "kept"), [
    pytest.param(torch.nn.functional.scaled_dot_product_attention, False, True, id="static_attention_kept_whole"),
    pytest.param(attention_with_a_boolean_mask, False, True, id="with_a_boolean_mask_as_llama_makes_kept_whole"),
    pytest.param(torch.nn.functional.scaled_dot_product_attention, True, False,
                 id="dynamic_attention_decomposed_as_stock_does"),
])
def test_attention_is_kept_for_speed_only_where_every_node_of_it_is_delegated(function, dynamic, kept):
    """Kept whole with dynamic shapes, qwen3's and phi_4_mini's attention decomposed on ExecuTorch's filtered path
    failed at run time (0x1, 0x10; the LLM tier). Llama's mask is boolean until it is decomposed: judged as a
    float one, the real-width Llama's attention was left decomposed."""
    from workaround import CopySafeOpenvinoPartitioner
    from workaround.partitioner.delegate.grouped_attention import ATTENTION

    inputs = tuple(torch.randn(1, 4, 6, 8) for _ in range(3))
    shapes = (tuple({2: torch.export.Dim("length", min=2, max=16)} for _ in inputs),) if dynamic else None
    exported = torch.export.export(catalogue.Forward(function), inputs, dynamic_shapes=shapes)
    ops, _ = CopySafeOpenvinoPartitioner([]).ops_to_not_decompose(exported.run_decompositions({}))
    assert (ATTENTION in ops) == kept
