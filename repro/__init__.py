"""The reproducers, the ExecuTorch harness, and the report builders (see the README's layout)."""
