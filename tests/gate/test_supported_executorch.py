"""The ExecuTorch releases the workaround accepts: the range it is proven on (each release the gate runs
green), the same range in the package's ``[partitioner]`` extra, and one line for anything else, where the
workaround installs its replacements rather than deep in an export."""

import tomllib

import pytest

from repro import releases
from tests.support.helpers import PROJECT
from workaround.partitioner.hooks import supported_executorch as supported


@pytest.mark.parametrize("found", ["1.4.1", "1.5.0", "1.5.1", "1.5.1+cpu"])
def test_the_releases_the_gate_runs_are_accepted(found):
    supported.require(found)


@pytest.mark.parametrize("found", ["1.3.1", "1.4.0", "1.5.2", "1.6.0.dev20260301", "2.0.0"])
def test_a_release_outside_the_range_is_one_line_naming_the_range(found):
    with pytest.raises(supported.UnsupportedExecutorch) as refused:
        supported.require(found)
    assert str(refused.value) == (f"the workaround supports executorch 1.4.1 to 1.5.1 (the releases its gate runs "
                                  f"green); this environment has executorch {found}")


def test_a_missing_entry_point_is_one_line_naming_the_range(monkeypatch):
    monkeypatch.setattr(supported, "installed_release", lambda: "1.5.1")

    class OpenvinoPartitioner:
        pass

    with pytest.raises(supported.UnsupportedExecutorch) as refused:
        supported.entry_point(OpenvinoPartitioner, "partition")
    assert str(refused.value) == ("executorch 1.5.1 has no OpenvinoPartitioner.partition, which the workaround "
                                  "replaces; it supports executorch 1.4.1 to 1.5.1")


def test_the_range_is_the_gates_executorch_axis_and_the_packages_extra():
    gated = [releases.HEADLINE_EXECUTORCH, *releases.EXECUTORCH_FACTORS.values()]
    assert min(gated, key=supported.release) == supported.OLDEST
    assert max(gated, key=supported.release) == supported.NEWEST
    extra = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert f"executorch>={supported.OLDEST},<={supported.NEWEST}" in extra["partitioner"]
    unrunnable = {release for release, _ in releases.EXECUTORCH_UNRUNNABLE.values()}
    for release in unrunnable:
        with pytest.raises(supported.UnsupportedExecutorch):
            supported.require(release)


def test_every_gated_executorch_release_has_its_expected_behaviour():
    from tests.support.release_behaviour import EXECUTORCH_BACKENDS

    assert set(EXECUTORCH_BACKENDS) == {releases.HEADLINE_EXECUTORCH, *releases.EXECUTORCH_FACTORS.values()}
