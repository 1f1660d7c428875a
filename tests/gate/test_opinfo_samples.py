"""The conformance sweep's OpInfo samples are torch's own, with its stack walk answered at once outside a
unittest test (``repro/harness/conformance/opinfo_samples.py``): the same samples, value by value, as the walk
gives."""

import unittest

import pytest

from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()
import torch  # noqa: E402
from torch.utils._pytree import tree_flatten  # noqa: E402

from repro.harness.conformance import opinfo_samples, per_op  # noqa: E402


def leaves(samples):
    """Every value of every sample (input, args, kwargs), tensors as they are, in order."""
    return tree_flatten([(sample.input, sample.args, sample.kwargs) for sample in samples])[0]


def assert_same(left, right):
    if isinstance(left, torch.Tensor):
        torch.testing.assert_close(right, left, rtol=0, atol=0, equal_nan=True)
    else:
        assert right == left


@pytest.mark.parametrize(("name", "dtype"), [("fmod", torch.float32), ("remainder", torch.int32),
                                             ("softmax", torch.float32), ("nn.functional.relu", torch.float32)])
def test_samples_without_the_walk_equal_the_walks_value_by_value(name, dtype):
    [info, *_] = per_op.opinfos()[name]
    torch.manual_seed(0)
    walked = list(info.sample_inputs("cpu", dtype))
    torch.manual_seed(0)
    answered = list(opinfo_samples.sample_inputs(info, "cpu", dtype))
    assert walked, f"{name} gave no {dtype} samples"
    for left, right in zip(leaves(walked), leaves(answered), strict=True):
        assert_same(left, right)


class TestTheWalkRunsInsideAUnittestTest(unittest.TestCase):
    def test_a_unittest_test_below_is_seen(self):
        assert opinfo_samples.inside_a_unittest_test()


def test_no_unittest_test_is_below_a_pytest_function():
    assert not opinfo_samples.inside_a_unittest_test()
