"""The checker on programs someone already shipped: ``tests/data/stock_upstream_clone_sin.pte`` (the upstream
example lowered with the stock partitioner, executorch 1.5.1, OpenVINO 2026.4.1 on an AVX-512 BF16 CPU) and
``workaround_upstream_clone_sin.pte`` (the same with the workaround), checked in every tox env with torch and
ExecuTorch made unimportable, as a model owner runs it.

A compiled OpenVINO blob opens only with the release, and from 2026.4 the CPU class, that compiled it. Where this
env can lower programs, the same two programs are made here (``samples_made_here``), so their blobs open whatever
host the tracked files came from; elsewhere (the older releases' envs) the tracked files are checked, and whether
the pass-through output can be seen depends on the release. So does whether the stock blob, in a segment ExecuTorch
frees after import, is read after import: where it opens, OpenVINO is asked and says no (the model holds no
constant); where it does not, the segment, read from the program's own metadata, is reported. Which case applies
is asked of OpenVINO directly.
"""

import json

import pytest

from tests.support.helpers import PROJECT, run_cli

SHIPPED = PROJECT / "tests" / "data" / "stock_upstream_clone_sin.pte"
FIXED = PROJECT / "tests" / "data" / "workaround_upstream_clone_sin.pte"  # the same, with the workaround
# Any import of torch or executorch fails in the child: the checker must not need them.
WITHOUT_TORCH = ("import sys\n"
                 "sys.modules['torch'] = sys.modules['executorch'] = None\n"
                 "from workaround.check import main\n"
                 "sys.exit(main(sys.argv[1:]))\n")


def this_openvino_opens_the_blob(pte=SHIPPED):
    import openvino as ov

    from workaround.checker.pte import reader

    [delegate] = reader.delegates(pte.read_bytes())
    try:
        ov.Core().import_model(delegate.blob, "CPU")
    except RuntimeError:
        return False
    return True


@pytest.fixture(scope="module")
def samples(request):
    """(stock, workaround): made here where this env lowers programs, else the tracked ones."""
    from tests.support.helpers import executorch_path_problem

    return (SHIPPED, FIXED) if executorch_path_problem() else request.getfixturevalue("samples_made_here")


@pytest.fixture(scope="module")
def checked(samples):
    return run_cli("python", "-c", WITHOUT_TORCH, samples[0], "--json", timeout=300)


def test_a_shipped_stock_program_is_affected_with_or_without_opening_its_blob(checked, samples):
    assert checked.returncode == 1, checked.stderr[-2000:]
    report = json.loads(checked.stdout)
    kinds = sorted(finding["kind"] for finding in report["findings"])
    if this_openvino_opens_the_blob(samples[0]):
        assert kinds == ["pass_through_output"], "its blob in a segment keeps no constant to read after import"
        assert report["freed_blobs"] == [{"delegate": 0, "use": "keeps_nothing"}]
        assert report["not_opened"] == []
    else:
        assert kinds == ["delegate_blob_in_segment"], "the segment is read from the program's metadata"
        [reason] = report["not_opened"]
        assert "cannot open delegate 0's compiled model" in reason
        assert "checked what the program's own metadata shows only" in reason


def test_the_text_report_says_what_it_could_not_open(samples):
    stock = samples[0]
    result = run_cli("python", "-c", WITHOUT_TORCH, stock, timeout=300)
    assert result.returncode == 1, result.stderr[-2000:]
    assert result.stdout.splitlines()[-1].startswith(f"{stock}: 1 OpenVINO delegate(s), AFFECTED: ")
    assert ("cannot open delegate 0's compiled model" in result.stdout) != this_openvino_opens_the_blob(stock)


def test_the_workarounds_program_is_clean_where_its_blob_opens_and_not_checked_elsewhere(samples):
    """Blob inline, no pass-through: clean (exit 0) where this OpenVINO opens the blob; where it cannot, the
    metadata shows nothing and the verdict is NOT CHECKED (exit 2), never 'clean'."""
    fixed = samples[1]
    result = run_cli("python", "-c", WITHOUT_TORCH, fixed, timeout=300)
    if this_openvino_opens_the_blob(fixed):
        assert result.returncode == 0, result.stdout + result.stderr[-2000:]
        assert result.stdout.splitlines()[-1] == f"{fixed}: 1 OpenVINO delegate(s), clean"
    else:
        assert result.returncode == 2, result.stdout + result.stderr[-2000:]
        assert result.stdout.splitlines()[-1] == f"{fixed}: 1 OpenVINO delegate(s), NOT CHECKED"


def test_a_blob_no_openvino_can_open_is_not_checked_rather_than_clean(tmp_path):
    from workaround.checker.pte import reader

    data = FIXED.read_bytes()
    [delegate] = reader.delegates(data)
    start = data.index(delegate.blob)
    garbled = tmp_path / "garbled.pte"
    garbled.write_bytes(data[:start] + bytes(len(delegate.blob)) + data[start + len(delegate.blob):])
    result = run_cli("python", "-c", WITHOUT_TORCH, garbled, "--json", timeout=300)
    assert result.returncode == 2, result.stdout + result.stderr[-2000:]
    report = json.loads(result.stdout)
    assert report["findings"] == []
    [reason] = report["not_opened"]
    assert "cannot open delegate 0's compiled model" in reason
