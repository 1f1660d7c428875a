"""What the project's environments install, read from ``pyproject.toml``'s dependency groups: the matrix's
environments (``repro/matrix_runs.py``) and the reports' install lines say the same."""

import tomllib
from pathlib import Path

from packaging.version import Version

from repro.releases import HEADLINE_EXECUTORCH, NUMPY_2_FROM

PROJECT = Path(__file__).resolve().parents[1]


def dependency_group(name: str) -> list[str]:
    """The requirements of one of the project's dependency groups, its ``include-group`` entries resolved."""
    with (PROJECT / "pyproject.toml").open("rb") as file:
        groups = tomllib.load(file)["dependency-groups"]
    found: list[str] = []
    for item in groups[name]:
        found += dependency_group(item["include-group"]) if isinstance(item, dict) else [item]
    return found


def executorch_requirements(executorch: str = HEADLINE_EXECUTORCH) -> list[str]:
    """The ExecuTorch stack the project runs with, with ``executorch`` pinned to the given release, and
    transformers (the empty-constants reproducer's GPT-2 row)."""
    return [*dependency_group("executorch_stack"), *dependency_group("models"), f"executorch=={executorch}"]


def requirements(release: str, executorch: str | None) -> list[str]:
    """What one environment installs: this OpenVINO release, and the ExecuTorch stack with that ExecuTorch
    release (None: none)."""
    numpy = "numpy" if Version(release) >= NUMPY_2_FROM else "numpy<2"
    extra = executorch_requirements(executorch) if executorch else []
    return [f"openvino=={release}", numpy, *extra]
