"""What the project's scripts share at the command line: exit codes in ``--help`` and the checks
that must fail in one line, with exit 2, before any long work (so no result is lost to them).

The exit statuses of every project CLI are ``ExitStatus``. (``plain_openvino.py`` and the attachments in
``repro/attachments/`` import nothing from the project and spell these out; the checker ``openvino-pte-check``
ships in ``workaround/``, which does not depend on ``repro/``, and has its own.) One-line usage errors are the
checker's ``OneLineErrors``: one class for every parser.
"""

import argparse
import enum
import tempfile
from pathlib import Path
from typing import Any

from workaround.checker.command_line import EXIT_USAGE, OneLineErrors


class ExitStatus(enum.IntEnum):
    """git-bisect's convention: 0 good, 1 bad, 125 cannot test; 2 is argparse's usage error."""

    CORRECT = 0  # the bug does not show (or: every outcome is the recorded one)
    BUG = 1  # the bug shows (or: some outcome differs from the recorded one)
    USAGE = EXIT_USAGE
    UNTESTABLE = 125


BISECT_EXIT_CODES = ("exit status (git-bisect convention): 0 correct, 1 bug reproduced, 2 usage error, "
                     "125 could not test")


def parser(description: str, exit_codes: str, **options: Any) -> OneLineErrors:
    """An ArgumentParser whose --help ends with the script's exit codes and whose errors are one line."""
    return OneLineErrors(description=description, epilog=exit_codes, **options)


def comma_separated(text: str) -> list[str]:
    """argparse type: the names in a comma-separated list, empty ones left out."""
    return [item for item in text.split(",") if item]


def positive_int(text: str) -> int:
    """argparse type: a whole number >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def cannot_write_into(folder: Path) -> str | None:
    """Why files cannot be written into ``folder`` (or the folders that would be made for it), or None. A real
    write (root is told yes by os.access almost everywhere) into the nearest folder that exists, creating
    nothing: a usage error found later must not leave folders behind."""
    existing = folder
    while not existing.exists():
        if existing.is_symlink():
            return f"{existing} is a symbolic link to nothing"
        existing = existing.parent
    if not existing.is_dir():
        return f"{existing} is not a folder"
    try:
        with tempfile.TemporaryFile(dir=existing):
            return None
    except OSError as error:
        return error.strerror or str(error)


def require_writable(arg_parser: argparse.ArgumentParser, option: str, folder: Path) -> None:
    """A usage error (exit 2, one line) unless files can be written into ``folder``."""
    if problem := cannot_write_into(folder):
        arg_parser.error(f"{option}: cannot write into {folder}: {problem}")
