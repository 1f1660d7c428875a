"""Every catalogue case the workaround corrects, its program made here and restamped as each other CPU class this
host reaches would stamp it (``repro.harness.cpu.restamp``, the rewriter ``openvino-pte-restamp`` runs), loaded
from bytes and by path in a runtime computing as that class: equal to eager, as on the class that exported it.

This is the promise a model owner relies on when exporting on one machine and deploying on another. The gate
(``tox -e ov2026.4``) holds the class-dependent cases on each class with one load each, within its minutes; this
env holds all of them, both loads (``tox -e classes``: docs/gate.md gives its minutes).

And the checker's answer to "does this stock program crash by path?", which depends on the class that imports it
(what the CPU plugin reads in place from the blob is its choice per ISA): every stock case the runtime runs,
checked by ``openvino-pte-check`` computing as each class this host reaches (its own included), flags its blob
exactly where the catalogue measured a constant read in place."""

import json
import os

import pytest

from tests.plugins.candidate_gate import under_test
from tests.support.helpers import other_cpu_classes, run_cli, skip_module_without_executorch_path
from tests.support.outcomes import assert_equals_eager

skip_module_without_executorch_path()
from repro.harness.cases.runs import GATE_LOADS  # noqa: E402
from repro.harness.cpu.classes import reachable_classes  # noqa: E402
from repro.harness.cpu.precision import f32_environment  # noqa: E402
from repro.harness.lowering.named import WORKAROUND_TORCH_SPECIAL_VALUES  # noqa: E402
from repro.harness.models import catalogue  # noqa: E402
from tests.support.workaround_expectations import (  # noqa: E402
    CORRECTED,
    KEEPS_OPENVINO_SPECIAL_VALUES,
    keeps_openvinos_values,
)

pytestmark = pytest.mark.executorch


def or_nowhere_to_travel(params):
    """``params``, or, on a host that reaches no other measured class (an AVX2 host), one test skipped saying so:
    the env then did its job, and exits 0 as the README's test command needs (a module-level skip would leave
    pytest nothing collected, exit 5, and CI red on every AVX2 host)."""
    from repro.harness.cpu.classes import process_class

    return params or [pytest.param(None, None, None, id="no-other-class", marks=pytest.mark.skip(
        reason=f"this host computes as {process_class()} and reaches no other measured class: nothing to restamp "
               "for here; the gate holds its own class, and a host of a higher class runs this env"))]


@pytest.mark.under_test
@pytest.mark.parametrize(("case", "cpu_class", "load"), or_nowhere_to_travel([
    pytest.param(name, cpu_class, load, marks=keeps_openvinos_values(name, cpu_class),
                 id=f"{name}-{cpu_class}-{load}")
    for name in CORRECTED for cpu_class in other_cpu_classes() for load in GATE_LOADS]))
def test_workaround_program_restamped_for_another_class_equals_eager_there(lowered_case, as_class, case,
                                                                          cpu_class, load):
    lowering = under_test()
    assert_equals_eager(as_class(catalogue.CASES[case], lowering, lowered_case(case, lowering), cpu_class, load))


@pytest.mark.parametrize(("case", "cpu_class", "load"), or_nowhere_to_travel([
    pytest.param(name, cpu_class, load, id=f"{name}-{cpu_class}-{load}")
    for name in sorted(KEEPS_OPENVINO_SPECIAL_VALUES) for cpu_class in other_cpu_classes()
    for load in GATE_LOADS]))
def test_torch_special_values_program_restamped_for_another_class_equals_eager_there(lowered_case, as_class, case,
                                                                                    cpu_class, load):
    """The cases the default leaves to OpenVINO's special values, lowered with ``special_values="torch"``: its
    rewrites (``workaround.partitioner.exact_rewrites``) and hand-backs hold on every class."""
    lowering = WORKAROUND_TORCH_SPECIAL_VALUES
    assert_equals_eager(as_class(catalogue.CASES[case], lowering, lowered_case(case, lowering), cpu_class, load))


# Every case the stock partitioner lowers and the runtime runs (one failing at run time shows no by-path crash).
RUN_BY_STOCK = [case.name for case in catalogue.CATALOGUE if case.stock.runs]


@pytest.mark.parametrize(("case", "cpu_class"), [pytest.param(name, cpu_class, id=f"{name}-{cpu_class}")
                                                 for name in RUN_BY_STOCK for cpu_class in reachable_classes()])
def test_the_checker_flags_a_stock_blob_in_a_segment_exactly_where_its_model_reads_it_as_each_class_computes(
        lowered_case, case, cpu_class):
    record = lowered_case(case)
    checked = run_cli("python", "-m", "workaround.check", record["pte"], "--json",
                      env={**os.environ, **f32_environment(cpu_class)})
    assert checked.returncode in (0, 1), checked.stderr[-2000:]
    uses = [freed["use"] for freed in json.loads(checked.stdout)["freed_blobs"]]
    reads = catalogue.CASES[case].stock.reads_constant_in_place
    assert uses == ["reads" if reads else "keeps_nothing"], (
        f"as {cpu_class} computes, the checker says {uses}; the catalogue measured its delegate "
        f"{'reading' if reads else 'not reading'} a constant in place by path")
