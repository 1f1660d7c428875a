"""Reading an ExecuTorch ``.pte`` without ExecuTorch: the file, its flatbuffer verified against the schema's
tables before anything is trusted, and the method-level facts the checker judges (delegates, their arguments'
tensors, constants, operators)."""
