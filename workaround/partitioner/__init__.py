"""The partitioner (``CopySafeOpenvinoPartitioner``, ``install()``): ExecuTorch's OpenVINO partitioner with the
rules that hand back what OpenVINO would compute wrongly, the dim orders kept at partition edges, the hooks into
ExecuTorch's backend and ``to_executorch``, and the exact rewrites. Imports torch and executorch."""
