"""The checker's blob-lifetime probe (``workaround.checker.blob_lifetime``) answers through a probe child that
hangs once: a probe child was seen to hang for minutes under load (CI, 2026-12-07), so a timeout asks again, once,
before the answer is UNKNOWN. The probe children are real; only the hang is made up."""

import subprocess

import pytest

from tests.support.helpers import PROJECT
from workaround.checker import blob_lifetime
from workaround.checker.compiled_model import importable_here
from workaround.checker.pte.reader import delegates
from workaround.checker.target_cpu import this_host

STOCK_PROGRAM = PROJECT / "tests" / "data" / "stock_upstream_clone_sin.pte"


@pytest.fixture(scope="module")
def blob():
    """The tracked stock program's segment blob, stamped for this host's class (made on another one)."""
    (delegate,) = delegates(STOCK_PROGRAM.read_bytes())
    return importable_here(bytes(delegate.blob), this_host().text)


def hanging(times, calls):
    """``subprocess.run`` whose first ``times`` calls time out, as a hung probe child does; then the real one."""
    real = subprocess.run

    def run(*args, **kwargs):
        calls.append(args)
        if len(calls) <= times:
            raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])
        return real(*args, **kwargs)
    return run


@pytest.mark.parametrize(("hangs", "answered"), [(0, True), (1, True), (blob_lifetime.PROBE_ATTEMPTS, False)],
                         ids=["no_hang", "one_hang", "every_attempt_hangs"])
def test_a_probe_that_hangs_is_asked_again_once_before_it_counts_as_unknown(blob, monkeypatch, hangs, answered):
    expected = blob_lifetime.blob_use(blob)
    assert expected in (blob_lifetime.BlobUse.READS, blob_lifetime.BlobUse.KEEPS_NOTHING)
    calls = []
    monkeypatch.setattr(blob_lifetime.subprocess, "run", hanging(hangs, calls))
    assert blob_lifetime.blob_use(blob) == (expected if answered else blob_lifetime.BlobUse.UNKNOWN)
    assert len(calls) == min(hangs + 1, blob_lifetime.PROBE_ATTEMPTS)
