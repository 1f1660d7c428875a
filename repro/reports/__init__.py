"""The report builders: the release matrix's tables and boundaries, and the upstream issue bodies.

Each body renders from measured rows (``repro/matrix.py``, ``repro/executorch_path.py``); the files
it embeds are the standalone ones in ``repro/attachments/``.
"""
