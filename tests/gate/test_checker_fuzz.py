"""The checker against ExecuTorch's runtime on a property-based sample of the fuzz corpus
(``tests/checker_fuzz.py``: every truncation and single-byte flip of the two tracked sample programs; the whole of
it is ``python -m benchmarks.checker_fuzz``, measured in docs/measurements.md). A file the runtime refuses to load
by path is never called clean, and the checker never fails or prints a traceback, whatever the file."""

import pytest

from repro.harness.program_runner import ProgramRunner
from tests.checker_fuzz import SAMPLES, CheckerRunner, differ, mutant, mutant_count
from tests.helpers import skip_module_without_executorch_path

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")
skip_module_without_executorch_path()


@pytest.fixture(scope="module")
def runtime():
    with ProgramRunner("path", timeout=60) as runner:
        yield runner


@pytest.fixture(scope="module")
def checker():
    with CheckerRunner() as runner:
        yield runner


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


@hypothesis.settings(max_examples=40, deadline=None,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@hypothesis.given(data=strategies.data())
def test_a_file_the_runtime_refuses_is_never_clean_and_the_checker_never_fails(runtime, checker, folder,
                                                                                 samples_made_here, data):
    """On the samples lowered here: the tracked ones' blobs open only on the CPU class that made them, and on any
    other the runtime refuses every mutant alike, which would leave nothing to compare."""
    sample = data.draw(strategies.sampled_from(samples_made_here), label="sample")
    number = data.draw(strategies.integers(0, mutant_count(sample) - 1), label="mutant")
    disagreements, _ = differ([mutant(sample, number)], runtime, checker, folder)
    assert disagreements == []


def test_the_corpus_is_every_truncation_and_every_flip():
    sample = SAMPLES[0]
    size = sample.stat().st_size
    assert mutant_count(sample) == 2 * size
    assert [len(mutant(sample, number).data) for number in (0, size - 1)] == [0, size - 1]
    flip = mutant(sample, size + 7)
    assert (len(flip.data), flip.change) == (size, "byte 7 ^ 0xff")
    assert [at for at, (a, b) in enumerate(zip(flip.data, sample.read_bytes(), strict=True)) if a != b] == [7]
