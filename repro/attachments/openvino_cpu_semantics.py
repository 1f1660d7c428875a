"""OpenVINO CPU plugin: results that differ from the framework semantics they are converted from."""
import numpy as np

try:  # 2025.0 and later (2026 has no openvino.runtime)
    import openvino as ov
    import openvino.opset8 as ops
except ImportError:  # 2023.0 - 2024.6
    import openvino.runtime as ov
    import openvino.runtime.opset8 as ops


def run(build, data):
    x = ops.parameter(data.shape, data.dtype, name="x")
    model = ov.Model([build(x)], [x])
    return ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})([data])[0]


def avg_pool_ceil(x):  # torch.nn.functional.avg_pool1d(x, 3, 2, 1, ceil_mode=True), padding counted
    return ops.avg_pool(x, [2], [1], [1], [3], exclude_pad=False, rounding_type="ceil")


def trunc_division(x):  # what the PyTorch frontend makes of torch.div(x, 1.0, rounding_mode="trunc")
    quotient = ops.divide(x, ops.constant(np.float32(1)))  # Divide floors integers only ("python division")
    return ops.convert_like(ops.convert(quotient, "i32"), x)


def f16_round_trip(x):  # what the PyTorch frontend makes of x.half().float()
    return ops.convert(ops.convert(x, "f16"), "f32")


f32, i32, inf = np.float32, np.int32, np.inf
cases = [  # name, model, input, PyTorch's result
    ("ReduceMax of all -inf", lambda x: ops.reduce_max(x, [0]), np.array([-inf, -inf], f32), [-inf]),
    ("ReduceMin of all +inf", lambda x: ops.reduce_min(x, [0]), np.array([inf, inf], f32), [inf]),
    ("MaxPool of an all -inf window", lambda x: ops.max_pool(x, [1], [1], [0], [0], [2]).output(0),
     np.full([1, 1, 2], -inf, f32), [[[-inf]]]),
    ("AvgPool's ceil window with padding counted", avg_pool_ceil, np.ones([1, 1, 4], f32), [[[2 / 3, 1, 0.5]]]),
    ("trunc division through Convert(i32)", trunc_division, np.array([3e9, -7.5, inf], f32), [3e9, -7, inf]),
    ("i32 floor division above 2**24", lambda x: ops.divide(x, ops.constant(np.int32(10))),
     np.array([123456789, -123456789], np.int32), [12345678, -12345679]),
    ("float Mod of a large quotient", lambda x: ops.mod(x, ops.constant(np.float32(3))),  # torch.fmod(x, 3)
     np.array([1e9, -1e9, 7.5], f32), [1, -1, 1.5]),
    ("i32 Equal above 2**24", lambda x: ops.equal(x, ops.constant(i32(16777216))),
     np.array([16777217, 16777216], i32), [False, True]),
    ("i32 ReduceMax above 2**24", lambda x: ops.reduce_max(x, [0]), np.array([16777217, 16777216], i32),
     [16777217]),
    ("i32 Power above 2**24", lambda x: ops.power(x, ops.constant(i32(2))), np.array([40001, 3], i32),
     [1600080001, 9]),
    ("f16 round trip folded", f16_round_trip, np.array([3.1415927, 70000], f32), [3.140625, inf]),
]
print("OpenVINO", ov.get_version())
wrong = 0
for name, build, data, pytorch in cases:
    got = run(build, data)
    expected = np.array(pytorch, got.dtype)  # integers and booleans compared exactly, floats to 1e-6
    right = np.array_equal(got, expected) if got.dtype.kind in "iub" else np.allclose(got, expected, rtol=1e-6)
    wrong += not right
    print(f"{name}: {'right' if right else 'WRONG'}: {got.ravel()} (PyTorch: {expected.ravel()})")
print(f"BUG REPRODUCED: {wrong} of {len(cases)} differ" if wrong else "OK: every result as in PyTorch")
raise SystemExit(int(wrong > 0))
