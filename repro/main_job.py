"""The main job (``tox -e repro``): run the three reproducers on the installed OpenVINO, show their
reports, and end with one line saying what was found.

Each reproducer runs in its own process; its report (stdout) is shown as it comes, its stderr (torch's
and the runtime's import chatter, the partitioner's "Op not supported" lines) only with ``-v`` or when
the script could not do its job. The job succeeds when every reproducer ran, whether or not it found
the bug: reproducing is its job; the tests are the gate.
"""

import subprocess
import sys
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro import attachment_commands as commands
from repro.harness import cli
from repro.harness.cli import ExitStatus

REPRO = Path(__file__).resolve().parent
# (what it shows, script and arguments); a C attachment is built and run as its report prints it.
IMPORT_PROGRAM = "openvino_import_lifetime.c"
REPRODUCERS = [
    ("stale copies in plain OpenVINO", ["plain_openvino.py"]),
    ("import reading the caller's buffer", [f"attachments/{IMPORT_PROGRAM}"]),
    ("the ExecuTorch path (stock partitioner)", ["executorch_path.py", "--replay"]),
]


def run(script: str, arguments: Sequence[str], verbose: bool) -> int | None:
    """The reproducer's exit code; its stdout goes straight through, its stderr only when asked or needed."""
    if script.endswith(".c"):
        built = commands.run(commands.c_build(IMPORT_PROGRAM), sys.executable, [IMPORT_PROGRAM])
        print(built["output"], flush=True)
        return built["exit_code"]
    result = subprocess.run([sys.executable, str(REPRO / script), *arguments], stderr=subprocess.PIPE,
                            text=True, check=False)
    if verbose or result.returncode not in (ExitStatus.BUG, ExitStatus.CORRECT):
        sys.stderr.write(result.stderr)
    return result.returncode


def unknown_cases(names: list[str]) -> list[str]:
    """The names that are not catalogue cases, checked before any reproducer runs (the catalogue imports torch:
    only when a case is named). Where torch is missing the ExecuTorch reproducer says so itself."""
    if not names:
        return []
    try:
        from repro.harness.models.catalogue import CASES
    except ImportError:
        return []
    return [name for name in names if name not in CASES]


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 every reproducer ran (bug found or not), "
                        "2 usage error, 125 some reproducer could not test")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also show the reproducers' stderr (third-party warnings, the partitioner's notes)")
    parser.add_argument("--case", action="append", default=[], metavar="NAME",
                        help="run only this ExecuTorch case (repeatable; see executorch_path.py --help)")
    args = parser.parse_args(argv)
    if unknown := unknown_cases(args.case):
        parser.error(f"--case: no such case: {', '.join(unknown)} "
                     "(the names are in repro/harness/models/catalogue.py)")
    found = {}
    for title, (script, *arguments) in REPRODUCERS:
        if script == "executorch_path.py":
            arguments += [item for name in args.case for item in ("--case", name)]
        how = "build and run" if script.endswith(".c") else "python"
        print(f"\n=== {title}: {how} repro/{script} {' '.join(arguments)}".rstrip(), flush=True)
        found[title] = run(script, arguments, args.verbose)
    words = {ExitStatus.BUG: "reproduced",
             ExitStatus.CORRECT: "NOT reproduced (upstream may have fixed it: re-run the gate)"}
    parts = [f"{title}: {words.get(code, f'could not test (exit {code})')}" for title, code in found.items()]
    print(f"\nOpenVINO {version('openvino')}, executorch {version('executorch')}: " + "; ".join(parts) + ".")
    return ExitStatus.UNTESTABLE if any(code not in words for code in found.values()) else ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
