"""Programs made on one CPU class, loaded as every class this host reaches computes (``ONEDNN_MAX_CPU_ISA``).

OpenVINO 2026.4 stamps each compiled blob with the exporting process's ISA and imports it only where its own stamp
is the same (``workaround/checker/compatibility_stamp.py``): ExecuTorch's ``load_method`` then fails (0x1), stock
and workaround alike. The tracked programs come from two hosts: ``tests/data/*.pte`` from an AVX-512 BF16 one,
``tests/data/avx2-host/*.pte`` from an AVX2 one. Each is held to two things:
- it loads as its own class computes, and gives there what the release table expects of its catalogue case
  (the stale copy, the channels-last read, the freed blob; the workaround's equal to eager), from bytes and by
  path: the class reached by a cap behaves as the host that made the program;
- every other class refuses it: the stamp, asserted present, so an OpenVINO that drops it turns this red
  saying to retire the expectation;
- restamped for another class (``workaround.checker.restamping``, what ``openvino-pte-restamp`` runs), it gives
  there what it gave as its own, from bytes and by path.
"""

import json

import pytest

from repro.harness.cpu.classes import reachable_classes
from tests.support.helpers import (
    DATA,
    skip_module_without_executorch_path,
    skip_unless_this_release_compiled_the_tracked_programs,
    stamp_of,
)
from tests.support.outcomes import UPSTREAM_CHANGED
from workaround.checker import compatibility_stamp, restamping

skip_module_without_executorch_path()
from repro.harness.cases.runs import GATE_LOADS, eager_outputs, load_outcome, tensor_dim_order  # noqa: E402
from repro.harness.models import catalogue  # noqa: E402
from repro.harness.runtime.program_runner import RunStatus  # noqa: E402
from tests.support.release_behaviour import stock_outcome  # noqa: E402

pytestmark = pytest.mark.executorch
# (file, catalogue case, lowering)
PROGRAMS = [(DATA / "stock_upstream_clone_sin.pte", "upstream_clone_sin", "stock"),
            (DATA / "workaround_upstream_clone_sin.pte", "upstream_clone_sin", "workaround"),
            *((DATA / "avx2-host" / f"{case}.{lowering}.pte", case, lowering)
              for case in ("upstream_clone_sin", "conv_channels_last_input")
              for lowering in ("stock", "workaround"))]


def program_id(program):
    return f"{program[0].parent.name}/{program[0].name}"


@pytest.fixture(scope="module", autouse=True)
def same_release():
    skip_unless_this_release_compiled_the_tracked_programs()


@pytest.mark.parametrize("cpu_class", reachable_classes(), ids=str)
@pytest.mark.parametrize("program", PROGRAMS, ids=program_id)
def test_a_program_loads_only_as_the_class_that_made_it_computes(class_runners, program, cpu_class):
    path, _, _ = program
    made_on = stamp_of(path).cpu_class
    loaded = class_runners(cpu_class, "bytes").run(path)
    if made_on == cpu_class:
        assert loaded.status == RunStatus.OK, loaded
    else:
        assert loaded.status != RunStatus.OK, (f"{path.name} (made on {made_on}) loads as {cpu_class}: "
                                               f"{UPSTREAM_CHANGED}")
        assert loaded.detail.endswith("error: 0x:1"), loaded.detail


@pytest.mark.parametrize("load", GATE_LOADS)
@pytest.mark.parametrize("program", PROGRAMS, ids=program_id)
def test_a_program_gives_as_its_own_class_what_the_release_table_expects(class_runners, program, load):
    path, name, lowering = program
    made_on = stamp_of(path).cpu_class
    if made_on not in reachable_classes():
        pytest.skip(f"{path.name} was made on {made_on}, which this host cannot compute as")
    case = catalogue.CASES[name]
    inputs = case.inputs()
    expected = eager_outputs(case, inputs)
    run = class_runners(made_on, load).run(path, inputs)
    found = load_outcome(case, run, inputs, expected, [tensor_dim_order(tensor) for tensor in expected])
    want = stock_outcome(case, load, cpu_class=made_on)[0] if lowering == "stock" else "correct"
    outcomes = {"crashed_or_wrong": {"crashed", "wrong"}}.get(want, {want})
    assert found["outcome"] in outcomes, json.dumps(found, default=str)[:2000]


@pytest.fixture(scope="module")
def restamped_for(tmp_path_factory):
    """(program, cpu_class) -> the program rewritten by ``workaround.checker.restamping`` for the class, once."""
    folder, made = tmp_path_factory.mktemp("restamped"), {}

    def restamped(program, cpu_class):
        path = program[0]
        if (path, cpu_class) not in made:
            rewritten, changes = restamping.restamp(
                path.read_bytes(), lambda stamp: compatibility_stamp.text_for_class(cpu_class, stamp))
            assert [change.new for change in changes] == [
                compatibility_stamp.text_for_class(cpu_class, stamp_of(path))], changes
            made[path, cpu_class] = folder / f"{path.parent.name}.{path.stem}.{cpu_class}.pte"
            made[path, cpu_class].write_bytes(rewritten)
        return made[path, cpu_class]

    return restamped


def other_class_programs():
    for program in PROGRAMS:
        for cpu_class in reachable_classes():
            if cpu_class != stamp_of(program[0]).cpu_class:
                yield pytest.param(program, cpu_class, id=f"{program_id(program)}-{cpu_class}")


@pytest.mark.parametrize("load", GATE_LOADS)
@pytest.mark.parametrize(("program", "cpu_class"), list(other_class_programs()))
def test_a_restamped_program_gives_as_another_class_what_its_own_gave(class_runners, restamped_for, program,
                                                                      cpu_class, load):
    """What the tracked programs' own class gives, another class gives once ``openvino-pte-restamp``'s rewriter
    has stamped them for it: the workaround's equal to eager, the stock ones their release table's bug."""
    _, name, lowering = program
    case = catalogue.CASES[name]
    inputs = case.inputs()
    expected = eager_outputs(case, inputs)
    run = class_runners(cpu_class, load).run(restamped_for(program, cpu_class), inputs)
    found = load_outcome(case, run, inputs, expected, [tensor_dim_order(tensor) for tensor in expected])
    want = stock_outcome(case, load, cpu_class=cpu_class)[0] if lowering == "stock" else "correct"
    outcomes = {"crashed_or_wrong": {"crashed", "wrong"}}.get(want, {want})
    assert found["outcome"] in outcomes, json.dumps(found, default=str)[:2000]
