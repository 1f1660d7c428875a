"""Keep a buffer a partition mutates (an LLM's KV cache) inside the OpenVINO delegate, as OpenVINO state.

Why: a buffer the program mutates is, by default, an input and an output of the delegate that updates it. Each
``execute`` then hands OpenVINO the whole buffer and takes the whole updated buffer back, and an ExecuTorch
``copy_`` kernel writes it into place: at Llama-3.2-1B's shapes with a 2048-token context that is 268 MB in and
268 MB out per decoded token, in float32, where the step itself reads 0.7 GB of 4-bit weights and only needs one
new row of each cache (docs/measurements.md, "LLMs at real width").

How: ExecuTorch lets a partitioner tag a mutated buffer for the delegate that mutates it (CoreML's partitioner
does, through ``executorch.exir.backend.utils.tag_mutated_buffer``); the partition's program then holds the
buffer as a ``BUFFER`` input and its new value as a ``BUFFER_MUTATION`` output, and neither crosses the boundary.
The stock OpenVINO preprocess converts ``edge_program.module()``, where the buffer is a constant and its
mutation a ``copy_`` the converter drops: the state would be lost without a word, so ``own_mutated_buffers``
tags a buffer only for a partition the workaround compiles, and only when that partition holds every node that
reads it and the node that makes its new value. Its preprocess (``workaround.partitioner.hooks.preprocess``)
converts the buffer as a ``Parameter`` and its new value as a ``Result`` (``graph_with_state_at_the_boundary``),
then turns each pair into OpenVINO state (``keep_state_inside``): a ``ReadValue`` that starts at the buffer's
initial value (with no initializer when it is zeros, as a KV cache's are: nothing of it in the blob), and an
``Assign`` of the new one. (ExecuTorch itself serializes only a mutated buffer's shape and dtype unless
``InitializedMutableBufferPass`` marks it; the delegate keeps the value eager starts from.) The state lives in
the delegate's infer request, which the runtime creates once per loaded method, so it starts at the program's
initial value at each load and persists across ``execute`` calls, as the buffer would.

Methods that share their mutable buffers (``share_mutable_buffers``) would each keep their own copy: such a
program is refused in one line when it is serialized (``refuse_state_shared_across_methods``).
"""

from dataclasses import dataclass

import torch
from torch.export import ExportedProgram
from torch.export.graph_signature import InputKind, OutputKind

from workaround.contract.openvino_types import OpenvinoModel
from workaround.partitioner.rules.exclusion import TAG


@dataclass(frozen=True)
class State:
    """A buffer the partition mutates: its placeholder's name, what the program names it, its initial value."""

    placeholder: str
    target: str
    initial: torch.Tensor


def own_mutated_buffers(exported_program: ExportedProgram) -> None:
    """Tag each mutated buffer for the partition that holds all of its readers and its mutation, and every reader
    of its new value."""
    signature = exported_program.graph_signature
    mutations = {target: name for name, target in signature.buffers_to_mutate.items()}
    nodes = {node.name: node for node in exported_program.graph.nodes}
    for name, target in signature.inputs_to_buffers.items():
        if target not in mutations or not nodes[name].users:
            continue
        mutation = nodes[mutations[target]]
        tags = {user.meta.get(TAG) for user in [*nodes[name].users, mutation]}
        if len(tags) == 1 and None not in tags and mutation is not nodes[name] \
                and new_value_stays_inside(mutation, exported_program.graph.output_node()):
            nodes[name].meta[TAG] = tags.pop()


def new_value_stays_inside(mutation: torch.fx.Node, output: torch.fx.Node) -> bool:
    """Whether a buffer's new value is read only inside its partition and leaves the program only as the buffer's
    update. ExecuTorch's lowering cannot make a delegate's state a user output too: a buffer returned (``return
    self.buf``, ``self.buf.detach()``: an ``alias_copy`` handed back) or read outside the partition fails inside
    ``to_edge_transform_and_lower`` ("buffer mutation node was found to also be used as other types of outputs",
    "Tried to erase Node getitem"). Such a buffer stays in ExecuTorch's memory, as the stock partitioner leaves
    every buffer."""
    returned = torch.utils._pytree.tree_leaves(output.args[0]).count(mutation)
    tag = mutation.meta.get(TAG)
    return returned == 1 and all(user is output or user.meta.get(TAG) == tag for user in mutation.users)


