"""The checker's edge: whatever happens inside, its exit code keeps its meaning and it says so in one line.

Why: scripts read the checker's exit code as a verdict (``openvino-pte-check model.pte || block_release``), so a
crash must never look like one. Python exits 1 on an uncaught exception, which is the checker's "affected"; it
prints a traceback on Ctrl-C, on a closed pipe and on a full disk. Here each of those gets its own code and one
line on stderr (none for a closed pipe: the reader left), and the traceback of an unexpected error is kept for a
bug report behind ``--traceback`` or ``OPENVINO_PTE_CHECK_TRACEBACK=1``.
"""

import argparse
import contextlib
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn

EXIT_USAGE = 2  # argparse's, and git bisect's convention
EXIT_CHECKER_FAILED = 3  # no verdict: the checker itself failed (a bug to report) or could not write its report
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command whose reader went away
TRACEBACK_VARIABLE = "OPENVINO_PTE_CHECK_TRACEBACK"


def say(line: str) -> None:
    """One line on stderr, whatever it holds: a name no encoding can show is escaped, a stderr that cannot be
    written is given up on (the exit code still says what happened)."""
    with contextlib.suppress(OSError, ValueError):
        print(line.encode(errors="backslashreplace").decode(), file=sys.stderr, flush=True)


class OneLineErrors(argparse.ArgumentParser):
    """A usage error as one line on stderr (argparse would print the whole usage first), exit 2: the checker's,
    and every project script's (``repro.harness.cli``)."""

    def error(self, message: str) -> NoReturn:
        say(f"{self.prog}: error: {message} (see --help)")
        sys.exit(EXIT_USAGE)


def escape_unencodable_output() -> None:
    """Print names no encoding of the terminal can show (a non-UTF-8 file name under PYTHONIOENCODING=utf-8)
    as backslash escapes instead of failing."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


@dataclass(frozen=True)
class Report:
    code: int
    lines: list[str]  # for stdout
    problems: list[str]  # for stderr


def write(lines: list[str]) -> None:
    for line in lines:
        sys.stdout.write(line + "\n")
    sys.stdout.flush()


def guarded(program: str, check: Callable[[], Report], show_traceback: bool) -> int:
    """Run ``check``, print its report and return its code; or the code for how either failed (see the module
    docstring). The report is written only once the check is done, so a failure never leaves half of one."""
    try:
        escape_unencodable_output()
        report = check()
    except KeyboardInterrupt:
        say(f"{program}: interrupted")
        return EXIT_INTERRUPTED
    except Exception as error:
        if show_traceback or os.environ.get(TRACEBACK_VARIABLE):
            say(traceback.format_exc().rstrip())
        message = " ".join(str(error).split())[:300]
        say(f"{program}: could not check: the checker failed ({type(error).__name__}: {message}); this is a bug "
            f"in the checker, not a verdict: rerun with --traceback and report it")
        return EXIT_CHECKER_FAILED
    for problem in report.problems:
        say(problem)
    try:
        write(report.lines)
    except KeyboardInterrupt:
        say(f"{program}: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # What is still buffered would fail again when Python flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_CLOSED_PIPE
    except OSError as error:  # a full disk, a closed terminal
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        say(f"{program}: cannot write the report: {error.strerror or error}")
        return EXIT_CHECKER_FAILED
    return report.code
