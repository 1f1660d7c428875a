"""The import boundary between the two deployables, checked both ways (``tox -e lint`` runs this after
``lint-imports``): every module of ``workaround/`` is named on one side of the rule in ``pyproject.toml``
(``[tool.importlinter]``), so a new module cannot slip past it; and the rule bites: on a copy of the tree where a
checker module imports torch, ``lint-imports`` fails naming that import.

    python -m tests.tools.import_boundary
"""

import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
CONFIG = PROJECT / "pyproject.toml"
# The checker module the copy breaks: one that imports nothing heavier than the standard library.
BROKEN = "workaround.checker.compatibility_stamp"


def contract() -> dict:
    [only] = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["contracts"]
    return only


def workaround_modules() -> set[str]:
    """``workaround.NAME`` for each module and subpackage directly in ``workaround/`` (a subpackage's rule holds
    for
    everything in it)."""
    folder = PROJECT / "workaround"
    return ({f"workaround.{path.stem}" for path in folder.glob("*.py") if path.stem != "__init__"}
            | {f"workaround.{path.parent.name}" for path in folder.glob("*/__init__.py")})


def unclassified() -> set[str]:
    rule = contract()
    return workaround_modules() - set(rule["source_modules"]) - set(rule["forbidden_modules"])


def lint_imports(folder: Path) -> subprocess.CompletedProcess:
    command = [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


def broken_copy_fails() -> tuple[bool, str]:
    """Whether ``lint-imports`` fails on a copy whose ``BROKEN`` imports torch, and what it printed."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder)
        shutil.copytree(PROJECT / "workaround", copy / "workaround",
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(CONFIG, copy / "pyproject.toml")
        module = copy.joinpath(*BROKEN.split(".")).with_suffix(".py")
        module.write_text(module.read_text() + "\nimport torch  # noqa: E402,F401\n")
        result = lint_imports(copy)
    output = result.stdout + result.stderr
    return result.returncode != 0 and f"{BROKEN} -> torch" in output, output


def main() -> int:
    if missing := unclassified():
        print(f"not on either side of the import rule in pyproject.toml: {', '.join(sorted(missing))}")
        return 1
    bites, output = broken_copy_fails()
    if not bites:
        print(f"lint-imports did not fail on {BROKEN} importing torch:\n{output[-2000:]}")
        return 1
    print(f"import boundary: every module of workaround/ classified; the rule fails when {BROKEN} "
          "imports torch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
