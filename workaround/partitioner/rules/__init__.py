"""The rules that decide what OpenVINO gets: which nodes a partition may hold (copies, boundary limits,
what OpenVINO or ExecuTorch's kernels compute differently, proven value ranges) and which constants stay
out of the blob."""
