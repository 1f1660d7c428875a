"""The hooks into ExecuTorch: the backend's preprocess, serialization (``to_executorch``), the LLM
pipeline, and the releases they are proven on."""
