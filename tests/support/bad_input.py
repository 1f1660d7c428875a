"""What every bad-input test holds a command line to: its exit code, one line on stderr naming the problem,
no traceback, and the files it was given as they were."""

import hashlib
from pathlib import Path
from subprocess import CompletedProcess


def assert_one_line(result: CompletedProcess[str], code: int, says: str) -> str:
    """The command exited ``code`` with one stderr line saying ``says`` (and no traceback anywhere): the line."""
    assert "Traceback" not in result.stdout + result.stderr, result.stderr[-3000:]
    assert result.returncode == code, result.stdout[-2000:] + result.stderr[-2000:]
    [line] = result.stderr.strip().splitlines()
    assert says in line, line
    return line


def digests(*places: Path) -> dict[str, str]:
    """{path: sha256} of every file in or at ``places`` (a missing place has none)."""
    files = [path for place in places for path in ([place] if place.is_file() else place.rglob("*"))]
    return {str(path): hashlib.sha256(path.read_bytes()).hexdigest() for path in files if path.is_file()}


def assert_refused_creating_nothing(folder: Path, script: Path, arguments: list[str], says: str) -> None:
    """``script`` run with ``arguments`` (``{file}`` standing for a file written in ``folder``) exits 2 with one
    line ``<script name>: error: ...`` saying ``says``, and ``folder`` holds that file alone, unchanged."""
    from tests.support.helpers import run_cli

    (folder / "file").write_text("a file")
    before = digests(folder)
    result = run_cli("python", script, *[part.format(file=folder / "file") for part in arguments], timeout=300)
    assert assert_one_line(result, 2, says).startswith(f"{script.name}: error: ")
    assert digests(folder) == before
    assert sorted(folder.iterdir()) == [folder / "file"]
