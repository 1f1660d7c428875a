"""Which bytes a dim order means for given sizes: torch-free, so the checker can use it too.

Size-1 dimensions make dim orders ambiguous: a (1, 1, 8, 8) tensor is laid out the same in dim
order (0, 1, 2, 3), (0, 2, 3, 1) and (0, 2, 1, 3), and torch, ExecuTorch's serializer and its
Python runtime each pick a different one of them for the same tensor.
"""

from collections.abc import Sequence


def strides_in(sizes: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """The strides of a dense tensor of ``sizes`` laid out in dim ``order`` (outermost first)."""
    strides, step = [0] * len(sizes), 1
    for dim in reversed(order):
        strides[dim] = step
        step *= sizes[dim]
    return tuple(strides)


def same_layout(sizes: Sequence[int], order: Sequence[int], other: Sequence[int]) -> bool:
    """Whether two dim orders put every element of a tensor of ``sizes`` at the same offset."""
    first, second = strides_in(sizes, order), strides_in(sizes, other)
    return all(a == b for a, b, size in zip(first, second, sizes, strict=True) if size > 1)
