"""Imported first by the scripts users run by path (``python repro/executorch_path.py``).

Python then puts ``repro/`` itself on ``sys.path``, not the project, so ``repro`` and ``workaround``
would not import as packages. This is the one place that puts the project root there; run as
``python -m repro.<name>`` (as tox does) it is not needed and not imported.
"""

import sys
from pathlib import Path

PROJECT = str(Path(__file__).resolve().parent.parent)
if PROJECT not in sys.path:
    sys.path.insert(0, PROJECT)
