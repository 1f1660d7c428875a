"""OpenVINO CPU plugin: a rank-1 Abs whose input is computed from constants is dropped at compile time."""
import numpy as np

try:  # 2025.0 and later (2026 has no openvino.runtime)
    import openvino as ov
    import openvino.opset8 as ops
except ImportError:  # 2023.0 - 2024.6
    import openvino.runtime as ov
    import openvino.runtime.opset8 as ops

print("OpenVINO", ov.get_version())
dropped = False
for dtype in (np.float32, np.int32, np.int64, np.int8):
    p = ops.parameter([4], dtype, name="p")
    steps = ops.range(ops.constant(-2, dtype), ops.constant(2, dtype), ops.constant(1, dtype), ov.Type(dtype))
    model = ov.Model([ops.add(ops.abs(steps), p)], [p], "abs_of_range")  # |[-2 -1 0 1]| + p
    got = ov.Core().compile_model(model, "CPU")([np.zeros(4, dtype)])[0]
    dropped |= not np.array_equal(got, [2, 1, 0, 1])
    print(f"{dtype.__name__}: Abs(Range(-2, 2)) + 0 = {got} (expected [2 1 0 1])")
print("BUG REPRODUCED: the Abs was dropped" if dropped else "OK: the Abs was applied")
raise SystemExit(int(dropped))
