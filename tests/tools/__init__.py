"""Command-line tools over the tests: the figures the docs render (``python -m tests.tools.figures``), the
recorded gate runs, the mutations that prove the gate notices, the checker's import boundary."""
