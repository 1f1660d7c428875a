"""The per-op conformance sweep and its recorded outcomes, and ExecuTorch's own OpenVINO op tests
run and read back."""
