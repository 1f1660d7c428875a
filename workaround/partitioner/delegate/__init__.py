"""What the preprocess builds inside an OpenVINO delegate beyond conversion: a KV cache as state,
attention per group of KV heads, compressed weights' activations pinned."""
