"""repro/releases.py: which OpenVINO and ExecuTorch releases a run asks for, read from what users type and
from the package index (or the built-in list when the index cannot be asked)."""

import os

import pytest

from repro import releases


@pytest.mark.parametrize(("text", "expected"), [
    ("2024.0.0", ["2024.0.0"]), ("2024.0.0, 2026.4", ["2024.0.0", "2026.4"]), ("9999.1", ["9999.1"])])
def test_versions_argument_accepts_releases_and_series(text, expected):
    assert releases.release_list(text) == expected


@pytest.mark.parametrize(("requested", "resolved"), [
    ("2025.4.1", "2025.4.1"), ("2025.4", "2025.4.1"), ("2026.2", "2026.2.1"),
    ("9999.1", None), ("2025.4.7", None)])
def test_series_resolve_to_their_newest_patch_and_unknown_ones_to_nothing(requested, resolved):
    assert releases.resolve(requested, releases.BUILTIN_RELEASES) == resolved


def test_without_an_index_the_builtin_list_is_used_and_said(monkeypatch):
    for name in ("PIP_FIND_LINKS", "PIP_EXTRA_INDEX_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_RETRIES", "0")
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    found, note = releases.discover_releases()
    assert found == releases.BUILTIN_RELEASES
    assert note.startswith("The package index could not be asked")


def test_executorch_versions_are_sorted_releases():
    assert releases.executorch_list("1.5.1, 1.4.1,1.5.1") == ["1.4.1", "1.5.1"]
