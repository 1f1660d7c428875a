"""What the programs past 2 GiB need from the disk, checked before the first export. A disk that fills halfway
fails minutes in as a serializer's error (CI, 2026-12-07: ``unexpected pos 4544 vs 4440`` from torch's zip writer,
with this session's scratch on the same disk); this says it in one line at the start."""

import shutil

import pytest

GIB = 1 << 30
# The env's peak under pytest's base temp, sampled every 2 s through a whole run: 8.4 GiB (2026-12-07; it was
# 11.3 GiB before each module and test removed its programs), and a margin.
DISK_NEEDED = 10 * GIB


def shortfall(base, free: int) -> str | None:
    """The line that stops the run when ``free`` bytes under ``base`` cannot hold the env's peak."""
    if free >= DISK_NEEDED:
        return None
    return (f"tox -e large needs {DISK_NEEDED / GIB:.0f} GiB free under {base}, and there are "
            f"{free / GIB:.1f} GiB: free some, or point pytest elsewhere (--basetemp DIR)")


@pytest.fixture(scope="session", autouse=True)
def disk_for_programs_past_2_gib(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    if stop := shortfall(base, shutil.disk_usage(base).free):
        pytest.exit(stop, returncode=1)
