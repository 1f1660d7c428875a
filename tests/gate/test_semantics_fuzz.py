"""Property: a small model over integers, float64 or special floats, lowered with the workaround, equals eager.

Hypothesis draws a dtype (int64, int32, uint8, int8, float64, float32), two 1-D inputs of it whose values
sit at the bounds where OpenVINO and PyTorch part (int32's and uint8's limits, +-2**24 (+1), 2**40, 1e300,
NaN, +-inf, -0.0, ...), then a chain of ops that each read earlier values (arithmetic, powers, division and
remainders by constants, reductions, views, concatenation, comparisons, max/min and clamps, float16 round
trips, sign), returning the last value and one drawn earlier one. Integers are compared exactly; floats within
1e-5 of their magnitude, NaN where eager has NaN. Floats with NaN or infinities are lowered with
``special_values="torch"``. A model neither OpenVINO nor ExecuTorch's runtime computes as PyTorch may instead be
refused at lowering, in one line (``CannotHandBackError``); never a program that fails to load.

Deterministic (derandomized, no example database). SEMANTICS_FUZZ_EXAMPLES sets how many models are
tried (default 20).
"""

import math
import os

import pytest

from tests.support.helpers import ad_hoc_case, skip_module_without_executorch_path

skip_module_without_executorch_path()
import torch  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from repro.harness.cases.runs import run_case  # noqa: E402
from repro.harness.lowering.named import WORKAROUND, WORKAROUND_TORCH_SPECIAL_VALUES  # noqa: E402
from tests.support.outcomes import assert_equals_eager  # noqa: E402
from workaround import check_program  # noqa: E402

pytestmark = pytest.mark.executorch
EXAMPLES = int(os.environ.get("SEMANTICS_FUZZ_EXAMPLES", "20"))
INF, NAN = float("inf"), float("nan")
# Values where OpenVINO's and PyTorch's semantics part, per dtype (kept to those the dtype holds).
BOUNDS = [0, 1, -1, 3, -7, 127, -128, 255, 256, 2**24, 2**24 + 1, -(2**24) - 3, 1700000001, 2**31 - 1, -2**31,
          2**31, 2**40 + 3, -2**35]
SPECIAL = [NAN, INF, -INF, -0.0, 1e30, 1e9 + 1.5, 1e10]
DTYPES = {"int64": torch.int64, "int32": torch.int32, "uint8": torch.uint8, "int8": torch.int8,
          "float64": torch.float64, "float32": torch.float32}

ANY = {
    "add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y,
    "maximum": torch.maximum, "minimum": torch.minimum,
    "cat_halves": lambda x, y: torch.cat([x[:2], y[2:]]),
    "reshape_back": lambda x, y: (x.reshape(2, 2) + y.reshape(2, 2)).reshape(4),
    "where_greater": lambda x, y: torch.where(x > y, x, y),
    "flip": lambda x, y: x.flip(0),
    "equal": lambda x, y: (x == y).to(x.dtype), "greater_equal": lambda x, y: (x >= y).to(x.dtype),
    "amax_keep": lambda x, y: x.amax(0, keepdim=True).expand(4),
}
INTEGER = {
    "floor_divide_by_3": lambda x, y: x // 3, "trunc_divide_by_minus_7": lambda x, y: torch.div(
        x, -7, rounding_mode="trunc"),
    "remainder_of_magnitude_by_5": lambda x, y: torch.remainder(x.abs(), 5),
    "cumsum": lambda x, y: x.cumsum(0).to(x.dtype), "sum_keep": lambda x, y: x.sum(0, keepdim=True).to(
        x.dtype).expand(4),
    "square": lambda x, y: x**2,
}
# Only where float32 cannot hold the bound (int8 / uint8 clamps are exact in float32).
WIDE_INTEGER = {"clamp_beyond_2_24": lambda x, y: x.clamp(-5, 16777217)}
FLOAT = {
    "trunc_divide_by_2": lambda x, y: torch.div(x, 2.0, rounding_mode="trunc"),
    "fmod_by_3": lambda x, y: torch.fmod(x, 3.0), "relu": lambda x, y: torch.relu(x),
    "clamp": lambda x, y: x.clamp(-5.0, 5.0),
    "half_round_trip": lambda x, y: x.half().to(x.dtype), "sign": lambda x, y: torch.sign(x),
}


def holds(dtype, value):
    if dtype.is_floating_point:
        return abs(value) < torch.finfo(dtype).max or math.isnan(value) or math.isinf(value)
    info = torch.iinfo(dtype)
    return isinstance(value, int) and info.min <= value <= info.max


@st.composite
def programs(draw):
    """(dtype name, two inputs as lists, [(op, operand indices)], extra output index)."""
    name = draw(st.sampled_from(sorted(DTYPES)))
    dtype = DTYPES[name]
    pool = [v for v in BOUNDS + (SPECIAL if dtype.is_floating_point else []) if holds(dtype, v)]
    inputs = [draw(st.lists(st.sampled_from(pool), min_size=4, max_size=4)) for _ in range(2)]
    ops = {**ANY, **(FLOAT if dtype.is_floating_point else INTEGER),
           **(WIDE_INTEGER if dtype in (torch.int32, torch.int64) else {})}
    steps = []
    for step in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(sorted(ops)))
        steps.append((op, (draw(st.integers(0, 1 + step)), draw(st.integers(0, 1 + step)))))
    return name, inputs, steps, draw(st.integers(0, 1 + len(steps)))


def build(program):
    _, _, steps, extra = program
    ops = {**ANY, **FLOAT, **INTEGER, **WIDE_INTEGER}

    def function(x, y):
        values = [x, y]
        for op, (a, b) in steps:
            values.append(ops[op](values[a], values[b]))
        return values[-1], values[extra] * 1 if extra >= 2 else values[-1] + 0

    return function


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(program=programs())
def test_random_integer_float64_or_special_float_model_with_the_workaround_equals_eager(pte_dir, runners,
                                                                                       program):
    name, inputs, _, _ = program
    dtype = DTYPES[name]
    tensors = tuple(torch.tensor(values, dtype=dtype) for values in inputs)
    function = build(program)
    expected = function(*tensors)
    specials = dtype.is_floating_point and any(not torch.isfinite(t).all() for t in (*tensors, *expected))
    magnitude = max([float(out.double().nan_to_num(posinf=0, neginf=0).abs().max()) for out in expected],
                    default=1.0)
    case = ad_hoc_case(function, tensors, f"semantics_fuzz_{name}",
                       exact_outputs=() if dtype.is_floating_point else (0, 1), atol=1e-5 * max(1.0, magnitude))
    lowering = WORKAROUND_TORCH_SPECIAL_VALUES if specials else WORKAROUND
    record = run_case(case, lowering, runners, pte_dir)
    if record["outcome"] == "refused":
        assert record["lowering_error"].startswith("CannotHandBackError: "), record["lowering_error"]
        assert "\n" not in record["lowering_error"]
        return
    assert_equals_eager(record)
    assert check_program(record["pte"]) == []
