"""The ExecuTorch harness: the model catalogue, the lowerings, the runtime in child processes, replay.

Nothing here imports the report builders (``repro.reports``); they import from here.
"""
