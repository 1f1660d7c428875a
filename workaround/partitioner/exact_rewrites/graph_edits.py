"""What the exact rewrites share: finding a model's float nodes of a type, and re-routing an output's users."""

from collections.abc import Iterator

import numpy as np

from workaround.contract.openvino_types import OpenvinoInput, OpenvinoModel, OpenvinoNode, OpenvinoOutput


def float_nodes(model: OpenvinoModel, *types: str) -> Iterator[OpenvinoNode]:
    """The model's nodes of these types whose first output is a float (a list: the walk is not disturbed by the
    nodes a rewrite adds)."""
    return iter([node for node in model.get_ordered_ops()
                 if node.get_type_name() in types and node.get_output_element_type(0).is_real()])


def scalar_like(node_output: OpenvinoOutput, value: float) -> OpenvinoNode:
    """A constant ``value`` of the output's element type (broadcast by the ops that take it): made in float32 and
    converted, since OpenVINO refuses a float16 constant of NaN built directly (``in_t_range`` fails)."""
    import openvino.opset8 as ops

    constant = ops.constant(np.array(value, dtype=np.float32))
    return constant if node_output.get_element_type().to_dtype() == np.float32 else ops.convert_like(
        constant, node_output)


def users_of(output: OpenvinoOutput) -> list[OpenvinoInput]:
    """The inputs reading ``output`` now: taken before a rewrite adds readers of its own."""
    return list(output.get_target_inputs())


def redirect(users: list[OpenvinoInput], new: OpenvinoOutput) -> None:
    """Make each of ``users`` (inputs, from ``users_of``) read output ``new`` instead."""
    for target in users:
        target.replace_source_output(new)
