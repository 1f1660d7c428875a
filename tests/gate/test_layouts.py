"""Which dim orders mean the same bytes: the comparison the checker and the partitioner rely on."""

import pytest

from workaround.contract.layouts import same_layout, strides_in


@pytest.mark.parametrize(("sizes", "order", "strides"), [
    ((2, 3, 4), (0, 1, 2), (12, 4, 1)),
    ((1, 3, 4, 5), (0, 2, 3, 1), (60, 1, 15, 3)),
    ((2, 3, 4, 5), (1, 0, 2, 3), (20, 40, 5, 1)),
])
def test_strides_follow_the_dim_order_outermost_first(sizes, order, strides):
    assert strides_in(sizes, order) == strides


@pytest.mark.parametrize(("sizes", "order", "other"), [
    ((1, 1, 8, 8), (0, 1, 2, 3), (0, 2, 3, 1)),  # one-channel channels-last image: torch's label
    ((1, 1, 8, 8), (0, 2, 3, 1), (0, 2, 1, 3)),  # ... and the one ExecuTorch's serializer derives
    ((2, 1, 3, 4, 4), (0, 3, 4, 1, 2), (0, 3, 1, 4, 2)),  # stack of two channels-last images
])
def test_orders_that_differ_only_at_size_1_dims_are_the_same_layout(sizes, order, other):
    assert same_layout(sizes, order, other)


@pytest.mark.parametrize(("sizes", "order", "other"), [
    ((1, 3, 8, 8), (0, 1, 2, 3), (0, 2, 3, 1)),
    ((0, 2, 3, 3), (0, 1, 2, 3), (0, 2, 3, 1)),  # no bytes, but ExecuTorch checks the strides
    ((2, 1, 3, 4, 4), (0, 3, 4, 1, 2), (0, 1, 2, 3, 4)),
])
def test_orders_that_move_a_larger_dim_are_different_layouts(sizes, order, other):
    assert not same_layout(sizes, order, other)
