"""What the test modules share: whether the ExecuTorch path can run here, one way to run a command as a
user does, one way to make an ad-hoc case, and one way to lower a model, save its ``.pte`` and run it in
the real runtime.

(Records of catalogue cases come from ``repro.harness.cases.runs.run_case`` through the ``lowered_case``
fixture; comparing a record with eager is ``tests.support.outcomes.assert_equals_eager``.)
"""

import functools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repro.releases import EXECUTORCH_LOWERS_FROM
from tests.support.release_behaviour import installed_openvino

PROJECT = Path(__file__).resolve().parents[2]
REPRO = PROJECT / "repro"
ATTACHMENTS = REPRO / "attachments"
# The tests that hold each catalogue case's program to eager (marked ``equals_eager``): what a child pytest runs
# to gate a candidate on chosen cases (``--case``).
END_TO_END = PROJECT / "tests" / "gate" / "test_workaround_end_to_end.py"
DATA = PROJECT / "tests" / "data"
# What torch, torchao, tokenizers and the runtime print on import, none of it about the bugs: the project's CLIs
# hide it unless -v.
THIRD_PARTY_NOISE = re.compile(r"Warning|torchao|_pytree|tokenizers|cpuinfo|Failed to load|Op not supported")
# Programs exported on two hosts and tracked: an AVX-512 BF16 one's, and the AVX2 one's (tests/data/avx2-host).
TRACKED_PROGRAMS = (DATA / "stock_upstream_clone_sin.pte", DATA / "workaround_upstream_clone_sin.pte",
                    *sorted((DATA / "avx2-host").glob("*.pte")))


def stamp_of(path):
    """The compatibility stamp of a tracked program's one OpenVINO blob (each has one)."""
    from workaround.checker import compatibility_stamp
    from workaround.checker.pte import reader

    [delegate] = reader.delegates(Path(path).read_bytes())
    stamp = compatibility_stamp.read(delegate.blob)
    assert stamp is not None, f"{Path(path).name}: its blob has no compatibility header"
    return stamp


def skip_unless_this_release_compiled_the_tracked_programs():
    """Skips, saying why, where the installed OpenVINO is not the release whose blobs the tracked programs hold
    (no other imports them)."""
    from importlib.metadata import version

    release = stamp_of(TRACKED_PROGRAMS[0]).release
    if release != version("openvino"):
        pytest.skip(f"the tracked programs' blobs were compiled by OpenVINO {release}, which alone imports them")


@functools.cache
def executorch_path_problem():
    """Why the ExecuTorch path cannot run here, measured by lowering the upstream example, or None."""
    try:
        from repro.harness.lowering import to_edge
        from repro.harness.lowering.named import STOCK
        from repro.harness.models import catalogue
        from repro.harness.runtime.available import check_runtime
    except ImportError as error:
        if os.environ.get("EXECUTORCH_UNAVAILABLE"):
            return os.environ["EXECUTORCH_UNAVAILABLE"]
        raise RuntimeError(f"the ExecuTorch stack is not importable ({error}), yet this environment is meant to "
                           "have it; where it cannot be installed, say why in EXECUTORCH_UNAVAILABLE (tox.ini "
                           "does for the OpenVINO releases that need numpy<2)") from error
    check_runtime()
    try:
        to_edge.lower(catalogue.CASES["upstream_clone_sin"], STOCK)
    except Exception as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = next((line for line in lines if "No conversion rule" in line), lines[0] if lines else repr(error))
        return f"OpenVINO {installed_openvino()} cannot lower ExecuTorch's edge ops: {reason}"
    return None


def skip_module_without_executorch_path():
    """Skip a test module where the ExecuTorch path cannot run, saying what is missing (as measured).
    A missing stack is an error unless the environment declares it unavailable (EXECUTORCH_UNAVAILABLE).
    Where the path is known to work, a failure to lower is an error, not a skip; where it is known not
    to, a successful lowering is an error too: either way the release table needs updating."""
    problem, release = executorch_path_problem(), installed_openvino()
    lowering_failed = problem is not None and problem.startswith("OpenVINO")
    if release >= EXECUTORCH_LOWERS_FROM and lowering_failed:
        raise RuntimeError(f"{problem} -- but {EXECUTORCH_LOWERS_FROM} and newer used to lower it")
    if release < EXECUTORCH_LOWERS_FROM and problem is None:
        raise RuntimeError(f"OpenVINO {release} now lowers ExecuTorch programs: lower EXECUTORCH_LOWERS_FROM "
                           "in repro/releases.py and add this release's expectations")
    if problem:
        pytest.skip(problem, allow_module_level=True)


def run_cli(*command, env=None, cwd=PROJECT, timeout=600):
    """Run ``command`` in a child process as a user would ("python" is this interpreter), from the project
    folder unless told otherwise; the CompletedProcess with text output, whatever the exit code."""
    argv = [sys.executable if part == "python" else str(part) for part in command]
    return subprocess.run(argv, capture_output=True, text=True, check=False, cwd=cwd, env=env, timeout=timeout)


