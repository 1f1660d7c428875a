"""OpenVINO CPU plugin: an output fed directly by a Parameter is not written when set after the input.
Exit status (git bisect run): 0 every output right and x intact on every device, 1 not."""
import numpy as np

try:  # 2025.0 and later (2026 has no openvino.runtime)
    import openvino as ov
    import openvino.opset8 as ops
except ImportError:  # 2023.0 - 2024.6
    import openvino.runtime as ov
    import openvino.runtime.opset8 as ops

x = ops.parameter([2, 3], np.float32, name="x")
model = ov.Model([ops.result(x), ops.result(ops.sin(x))], [x], "param_result_and_sin")  # x -> Result, x -> Sin
print("OpenVINO", ov.get_version())
bug = False
for device in ("CPU", "AUTO:CPU", "HETERO:CPU"):
    request = ov.Core().compile_model(model, device).create_infer_request()
    data = np.random.default_rng(0).uniform(0.5, 1.5, (2, 3)).astype(np.float32)
    original = data.copy()
    copy_out, sin_out = np.full((2, 3), -7.0, np.float32), np.full((2, 3), -7.0, np.float32)
    request.set_input_tensor(0, ov.Tensor(data, shared_memory=True))  # inputs first, as ExecuTorch does
    request.set_output_tensor(0, ov.Tensor(copy_out, shared_memory=True))
    request.set_output_tensor(1, ov.Tensor(sin_out, shared_memory=True))
    slot_shared = request.get_input_tensor(0).data.ctypes.data == copy_out.ctypes.data
    request.infer()
    right = [np.array_equal(copy_out, original), np.allclose(sin_out, np.sin(original), atol=0.05),
             np.array_equal(data, original)]
    print(f"{device}: output 0 == x: {right[0]} {copy_out[0]}; output 1 == sin(x): {right[1]}; "
          f"x intact: {right[2]}; input 0 is output 0's buffer: {slot_shared}")
    bug |= not all(right)
raise SystemExit(1 if bug else 0)
