"""The ExecuTorch harness, by part:

- ``models/``: what is run (the catalogue's cases, the LeRobot-shaped policy, real model families, INT8 models, a
  program past 2 GiB) and the one seed they are drawn from;
- ``lowering/``: how a case is lowered (stock, the workaround, none, a candidate under review, ExecuTorch with our
  patch series);
- ``runtime/``: the real runtime in child processes, loaded as deployments load a program, and a blob replayed in
  plain OpenVINO;
- ``cpu/``: the CPU class and precision a process computes at, and programs restamped for another class;
- ``cases/``: one case through the runtime, its record and outcomes;
- ``llm/``: ExecuTorch's own LLM pipeline;
- ``conformance/``: the per-op sweep, its record, and ExecuTorch's own op tests;
- ``cli.py``: what the command-line scripts share.

Nothing here imports the report builders (``repro.reports``); they import from here.
"""
