import importlib.util
import json
import os

import pytest

from repro.harness.cpu.precision import F32_ISA_CAP
from tests.support.outcomes import UPSTREAM_CHANGED, assert_equals_eager
from tests.tools import gate_runs

# The gate judges at f32 on every CPU (repro/harness/cpu/precision.py): set before any test imports OpenVINO,
# and inherited by every child process; the bf16 leg (tests/gate/test_default_precision.py) takes it away.
for _variable, _value in F32_ISA_CAP.items():
    os.environ.setdefault(_variable, _value)

pytest_plugins = ["tests.plugins.candidate_gate", "tests.plugins.executorch_source", "tests.plugins.op_test_runs",
                  "pytester"]


def pytest_configure(config):
    """Each process that tests lowers with one materialization of torch's CIA registry per collection
    (``repro/harness/lowering/cia_collection.py``: the same lowerings, a third less time); envs without torch lower
    nothing."""
    if importlib.util.find_spec("torch"):
        from repro.harness.lowering.cia_collection import materialize_once_per_collection

        materialize_once_per_collection()


def pytest_sessionstart(session):
    if not hasattr(session.config, "workerinput"):  # the run as a whole, not one of its xdist workers
        gate_runs.started()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """The run's summary for the figures the docs quote (``tests/tools/gate_runs.py``), when tox runs it."""
    from repro.harness.cpu.classes import process_class

    if hasattr(config, "workerinput"):
        return
    if written := gate_runs.write(terminalreporter.stats, process_class()):
        terminalreporter.write_line(f"summary of this run: {written.relative_to(gate_runs.PROJECT)}")


