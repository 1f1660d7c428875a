"""Small models whose partitioning the graph tests check and the end-to-end tests run: each names the
partition shape it makes."""

import torch


def copy_used_inside_and_outside(x):
    """A copy of an intermediate that is also returned itself, so the copy must leave; it is used inside
    too, so untagging it alone would leave a cycle."""
    s = torch.sin(x)
    c = s.clone()
    return c, c * 2 + s, s


def partitions_around_an_unsupported_op(x):
    """atan2 is not delegated, so the graph has two OpenVINO partitions with copies at both edges."""
    y = x.clone()
    a = torch.sin(y)
    b = torch.atan2(a, y)
    c = torch.cos(b)
    return c.clone(), c.clone() * 2, a
