"""Each exact rewrite (``workaround/partitioner/exact_rewrites``, one pass a module) held to PyTorch in the real
runtime, f32: the op, lowered with ``special_values="torch"``, stays in the delegate and equals eager on its
OpInfo samples, its special values (NaN, +-inf, -0.0, 1e30) and float16 at its limits, NaN where eager has NaN.
Without the rewrite these ops drop NaN in OpenVINO (the default's strict expectations hold that), and
ExecuTorch's own max_pool2d and sign drop it too. The zeros ``signed_zeros`` gives PyTorch's sign are held both
ways in plain OpenVINO: the other sign without the pass (on the release it was measured on), PyTorch's with it.
"""

import math

import numpy as np
import pytest
from packaging.version import Version

from tests.support.helpers import ad_hoc_case, other_cpu_classes, skip_module_without_executorch_path
from tests.support.release_behaviour import installed_openvino

skip_module_without_executorch_path()
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from repro.harness.cases.runs import max_abs_diff  # noqa: E402
from repro.harness.conformance import per_op  # noqa: E402
from repro.harness.cpu.classes import process_class  # noqa: E402
from repro.harness.lowering.named import WORKAROUND_TORCH_SPECIAL_VALUES  # noqa: E402
from tests.support.outcomes import assert_equals_eager  # noqa: E402
from workaround.partitioner.exact_rewrites import TORCH_SPECIAL_VALUES_PASSES  # noqa: E402

pytestmark = pytest.mark.executorch
NAN, INF = math.nan, math.inf
MEASURED_ON = Version("2026.4.1")  # the release the signs of zeros below were measured on
# The sweep's ops each pass makes exact, by the support list's names.
# (The sweep's clamp is clamp.Tensor, which OpenVINO's support list lacks: its scalar form is a row below.)
SWEPT = {"nan_propagating_extremes": ("relu", "hardtanh", "maximum", "minimum"), "sign_of_nan": ("sign",),
         "softmax_of_nan": ("_softmax", "_log_softmax"), "signed_zeros": ("elu", "cumsum")}


