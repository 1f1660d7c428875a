"""Dim orders of (fake) tensors at OpenVINO partition boundaries, read the way ExecuTorch serializes them.

ExecuTorch's OpenVINO runtime wraps each boundary buffer with its sizes only, so OpenVINO reads and
writes every delegate input and output as if it were contiguous; the workaround compiles each partition
to honour its boundary tensors' dim orders (``workaround.partitioner.hooks.preprocess``), and needs them read
first. A layout whose strides differ from the contiguous ones only at size-1 dims is read as the default
(the same bytes either way: ``workaround.partitioner.layouts.ambiguous_layouts``).
"""

from collections.abc import Sequence

import torch

from workaround.contract.layouts import strides_in


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    return strides_in(shape, range(len(shape)))


def is_ambiguous(value: object) -> bool:
    """A tensor whose strides are not the contiguous ones but put every element where they would:
    they differ only at size-1 dims (a one-channel channels-last image; ``workaround.contract.layouts``)."""
    if not isinstance(value, torch.Tensor):
        return False
    strides, contiguous = tuple(value.stride()), contiguous_strides(value.shape)
    sizes = value.shape
    return strides != contiguous and all(a == b for a, b, size in zip(strides, contiguous, sizes, strict=True)
                                         if size != 1)


def dim_order(value: object) -> tuple[int, ...] | None:
    """The dim order of a (fake) tensor, or None for anything else; an ambiguous layout reads as the
    default (the same bytes either way). Tensor.dim_order() costs ~40 us on a fake tensor, so the
    common contiguous case is recognised from the strides first."""
    if not isinstance(value, torch.Tensor):
        return None
    if tuple(value.stride()) == contiguous_strides(value.shape) or is_ambiguous(value):
        return tuple(range(value.dim()))
    return tuple(value.dim_order())


def is_default(order: Sequence[int] | None) -> bool:
    return order is None or order == tuple(range(len(order)))


def node_dim_order(node: torch.fx.Node) -> tuple[int, ...] | None:
    return dim_order(node.meta.get("val"))