def cli_run_once(once_per_run, key, *command, before=lambda: None, **options):
    """``run_cli(*command, **options)``, after ``before()``, made once per test run whichever xdist worker asks
    first (the ``once_per_run`` fixture), for a run several tests read: tests of one module land on either
    worker."""
    def make():
        before()
        return vars(run_cli(*command, **options))

    made = once_per_run(key, make)
    return subprocess.CompletedProcess(made["args"], made["returncode"], made["stdout"], made["stderr"])


def package_source(folder):
    """What ``pip install <this repo>`` builds from, copied into ``folder/source`` so that the build leaves
    nothing in the checkout; returns that folder."""
    source = Path(folder) / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(PROJECT / name, source / name)
    shutil.copytree(PROJECT / "workaround", source / "workaround", ignore=shutil.ignore_patterns("__pycache__"))
    return source


def ad_hoc_case(function, inputs, name="ad_hoc", **options):
    """A catalogue ``Case`` for a model a test builds itself, fed fresh copies of ``inputs`` each time."""
    from repro.harness.models.catalogue import Case

    return Case(name, name, function, lambda: tuple(t.clone() for t in inputs), **options)


def tagged(function, inputs, partitioner_class=None, skip_dim_order=False, dynamic_shapes=None, **options):
    """(edge program after partitioning, partition tags): to_edge, then only the tagging of the partitioner
    (``CopySafeOpenvinoPartitioner`` by default, given ``options``), without compiling anything."""
    import torch
    from executorch.exir import to_edge
    from executorch.exir.backend.backend_details import CompileSpec

    from repro.harness.lowering.to_edge import compile_config
    from workaround import CopySafeOpenvinoPartitioner

    case = ad_hoc_case(function, inputs, "graph", skip_dim_order=skip_dim_order)
    exported = torch.export.export(case.module(), inputs, dynamic_shapes=dynamic_shapes and dynamic_shapes())
    program = to_edge(exported, compile_config=compile_config(case)).exported_program()
    result = (partitioner_class or CopySafeOpenvinoPartitioner)([CompileSpec("device", b"CPU")],
                                                                 **options).partition(program)
    return program, result.partition_tags


def lower_save_run(case, lowering, runner, folder, serialize=None):
    """(program manager, run): ``case`` lowered as ``lowering`` says, serialized (``serialize(edge)``, by default
    ``edge.to_executorch()``), written to ``folder`` and run once by ``runner`` (a ``ProgramRunner``)."""
    from repro.harness.lowering.to_edge import lower

    edge = lower(case, lowering)
    program = serialize(edge) if serialize else edge.to_executorch()
    path = Path(folder) / f"{case.name}.{lowering.name}.{len(list(Path(folder).iterdir()))}.pte"
    path.write_bytes(program.buffer)
    return program, runner.run(path, case.inputs())


def table_line(markdown, release):
    """The line of a report's release table whose first cell ("2024.3.0" or "2024.3.0 to 2025.2.0 (7)")
    covers ``release``, or None."""
    from packaging.version import Version

    for line in markdown.splitlines():
        first = line.split(" | ")[0].lstrip("| ").strip()
        bounds = first.split(" (")[0].split(" to ")
        if line.startswith("| 20") and Version(bounds[0]) <= Version(release) <= Version(bounds[-1]):
            return line
    return None


def other_cpu_classes():
    """The CPU classes this host reaches besides the one it computes as, where the installed release was measured
    by class (its conformance sweep is recorded per class): the gate runs its class-dependent tests again as each
    of them computes (``as_class`` in tests/conftest.py)."""
    from importlib.metadata import version

    from repro.harness.conformance.record import recorded_classes
    from repro.harness.cpu.classes import process_class, reachable_classes

    measured = set(recorded_classes(version("openvino"))) - {process_class()}
    return [cpu_class for cpu_class in reachable_classes() if cpu_class in measured]


def cpu_default_is_bf16():
    """Whether OpenVINO's CPU plugin defaults to bf16 in this process, without the gate's f32 cap: it does where
    its kernels are of the AVX-512 BF16 class (AVX-512 BF16 or AMX in the flags the kernel reports, and no oneDNN
    cap below them: an oracle independent of OpenVINO; ``repro.harness.cpu.classes``)."""
    from repro.harness.cpu.classes import CpuClass, process_class

    return process_class() == CpuClass.AVX512_BF16


def assert_calls_equal(runners, path, calls, expected, *, tolerance, same_strides=True):
    """Each load of the program at ``path``, given ``calls`` in one loaded method, returns each call's
    ``expected`` outputs (one list a call): as many, of their dtype and shape, in their strides (or contiguous,
    where eager's strides are no dim order ExecuTorch has), within ``tolerance``, NaN where eager has NaN."""
    import torch

    for load, runner in runners.items():
        run = runner.run_calls(path, calls)
        assert run.outputs is not None, f"{load}: {run.status} {run.detail}"
        for step, (outputs, wanted) in enumerate(zip(run.outputs, expected, strict=True)):
            where = f"{load}, call {step}"
            assert len(outputs) == len(wanted), where
            for got, want in zip(outputs, wanted, strict=True):
                assert (got.dtype, got.shape) == (want.dtype, want.shape), where
                assert got.stride() == want.stride() if same_strides else got.is_contiguous(), where
                torch.testing.assert_close(got, want, rtol=tolerance, atol=tolerance, equal_nan=True,
                                           msg=f"{where}: {got} against {want}")
