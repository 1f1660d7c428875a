"""Boundary layouts: dim orders read as ExecuTorch serializes them, the layouts that fit two, and dim
order off."""