def pytest_report_header(config):
    """The CPU class this run computes as, first in its log: a red run says where it ran."""
    from repro.harness.cpu.classes import host_flags, process_class, reachable_classes

    shown = sorted(flag for flag in host_flags() if flag.startswith(("avx2", "avx512", "amx")))
    return (f"CPU class: {process_class()} (flags: {' '.join(shown) or 'none read'}; reaches "
            f"{', '.join(reachable_classes())})")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A strict expected failure that passed says what that means (upstream changed: retire this); the
    expected failures themselves say only what they expect, so a green run prints no alarm."""
    report = (yield).get_result()
    if report.when == "call" and report.failed and str(report.longrepr).startswith("[XPASS(strict)]"):
        report.longrepr = f"{report.longrepr}. {UPSTREAM_CHANGED}"


# Tests that take 20 s or more each, longest first (measured in a fresh clone's upstream run: the real matrix
# 206 s, the peer suite's op-test runs 80 s, the LLM pipeline reproducer 54 s, ... down to 20 s; the gate's
# peer suite and property-based gates). xdist hands tests out in collection order, so these go first; tox.ini's
# --maxschedchunk 1 hands them out one at a time (by default the first worker gets the whole first chunk, every
# one of these: measured, it ran 282 s after the other had finished, 609 s in all).
# Of the tests that share a run made once (the op tests' ways, the main job), only the one that asks for every
# way: the others, handed out beside it, would wait on its lock with a core idle.
LONG_RUNNING = ("tests/upstream/test_matrix_runs.py::test_real_matrix",
                "tests/upstream/test_peer_suite_with_our_patches.py::test_upstream_patches_keep_every_stock",
                "tests/gate/test_peer_suite.py", "tests/gate/test_workaround_fuzz.py",
                "tests/gate/test_semantics_fuzz.py",
                "tests/upstream/test_executorch_attachments.py::test_llm_pipeline_reproducer",
                "tests/upstream/test_executorch_patches.py::test_the_4wo_layers_reproducer",
                "tests/upstream/test_executorch_attachments.py::test_minimal_cpu_stamp_reproducer",
                "tests/upstream/test_executorch_patches.py::test_upstream_partitioner_and_preprocess",
                "tests/upstream/test_executorch_attachments.py::test_minimal_executorch_reproducer",
                "tests/upstream/test_executorch_patches.py::test_the_llm_pipelines_defaults",
                "tests/upstream/test_main_job.py::test_it_succeeds",
                "tests/upstream/test_executorch_attachments.py::test_minimal_stale_copies_reproducer",
                "tests/upstream/test_executorch_attachments.py::test_portable_kernels_reproducer")


def running_time_rank(item: pytest.Item) -> int:
    """Where ``item`` stands in ``LONG_RUNNING`` (the rest after, in their collection order)."""
    return next((rank for rank, prefix in enumerate(LONG_RUNNING) if item.nodeid.startswith(prefix)),
                len(LONG_RUNNING))


def pytest_collection_modifyitems(items):
    items.sort(key=running_time_rank)  # stable: the rest keep their order


@pytest.fixture
def recorded_matrix():
    """The recorded release matrix (``tests/support/recorded_matrix.py``) as ``repro/matrix.py`` gives it to
    reports."""
    from tests.support.recorded_matrix import matrix_of, recorded_rows

    return matrix_of(recorded_rows())


@pytest.fixture(scope="session")
def pte_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("pte")


@pytest.fixture(scope="session")
def runners():
    """{load: ProgramRunner}: the real runtime in child processes, loading from bytes and by path."""
    from repro.harness.cases.runs import GATE_LOADS
    from repro.harness.runtime.available import check_runtime
    from repro.harness.runtime.program_runner import ProgramRunner

    check_runtime()
    started = {load: ProgramRunner(load) for load in GATE_LOADS}
    yield started
    for runner in started.values():
        runner.close()


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory, worker_id):
    """A folder every xdist worker of this run sees (the workers' temporary folders share a parent)."""
    return tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent


@pytest.fixture(scope="session")
def once_per_run(shared_dir):
    """once(key, make) -> make()'s JSON-ready result, made once per gate run whichever xdist worker asks first (a
    file lock per key; the others read it back), since tests of one record land on either worker (measured: 111
    of 299 lowered records were made twice before)."""
    from filelock import FileLock

    folder = shared_dir / "made-once"
    folder.mkdir(exist_ok=True)
    read = {}

    def once(key, make):
        if key not in read:
            stored = folder / f"{key.replace('/', '_')}.json"
            with FileLock(f"{stored}.lock"):
                if not stored.exists():
                    stored.write_text(json.dumps(make()))
                read[key] = json.loads(stored.read_text())  # the same JSON-ready record on every worker
        return read[key]

    return once


@pytest.fixture(scope="session")
def lowered_case(pte_dir, runners, once_per_run):
    """record(case name, lowering) -> the catalogue case lowered (a ``Lowering``, or the name of one; the stock
    partitioner by default), saved as .pte, run in the real runtime from bytes and by path, and replayed; made
    once per gate run (``once_per_run``)."""
    from repro.harness.cases.runs import run_case
    from repro.harness.lowering.named import as_lowering
    from repro.harness.models.catalogue import CASES

    def record(case, lowering="stock"):
        lowering = as_lowering(lowering)
        return once_per_run(f"{case}.{lowering.name}",
                            lambda: run_case(CASES[case], lowering, runners, pte_dir, with_replay=True))

    return record


@pytest.fixture(scope="session")
def samples_made_here(lowering_works, lowered_case):
    """(stock, workaround): the tracked sample programs' model (the upstream example, ``upstream_clone_sin``)
    lowered on this host in this run. OpenVINO 2026.4 stamps each blob with the exporting CPU's class and imports
    it on no other, so a test that needs a sample's blob to open takes these, not ``tests/data``'s (made on one
    host)."""
    from pathlib import Path

    return tuple(Path(lowered_case("upstream_clone_sin", lowering)["pte"])
                 for lowering in ("stock", "workaround"))


@pytest.fixture(scope="session")
def lowering_works():
    """Skips a test where this env cannot lower programs (the older releases' envs), saying why."""
    from tests.support.helpers import executorch_path_problem

    if problem := executorch_path_problem():
        pytest.skip(problem)


@pytest.fixture(scope="session")
def class_runners():
    """runner(cpu_class, load) -> a ProgramRunner computing as ``cpu_class`` at f32 (its kernels capped with
    oneDNN's ISA cap: ``repro.harness.cpu.precision.f32_environment``), started on first use, one per class and
    load."""
    from repro.harness.cpu.precision import f32_environment
    from repro.harness.runtime.program_runner import ProgramRunner

    started = {}

    def runner(cpu_class, load):
        if (cpu_class, load) not in started:
            started[cpu_class, load] = ProgramRunner(load, environment=f32_environment(cpu_class))
        return started[cpu_class, load]

    yield runner
    for each in started.values():
        each.close()


@pytest.fixture(scope="session")
def as_class(class_runners):
    """as_class(case, lowering, record, cpu_class, load="bytes") -> the record ``cpu_class`` gives for the same
    program: re-stamped for it and run (from bytes, or by path) in a child computing as it, at f32
    (``repro.harness.cases.runs.run_as``). The lowering is shared: what a class exports differs only in the
    stamp."""
    from repro.harness.cases.runs import run_as
    from repro.harness.cpu.precision import f32_environment
    from repro.harness.cpu.restamp import text_for
    from repro.harness.lowering.named import as_lowering

    def run(case, lowering, record, cpu_class, load="bytes"):
        return run_as(case, as_lowering(lowering), record, cpu_class=cpu_class,
                      runner=class_runners(cpu_class, load), text=text_for(f32_environment(cpu_class)))

    return run


@pytest.fixture(scope="session")
def lowered_as(pte_dir, runners, once_per_run, as_class):
    """record(key, case, lowering, cpu_class) -> ``case`` (any ``Case``; ``key`` names it in this run) lowered
    once per run as this process's class computes and run from bytes at f32, or, for another class, that program
    rerun as the class computes (``as_class``)."""
    from repro.harness.cases.runs import run_case
    from repro.harness.cpu.classes import process_class
    from repro.harness.lowering.named import as_lowering

    def record(key, case, lowering, cpu_class):
        lowering = as_lowering(lowering)
        native = once_per_run(f"{key}.{lowering.name}",
                              lambda: run_case(case, lowering, {"bytes": runners["bytes"]}, pte_dir))
        return native if cpu_class == process_class() else as_class(case, lowering, native, cpu_class)

    return record


@pytest.fixture(scope="session")
def execute_layer_test(pte_dir, runners):
    """Like ExecuTorch's BaseOpenvinoOpTest.execute_layer_test, for any function and inputs:
    lower (optionally with a compile_config), run in the real runtime, assert equal to eager
    (copies exactly, the rest within ``atol``), the delegate count, and a clean post-lowering check."""
    from repro.harness.cases.runs import run_case
    from repro.harness.lowering.named import as_lowering
    from repro.harness.models.catalogue import COMPUTE_ATOL
    from tests.plugins.candidate_gate import under_test
    from tests.support.helpers import ad_hoc_case
    from workaround import check_program

    def run(function, inputs, *, partitioner=None, compile_config=None, exact_outputs=(),
            atol=COMPUTE_ATOL, expected_delegates=None, name="layer_test"):
        case = ad_hoc_case(function, inputs, name, exact_outputs=exact_outputs, atol=atol)
        lowering = as_lowering(partitioner or under_test())
        record = run_case(case, lowering, runners, pte_dir, config=compile_config)
        assert_equals_eager(record)
        if expected_delegates is not None:
            assert record["delegates"] == expected_delegates, record
        assert check_program(record["pte"]) == []
        return record

    return run
