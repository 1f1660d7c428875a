"""The pytest plugins the envs load (``tests/conftest.py``): a candidate partitioner gated in place of the
workaround, a fetched ExecuTorch checkout for the C++ patch proofs, ExecuTorch's op tests run once."""
