"""What is known about OpenVINO's releases as packages, in one place: which exist, which install with
what, and from which one the ExecuTorch path can run.

``repro/matrix.py`` installs from these facts, the tests skip and expect by them
(``tests/support/release_behaviour.py`` holds the measured *behaviour*), and ``tox.ini``'s envs are
checked against them (``tests/upstream/test_command_line.py``): change a fact here and the test names every
env that no longer agrees.
"""

import argparse
import re
import subprocess
import sys
from collections.abc import Iterable

from packaging.version import InvalidVersion, Version

OLDEST = Version("2023.0.0")
# Used when the index cannot be asked: every release on PyPI from 2023.0.0 on, Nov 2026.
BUILTIN_RELEASES = [
    "2023.0.0", "2023.0.1", "2023.0.2", "2023.1.0", "2023.2.0", "2023.3.0", "2024.0.0", "2024.1.0", "2024.2.0",
    "2024.3.0", "2024.4.0", "2024.5.0", "2024.6.0", "2025.0.0", "2025.1.0", "2025.2.0", "2025.3.0", "2025.4.0",
    "2025.4.1", "2026.0.0", "2026.1.0", "2026.2.0", "2026.2.1", "2026.3.0", "2026.3.1", "2026.4.0", "2026.4.1",
]
# Older wheels fail to import with numpy 2.
NUMPY_2_FROM = Version("2024.2.0")
# 2024.2/2024.3 declare numpy<2 and executorch 1.5.1 needs numpy>=2: before this, pip cannot install both.
EXECUTORCH_INSTALLS_FROM = Version("2024.4.0")
# Older frontends reject ExecuTorch's edge ops at lowering (OpConversionFailure "No conversion rule found for
# operations: <EdgeOpOverload: aten.clone.default> ...", measured on 2024.6.0 and 2025.0.0).
EXECUTORCH_LOWERS_FROM = Version("2025.1.0")
# The per-release tox envs (one per series, its newest patch) start here; 2023.0.x is run by the matrix only.
TOX_FROM = Version("2023.1.0")
RELEASE_PATTERN = re.compile(r"^\d{4}\.\d+(\.\d+)?$")

# --- ExecuTorch, the other axis: every release that ships the OpenVINO backend -------------------------
# The headline gate (ov2026.4) and the project's `executorch` dependency group have this one.
HEADLINE_EXECUTORCH = "1.5.1"
# The other releases the gate runs on, as tox factors: env ov<HEADLINE series>-<factor>.
EXECUTORCH_FACTORS = {"et1.4": "1.4.1", "et1.5.0": "1.5.0"}
# Releases that ship the backend but cannot run here, each with the measured reason (its env fails with it).
EXECUTORCH_UNRUNNABLE = {
    "et1.3": ("1.3.1", "executorch 1.3.1 cannot run with torch 2.13.0, the only CPU torch here: its runtime "
                       "(extension/pybindings/_portable_lib) was built against torch 2.12 and fails to load with "
                       "undefined symbol c10::impl::cow::materialize_cow_storage(c10::StorageImpl&), which torch "
                       "2.13's libc10 no longer has (it has materialize_cow(c10::StorageImpl*))"),
}
EXECUTORCH_SERIES = "2026.4"  # the OpenVINO series the ExecuTorch axis runs on


def series(release: str | Version) -> str:
    """'2026.4.1' -> '2026.4' (what tox env names and --versions series say)."""
    return ".".join(str(release).split(".")[:2])


def tox_envs(releases: Iterable[str] = BUILTIN_RELEASES) -> dict[str, str]:
    """{tox env name: the release it pins}, one env per series from TOX_FROM on, its newest patch."""
    newest = {}
    for release in sorted(releases, key=Version):
        if Version(release) >= TOX_FROM:
            newest[f"ov{series(release)}"] = release
    return newest


def executorch_tox_envs() -> dict[str, str]:
    """{tox env name: the ExecuTorch release it pins} of the ExecuTorch axis, the unrunnable ones included."""
    factors = {**EXECUTORCH_FACTORS, **{factor: release for factor, (release, _) in EXECUTORCH_UNRUNNABLE.items()}}
    return {f"ov{EXECUTORCH_SERIES}-{factor}": release for factor, release in sorted(factors.items())}


def release_list(text: str) -> list[str]:
    """argparse type: '2024.0.0,2026.4' -> ['2024.0.0', '2026.4']; anything else is a usage error."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in items if not RELEASE_PATTERN.match(item)]
    if not items or bad:
        raise argparse.ArgumentTypeError(f"not a release like 2024.0.0 or a series like 2025.4: {bad or text!r}")
    return items


EXECUTORCH_PATTERN = re.compile(r"^\d+\.\d+\.\d+$")


def executorch_list(text: str) -> list[str]:
    """argparse type: '1.5.1,1.4.1' -> ['1.4.1', '1.5.1'] (oldest first); anything else is a usage error."""
    items = [item.strip() for item in text.split(",") if item.strip()]
    bad = [item for item in items if not EXECUTORCH_PATTERN.match(item)]
    if not items or bad:
        raise argparse.ArgumentTypeError(f"not an ExecuTorch release like 1.5.1: {bad or text!r}")
    return sorted(set(items), key=Version)


def discover_releases() -> tuple[list[str], str]:
    """(releases on the index from 2023.0.0 on, a sentence saying where the list came from)."""
    try:
        result = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "openvino"],
                                capture_output=True, text=True, timeout=120, check=False)
        answer = next((x for x in result.stdout.splitlines() if x.startswith("Available versions:")), None)
        reason = (result.stderr.strip().splitlines() or ["no answer"])[-1]
    except (subprocess.TimeoutExpired, OSError) as error:
        answer, reason = None, str(error)
    if answer is None:
        return BUILTIN_RELEASES, (f"The package index could not be asked ({reason}); using the built-in list of "
                                  f"{len(BUILTIN_RELEASES)} releases.")
    found = []
    for item in answer.split(":", 1)[1].split(","):
        try:
            version = Version(item.strip())
        except InvalidVersion:
            continue
        if version >= OLDEST and not version.is_prerelease and not version.is_devrelease:
            found.append(str(version))
    found.sort(key=Version)
    return found, f"Releases from the package index: {len(found)} from {OLDEST} on."


def resolve(requested: str, available: Iterable[str]) -> str | None:
    """A requested release or series -> the release to install, or None when the index lacks it."""
    if requested.count(".") == 2:
        return requested if requested in available else None
    series = [r for r in available if r.startswith(requested + ".")]
    return max(series, key=Version) if series else None