def states(edge_program: ExportedProgram) -> list[State]:
    """The buffers a partition's program owns and mutates, in the order of its placeholders."""
    signature = edge_program.graph_signature
    mutated = set(signature.buffers_to_mutate.values())
    values = {**edge_program.state_dict, **edge_program.constants}  # a non-persistent buffer is a constant
    return [State(spec.arg.name, spec.target, values[spec.target])
            for spec in signature.input_specs
            if spec.kind == InputKind.BUFFER and spec.target in mutated]


def graph_with_state_at_the_boundary(edge_program: ExportedProgram, owned_states: list[State]
                                     ) -> tuple[torch.fx.GraphModule, list[str]]:
    """The partition as a module whose placeholders are its mutated buffers and user inputs (in that order, as in
    the lifted graph) and whose outputs are its new buffer values and user outputs; every other constant is an
    attribute, as ``edge_program.module()`` makes it. Also returns, for each output, the buffer it mutates, or ""
    for a user output."""
    owned = {state.placeholder for state in owned_states}
    module = torch.nn.Module()
    graph = torch.fx.Graph()
    values: dict[torch.fx.Node, torch.fx.Node] = {}
    constants = {**edge_program.state_dict, **edge_program.constants}
    specs = {spec.arg.name: spec for spec in edge_program.graph_signature.input_specs}
    for node in edge_program.graph.nodes:
        if node.op == "placeholder" and specs[node.name].kind != InputKind.USER_INPUT and node.name not in owned:
            attribute = f"_constant_{len(values)}"
            setattr(module, attribute, constants[specs[node.name].target])
            values[node] = graph.get_attr(attribute)
        else:
            values[node] = graph.node_copy(node, values.__getitem__)
    mutated = [spec.target if spec.kind == OutputKind.BUFFER_MUTATION else ""
               for spec in edge_program.graph_signature.output_specs]
    return torch.fx.GraphModule(module, graph), mutated


def starts_at_zero(initial: torch.Tensor) -> bool:
    """Whether a state can start as OpenVINO starts one without an initializer: zeros, which cost nothing in the
    blob. (An initializer, even one broadcast scalar, is folded into a constant of the state's size at
    compilation: a 2048-token KV cache's 4 MiB of zeros per cache in every blob.)"""
    return not bool(initial.detach().any())


def keep_state_inside(model: OpenvinoModel, owned: list[State], mutated: list[str]) -> None:
    """Turn the first ``len(owned)`` parameters of ``model`` and the results ``mutated`` names into OpenVINO
    state, in place: the model's remaining inputs and outputs are then the partition's user inputs and outputs."""
    from openvino import opset8 as ops
    from openvino.op import assign
    from openvino.op.util import Variable, VariableInfo
    from openvino.opset6 import read_value

    parameters, results = model.get_parameters(), model.get_results()
    for index, state in enumerate(owned):
        parameter = parameters[index]
        info = VariableInfo()
        info.variable_id = state.target
        info.data_type = parameter.get_element_type()
        info.data_shape = parameter.get_partial_shape()
        variable = Variable(info)
        read = (read_value(variable) if starts_at_zero(state.initial)
                else read_value(ops.constant(state.initial.detach().contiguous().numpy()), variable))
        for target in list(parameter.output(0).get_target_inputs()):
            target.replace_source_output(read.output(0))
        result = results[mutated.index(state.target)]
        sink = assign(read, variable)  # the binding takes a node only; the new value may be any node's output
        sink.input(0).replace_source_output(result.input_value(0))
        model.add_sinks([sink])
        model.add_variables([variable])
        model.remove_result(result)
        model.remove_parameter(parameter)
    model.validate_nodes_and_infer_types()


class SharedStateError(ValueError):
    """A program whose methods share mutable buffers has one owned by an OpenVINO delegate."""


def refuse_state_shared_across_methods(owned_by_method: dict[str, set[str]], memory_planning: object) -> None:
    """Refuse, in one line, a program serialized with ``share_mutable_buffers`` whose OpenVINO delegates own some
    of its buffers (``owned_by_method``: the buffers each method's delegates keep as state): every method's
    delegate would keep its own copy, where the methods are meant to share one (prefill and decode as two methods).
    ``memory_planning``: the config's ``memory_planning_pass``, one pass or one per method."""
    passes = memory_planning.values() if isinstance(memory_planning, dict) else [memory_planning]
    if not any(getattr(planning, "share_mutable_buffers", False) for planning in passes):
        return
    if owned := sorted({buffer for buffers in owned_by_method.values() for buffer in buffers}):
        raise SharedStateError(
            f"the methods share their mutable buffers (share_mutable_buffers), but OpenVINO delegates keep "
            f"{', '.join(owned)} as their own state, one copy per method: export without share_mutable_buffers "
            f"(one method carries the cache), or with the stock OpenvinoPartitioner")