def windows(*shape):
    """Values cycling through NaN, -inf, a finite value and +inf, with whole windows of -inf and of NaN."""
    values = torch.tensor([NAN, -INF, 2.5, INF, -0.0, 1e30, -3.0, 0.5]).repeat(math.prod(shape) // 8 + 1)
    tensor = values[:math.prod(shape)].reshape(shape).clone()
    tensor[..., :2, :2] = -INF
    tensor[..., -2:, -2:] = NAN
    return tensor


# max_pool's calls: the OpInfo's first sample returns indices, which the rewrite leaves to OpenVINO (refused).
MAX_POOLS = {
    "max_pool2d": (lambda x: F.max_pool2d(x, 2), windows(1, 2, 6, 6)),
    "max_pool2d_padded_ceil_dilated": (lambda x: F.max_pool2d(x, 3, 2, 1, dilation=1, ceil_mode=True),
                                       windows(1, 1, 7, 7)),
    "max_pool2d_dilated": (lambda x: F.max_pool2d(x, 2, 1, 0, dilation=2), windows(1, 1, 6, 6)),
    "max_pool3d": (lambda x: F.max_pool3d(x, 2), windows(1, 1, 4, 4, 4)),
}


EXTREMES = {"clamp_of_special_values": (lambda x: x.clamp(-1.0, 2.0), windows(2, 8)),
            "clamp_min_only": (lambda x: x.clamp(min=0.5), windows(2, 8))}
ZEROS = torch.tensor([[-0.0, 0.0, -0.0, 1.5, NAN, -INF, -0.0, -2.0], [0.0, -0.0, -0.0, -0.0, INF, 0.0, 3.0, -0.0]])
# One model a row: the zero constants OpenVINO drops, and the ops that give -0.0 the other sign.
SIGNED_ZEROS = {
    "zero_constants_added_and_subtracted": (
        lambda x: (x + 0.0, torch.zeros(x.shape[-1]) + x, 0.0 - x, x - (-0.0)), "add"),
    "selu_and_cumsum_of_negative_zeros": (lambda x: (F.selu(x), (-x.abs()).cumsum(-1)), "cumsum"),
}


def sweep_rows():
    for module, ops in SWEPT.items():
        for sweep_case in per_op.sweep(set(ops)).cases:
            # (the .with_dtype calls compute in float64, which is handed back: not these passes' business)
            # float16 at its limits: a NaN constant of float16 must be made through float32 (graph_edits)
            # (float32 samples without special values: the conformance sweep's third column holds those)
            if (sweep_case.variant in ("special values", "float16 bounds")
                    and "with_dtype" not in sweep_case.opinfo):
                yield pytest.param(module, sweep_case.case, sweep_case.op, id=sweep_case.id)
    for name, (function, tensor) in EXTREMES.items():
        yield pytest.param("nan_propagating_extremes", ad_hoc_case(function, (tensor,), name), "clamp", id=name)
    for name, (function, op) in SIGNED_ZEROS.items():
        yield pytest.param("signed_zeros", ad_hoc_case(function, (ZEROS,), name), op, id=name)
    for name, (function, tensor) in MAX_POOLS.items():
        yield pytest.param("max_pool_special_values", ad_hoc_case(function, (tensor,), name),
                           "max_pool", id=name)


def test_every_pass_has_rows_here():
    modules = {rewrite.__name__.rsplit(".", 1)[1] for rewrite in TORCH_SPECIAL_VALUES_PASSES}
    assert modules == {*SWEPT, "max_pool_special_values"}


@pytest.mark.parametrize("cpu_class", [process_class(), *other_cpu_classes()], ids=str)
@pytest.mark.parametrize(("rewrite", "case", "op"), list(sweep_rows()))
def test_rewritten_op_stays_delegated_and_equals_pytorch(lowered_as, rewrite, case, op, cpu_class):
    """Lowered once, as this process's class computes; rerun as each other class computes (``as_class``)."""
    record = lowered_as(f"rewrite.{case.name}", case, WORKAROUND_TORCH_SPECIAL_VALUES, cpu_class)
    assert_equals_eager(record)
    assert record["delegates"] >= 1
    assert not [outside for outside in record["ops_outside"] if op in outside], (rewrite, record["ops_outside"])



SIGNED_ZERO_SAMPLE = [-0.0, 0.0, -0.0, 1.5, NAN, -INF]
# Each op ``signed_zeros`` rewrites, as an OpenVINO graph of an input of this shape (-1: dynamic), and PyTorch's
# op: OpenVINO gives a zero of the other sign in each (the Add and Subtract of a zero where the CPU plugin drops
# them or makes them a Negative: with a dynamic shape, or a static one, as measured).
SIGNED_ZERO_GRAPHS = {
    "elu": ([6], lambda ops, x: ops.elu(x, 1.0), F.elu),
    "cumsum": ([6], lambda ops, x: ops.cumsum(x, ops.constant(0)), lambda x: x.cumsum(0)),
    "add_zero": ([-1], lambda ops, x: ops.add(x, ops.constant(0.0, np.float32)), lambda x: x + 0.0),
    "zero_minus": ([6], lambda ops, x: ops.subtract(ops.constant(0.0, np.float32), x), lambda x: 0.0 - x),
    "minus_negative_zero": ([-1], lambda ops, x: ops.subtract(x, ops.constant(-0.0, np.float32)),
                            lambda x: x - (-0.0)),
}


def plain_openvino(name, rewritten):
    """The op's OpenVINO graph (``signed_zeros`` applied if ``rewritten``) run on the sample at f32; PyTorch's."""
    import openvino as ov
    import openvino.opset8 as ops

    from workaround.partitioner.exact_rewrites import signed_zeros

    shape, build, pytorch = SIGNED_ZERO_GRAPHS[name]
    x = ops.parameter(shape, np.float32)
    model = ov.Model([build(ops, x)], [x])
    if rewritten:
        signed_zeros.rewrite(model)
        model.validate_nodes_and_infer_types()
    sample = np.array(SIGNED_ZERO_SAMPLE, np.float32)
    got = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})([sample])[0]
    return torch.from_numpy(got.copy()), pytorch(torch.tensor(SIGNED_ZERO_SAMPLE))


@pytest.mark.parametrize("name", SIGNED_ZERO_GRAPHS)
def test_openvino_gives_a_zero_the_other_sign_without_the_signed_zeros_rewrite(name):
    if installed_openvino() != MEASURED_ON:
        pytest.skip(f"the signs of zeros were measured on OpenVINO {MEASURED_ON} only: measure this release")
    got, expected = plain_openvino(name, rewritten=False)
    assert max_abs_diff(got, expected, signed_zeros=True) == math.inf, (
        f"OpenVINO {MEASURED_ON} now gives PyTorch's zeros in {name} ({got.tolist()}): retire this part of "
        "workaround/partitioner/exact_rewrites/signed_zeros.py")


@pytest.mark.parametrize("name", SIGNED_ZERO_GRAPHS)
def test_signed_zeros_rewrite_gives_pytorchs_zeros_in_plain_openvino(name):
    got, expected = plain_openvino(name, rewritten=True)
    assert max_abs_diff(got, expected, signed_zeros=True) == 0, (got.tolist(), expected.tolist())
