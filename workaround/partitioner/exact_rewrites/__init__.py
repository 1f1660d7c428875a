"""Exact rewrites that keep a node in OpenVINO where handing it back would lose it: one pass a module.

Why: the semantics guards (``workaround.partitioner.rules.openvino_hand_back``) hand back to ExecuTorch what
OpenVINO's CPU plugin computes differently from PyTorch. Where OpenVINO has ops that compute PyTorch's value
exactly, the node can stay in the delegate instead, the way XNNPACK's ``_passes`` keep graphs delegable: nothing
leaves the partition (so it is not split), and ExecuTorch needs no kernel for it (its runtime lacks
``max_pool3d_with_indices``, and its ``max_pool2d`` and ``sign`` drop NaN themselves,
``workaround.partitioner.rules.portable_hand_back``).

Each pass rewrites an ``ov.Model`` in place, after the PyTorch frontend converted the partition and before it is
compiled (``workaround.partitioner.hooks.preprocess.preprocess``), and says which ATen ops it makes exact, so
that the partitioner keeps those (``KEPT_EXACT``). The passes for NaN and infinities run only where the partition
was made with ``special_values="torch"`` (its delegation spec says so: ``workaround.contract.delegate_specs``):
elsewhere OpenVINO's special values are what the user chose, and the rewrites' extra ops would cost for nothing.

Each pass is held to PyTorch on its op's samples and special values by ``tests/gate/test_exact_rewrites.py``.
"""

from workaround.contract.delegate_specs import SpecialValues
from workaround.contract.openvino_types import OpenvinoModel
from workaround.partitioner.exact_rewrites import (
    constant_abs,
    max_pool_special_values,
    nan_propagating_extremes,
    sign_of_nan,
    signed_zeros,
    softmax_of_nan,
)

TORCH_SPECIAL_VALUES_PASSES = (nan_propagating_extremes, max_pool_special_values, sign_of_nan, softmax_of_nan,
                               signed_zeros)
# Passes every partition the workaround makes gets: they fix wrong results, whatever the special values.
ALWAYS_PASSES = (constant_abs,)
# ATen ops a pass makes exact on NaN and infinities: with special_values="torch" they stay in the delegate.
KEPT_EXACT = frozenset(op for rewrite in TORCH_SPECIAL_VALUES_PASSES for op in rewrite.MAKES_EXACT)


def rewrite(model: OpenvinoModel, special_values: SpecialValues) -> None:
    """Apply every pass the partition's special values call for, in place."""
    for rewrite_pass in ALWAYS_PASSES:
        rewrite_pass.rewrite(model)
    if special_values == SpecialValues.TORCH:
        for rewrite_pass in TORCH_SPECIAL_VALUES_PASSES:
            rewrite_pass.rewrite(model)
    model.validate_nodes_and_infer_types()
