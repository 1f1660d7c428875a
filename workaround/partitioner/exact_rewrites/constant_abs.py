"""The Abs of a constant, kept: OpenVINO drops a rank-1 Abs whose input depends only on constants while it folds
them (from 2025.4.0; openvinotoolkit/openvino#38166), so ``Abs(Range(-2, 2))`` folds to ``[-2 -1 0 1]``: what
edge's decomposition of reflection padding and T5's relative-position buckets compute.

Rewritten: ``Maximum(x, Negative(x))``, the same value for every integer and float (the signed minimum, which
``abs`` leaves as it is, included), which folds exactly. Applied in every partition the workaround makes,
whatever its special values: it is a fix of a wrong result, not a choice.
"""

import torch

from workaround.contract.openvino_types import OpenvinoModel, OpenvinoNode
from workaround.partitioner.exact_rewrites.graph_edits import redirect, users_of

MAKES_EXACT = (torch.ops.aten.abs.default,)


def depends_on_no_parameter(node: OpenvinoNode) -> bool:
    """Whether no Parameter of the model flows into ``node``: it is folded into a constant."""
    seen, frontier = set(), [node]
    while frontier:
        current = frontier.pop()
        if current.get_type_name() == "Parameter":
            return False
        for value in current.input_values():
            source = value.get_node()
            if source.get_friendly_name() not in seen:
                seen.add(source.get_friendly_name())
                frontier.append(source)
    return True


def rewrite(model: OpenvinoModel) -> None:
    import openvino.opset8 as ops

    for node in [node for node in model.get_ordered_ops() if node.get_type_name() == "Abs"]:
        source, value = node.input_value(0), node.output(0)
        if depends_on_no_parameter(source.get_node()):
            users = users_of(value)
            redirect(users, ops.maximum(source, ops.negative(source)).output(0))
