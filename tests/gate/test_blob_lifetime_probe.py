"""The checker's blob-lifetime probe (``workaround.checker.blob_lifetime``) answers whatever its child leaves
behind, and asks again once when a child does not answer in time.

CI, 2026-12-07: two probes "hung" for 300 s. ``import openvino`` sends telemetry from a thread that forks a
process; forked while the probe read its stdin, that grandchild deadlocked, and holding the probe's stdout pipe it
kept the checker waiting for an end of file after the probe itself had crashed, as probes do. The probe's output
now goes to a file and its process group is killed when it is done."""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.helpers import PROJECT
from workaround.checker import blob_lifetime
from workaround.checker.compiled_model import importable_here
from workaround.checker.pte.reader import delegates
from workaround.checker.target_cpu import this_host

STOCK_PROGRAM = PROJECT / "tests" / "data" / "stock_upstream_clone_sin.pte"
# A probe that does what a crashing probe with a stuck telemetry grandchild does: a process that inherits its
# output and never ends, then its line and a fault.
LEAVES_A_GRANDCHILD = """
import os, signal, subprocess, sys
sys.stdin.buffer.read()
grandchild = subprocess.Popen(["sleep", "600"])
print(grandchild.pid, flush=True)
print("{protected}", flush=True)
os.kill(os.getpid(), signal.SIGSEGV)
"""


@pytest.fixture(scope="module")
def blob():
    """The tracked stock program's segment blob, stamped for this host's class (made on another one)."""
    (delegate,) = delegates(STOCK_PROGRAM.read_bytes())
    return importable_here(bytes(delegate.blob), this_host().text)


def test_a_probe_that_crashes_leaving_a_process_behind_is_answered_at_once_and_the_process_ended(
        tmp_path, monkeypatch):
    probe = tmp_path / "probe.py"
    probe.write_text(LEAVES_A_GRANDCHILD.format(protected=blob_lifetime.PROTECTED))
    monkeypatch.setattr(blob_lifetime, "__file__", str(probe))
    started = time.monotonic()
    returncode, printed = blob_lifetime.ask(b"blob")
    assert time.monotonic() - started < 30, "waited on the grandchild's copy of the output"
    assert returncode == -11, printed
    assert printed.split()[-1] == blob_lifetime.PROTECTED, printed
    time.sleep(0.2)
    assert not alive(int(printed.split()[0])), "the grandchild outlived the probe"


def alive(pid):
    """Whether the process runs (a zombie waiting to be reaped does not)."""
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.parametrize(("silent", "answered"), [(0, True), (1, True), (blob_lifetime.PROBE_ATTEMPTS, False)],
                         ids=["answers", "silent_once", "silent_every_time"])
def test_a_probe_that_does_not_answer_in_time_is_asked_again_once(blob, monkeypatch, silent, answered):
    """The real probe, through made-up timeouts."""
    expected = blob_lifetime.blob_use(blob)
    assert expected in (blob_lifetime.BlobUse.READS, blob_lifetime.BlobUse.KEEPS_NOTHING)
    calls, real = [], blob_lifetime.ask

    def ask(given):
        calls.append(given)
        return None if len(calls) <= silent else real(given)
    monkeypatch.setattr(blob_lifetime, "ask", ask)
    assert blob_lifetime.blob_use(blob) == (expected if answered else blob_lifetime.BlobUse.UNKNOWN)
    assert len(calls) == min(silent + 1, blob_lifetime.PROBE_ATTEMPTS)


def test_the_probe_run_by_hand_still_prints_what_it_did(blob):
    """``python blob_lifetime.py SIZE < BLOB`` as the module docstring says."""
    done = subprocess.run([sys.executable, blob_lifetime.__file__, str(len(blob))], input=blob,
                          capture_output=True, check=False, timeout=120)
    assert done.stdout.decode().split()[0] == blob_lifetime.PROTECTED, done
