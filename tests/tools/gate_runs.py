"""Each run of a tox env's tests leaves a summary, ``out/gate-runs/ENV.json``: the counts pytest reports, how long
it took, when, at which commit, on which CPU class and releases. ``python -m tests.tools.figures --record-gate``
keeps one as the env's last recorded run, which README.md and docs/ quote (``tests/tools/figures.py``). The stamps
every recorded run carries (``commit``, ``today``) and how a record is read are here for the other recorders
too."""

import json
import os
import subprocess
import time
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
OUTCOMES = ("passed", "failed", "skipped", "xfailed", "xpassed", "error")
_started: list[float] = []


def started() -> None:
    _started[:] = [time.monotonic()]


def installed(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def commit() -> str:
    result = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=PROJECT, capture_output=True,
                            text=True, check=False)
    return result.stdout.strip() or "unknown"


def today() -> str:
    """The date every recorded run carries (UTC)."""
    return datetime.now(UTC).strftime("%Y-%m-%d")


def read_record(path: Path) -> dict:
    """A recorded run's JSON (``docs/data/``), or an empty dict before the first one is kept."""
    return json.loads(path.read_text()) if path.exists() else {}


def summary(env: str, stats: dict[str, list[object]], cpu_class: str) -> dict[str, object]:
    counts = {outcome: len(stats.get(outcome, [])) for outcome in OUTCOMES}  # what pytest's last line counts
    return {"env": env, **counts, "seconds": round(time.monotonic() - _started[0], 1),
            "date": today(), "commit": commit(), "cpu_class": cpu_class,
            "openvino": installed("openvino"), "executorch": installed("executorch")}


def write(stats: dict[str, list[object]], cpu_class: str) -> Path | None:
    """The summary of this run, if tox runs it (``TOX_ENV_NAME``) and it ran to the end."""
    env = os.environ.get("TOX_ENV_NAME")
    if not env or not _started:
        return None
    path = PROJECT / "out" / "gate-runs" / f"{env}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(summary(env, stats, cpu_class), indent=1) + "\n")
    return path
