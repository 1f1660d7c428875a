"""Ratios measured interleaved in one run, JSON out: ``python -m benchmarks.<name>`` (``tox -e bench``)."""
