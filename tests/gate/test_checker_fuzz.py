"""The checker against ExecuTorch's runtime on a property-based sample of the fuzz corpus
(``tests/support/checker_fuzz.py``: every truncation and single-byte flip of the two tracked sample programs; the
whole of it is ``python -m benchmarks.checker_fuzz``, measured in docs/measurements.md). A file the runtime refuses
to load by path is never called clean, and the checker never fails or prints a traceback, whatever the file. The
restamp command's rewriter on the same corpus neither mends nor breaks a program the runtime loads."""

import pytest

from repro.harness.runtime.program_runner import ProgramRunner
from tests.support.checker_fuzz import SAMPLES, CheckerRunner, differ, mutant, mutant_count
from tests.support.helpers import TRACKED_PROGRAMS, skip_module_without_executorch_path, stamp_of

hypothesis = pytest.importorskip("hypothesis")
strategies = pytest.importorskip("hypothesis.strategies")
skip_module_without_executorch_path()


def foreign_programs():
    """The tracked programs stamped for another CPU class than this process's."""
    from repro.harness.cpu.classes import process_class

    return [path for path in TRACKED_PROGRAMS if stamp_of(path).cpu_class != process_class()]


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
    """On the samples lowered here, and on the tracked programs another CPU class made (the AVX2 host's, the
    AVX-512 BF16 host's): the runtime refuses each of those mutants for its stamp, and the checker must say so,
    not clean."""
    sample = data.draw(strategies.sampled_from([*samples_made_here, *foreign_programs()]), label="sample")
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


@hypothesis.settings(max_examples=30, deadline=None,
                     suppress_health_check=[hypothesis.HealthCheck.function_scoped_fixture])
@hypothesis.given(data=strategies.data())
def test_restamping_a_corrupted_program_refuses_it_or_keeps_what_the_runtime_does_with_it(runtime, folder,
                                                                                        samples_made_here, data):
    """``openvino-pte-restamp``'s rewriter on the same corpus, for this host's own stamp: it refuses the file with
    an exception of its own (or the command's import refuses it), or writes one the checker's reader reads, every
    stamp this host's, which the runtime loads and runs exactly when it loads and runs the mutant (the rewrite
    moves bytes: it must not mend or break a program, but for a stamp a flip made foreign, which it is there to
    mend)."""
    from workaround.checker import compatibility_stamp, restamping
    from workaround.checker.pte import reader
    from workaround.checker.pte.verifier import MalformedProgram
    from workaround.checker.restamp_command import Refused, imported_here

    sample = data.draw(strategies.sampled_from(samples_made_here), label="sample")
    corrupted = mutant(sample, data.draw(strategies.integers(0, mutant_count(sample) - 1), label="mutant"))
    here = compatibility_stamp.this_process_text()
    try:
        rewritten, _ = restamping.restamp(corrupted.data, lambda _: here)
        imported_here(rewritten)  # what the command does before it writes anything
    except (MalformedProgram, restamping.CannotRestamp, Refused):
        return
    stamps = [compatibility_stamp.read(delegate.blob) for delegate in reader.delegates(rewritten)]
    assert all(stamp is None or stamp.text == here for stamp in stamps), stamps
    # A flip inside a stamp's text is what the rewriter mends: the program is then the sample's again.
    mended = any(stamp is not None and stamp.text != here for stamp in
                 (compatibility_stamp.read(delegate.blob) for delegate in reader.delegates(corrupted.data)))
    verdicts = []
    for name, program in (("mutant.pte", sample.read_bytes() if mended else corrupted.data),
                          ("restamped.pte", rewritten)):
        (folder / name).write_bytes(program)
        verdicts.append(runtime.run(folder / name).status)
    assert verdicts[0] == verdicts[1], (str(corrupted), verdicts)
