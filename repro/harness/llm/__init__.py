"""ExecuTorch's own LLM pipeline with the OpenVINO backend, and an LLM case exported and run."""
