"""The registry of differences (``workaround.contract.differences``) held to what it names: each op is one torch
has, each catalogue case exists and the stock partitioner gets it wrong, each rule is one the partitioner runs and
each rule it runs is in the registry, each rewrite is a pass, each entry either has the checker's finding or says
why a blob cannot show it."""

import ast
import re

import pytest

from repro.harness.cases.outcomes import Outcome
from repro.harness.models.catalogue import CASES
from tests.support.helpers import PROJECT
from workaround.contract.differences import DIFFERENCES, Owner, Rule, finding_kinds, named
from workaround.contract.finding_kinds import FindingKind
from workaround.partitioner import exact_rewrites
from workaround.partitioner.rules.openvino_hand_back import NODE_RULES, torch_op

# The rules that need more than one node, by owner: the float16 rule reads the partitions, ExecuTorch's the
# kernels of the runtime handed back to (``rules.portable_hand_back``).
OTHER_RULES = {Owner.OPENVINO: {Rule.FLOAT16_ROUNDING_DROPPED, None},
               Owner.EXECUTORCH: {Rule.INTEGER_RULE_DIFFERS, Rule.DTYPE_RULE_DIFFERS, Rule.KERNEL_DIFFERS}}
ENTRIES = [pytest.param(difference, id=difference.name) for difference in DIFFERENCES]


@pytest.mark.parametrize("difference", ENTRIES)
def test_each_op_an_entry_names_is_an_op_torch_has(difference):
    assert all(torch_op(op).name() for op in difference.ops)


@pytest.mark.parametrize("difference", ENTRIES)
def test_each_case_an_entry_names_is_one_the_stock_partitioner_gets_wrong(difference):
    assert all(CASES[case].stock.outcome != Outcome.CORRECT for case in difference.cases)


@pytest.mark.parametrize("difference", ENTRIES)
def test_each_entry_names_a_rule_the_partitioner_runs_or_a_rewrite_that_keeps_it(difference):
    assert difference.rule in (set(NODE_RULES) if difference.owner == Owner.OPENVINO else set()) | \
        OTHER_RULES[difference.owner]
    assert difference.rewrite is None or hasattr(exact_rewrites, difference.rewrite)


@pytest.mark.parametrize("difference", ENTRIES)
def test_each_entry_has_the_checkers_finding_or_says_why_a_blob_cannot_show_it(difference):
    assert (difference.finding is None) != (difference.unseen is None)
    assert difference.finding is None or difference.finding in set(FindingKind)


def test_every_rule_the_partitioner_runs_on_a_node_is_in_the_registry():
    assert set(NODE_RULES) <= {difference.rule for difference in DIFFERENCES}


def test_every_exact_rewrite_keeps_a_difference_of_the_registry():
    passes = {rewrite.__name__.rsplit(".", 1)[1]
              for rewrite in (*exact_rewrites.ALWAYS_PASSES, *exact_rewrites.TORCH_SPECIAL_VALUES_PASSES)}
    assert passes == {difference.rewrite for difference in DIFFERENCES if difference.rewrite}


@pytest.mark.parametrize("rewrite", [pytest.param(rewrite, id=rewrite.__name__.rsplit(".", 1)[1])
                                     for rewrite in exact_rewrites.TORCH_SPECIAL_VALUES_PASSES])
def test_the_ops_a_rewrite_keeps_exact_are_ops_of_its_entries(rewrite):
    name = rewrite.__name__.rsplit(".", 1)[1]
    named = {torch_op(op) for difference in DIFFERENCES if difference.rewrite == name for op in difference.ops}
    assert set(rewrite.MAKES_EXACT) <= named


def test_the_checkers_semantic_findings_are_the_registrys():
    assert set(finding_kinds()) == {d.finding for d in DIFFERENCES if d.finding}


def test_each_entry_has_a_name_of_its_own():
    assert len({difference.name for difference in DIFFERENCES}) == len(DIFFERENCES)


def test_the_checkers_op_traces_are_the_registrys():
    """What the checker looks for in a blob's traces of ATen ops is read from the entries (their ops and
    ``shown_by``), so the two cannot drift apart again (they had: the checker lacked
    ``remainder.Scalar_Tensor``)."""
    from workaround.checker import blob_differences

    assert {*named("division_through_float32").ops, "aten.floor.default"} == blob_differences.DIVISIONS
    assert set(named("remainder_through_float32").ops) == blob_differences.REMAINDERS
    assert "aten.remainder.Scalar_Tensor" in blob_differences.REMAINDERS
    assert {"add", "mul", "sum", "cumsum"} <= blob_differences.WRAPPING


OP_NAME = re.compile(r"^aten\.\w+\.\w+$")


OUTSIDE_THE_CONTRACT = sorted(str(path.relative_to(PROJECT)) for path in (PROJECT / "workaround").rglob("*.py")
                              if "contract" not in path.parts)


@pytest.mark.parametrize("module", OUTSIDE_THE_CONTRACT)
def test_no_op_name_is_written_by_hand_outside_the_registry(module):
    """An ATen op named as a string outside ``workaround/contract/`` is a hand list beside the registry."""
    tree = ast.parse((PROJECT / module).read_text())
    written = [node.value for node in ast.walk(tree)
               if isinstance(node, ast.Constant) and isinstance(node.value, str) and OP_NAME.match(node.value)]
    assert not written, f"{module} names {written}: name them in workaround/contract/differences.py"


# What each entry says differs, up to its first aside: four words or more are not said twice by chance.
SAID = {difference.name: said for difference in DIFFERENCES
        if len((said := re.split(r"[(:;]", difference.computes)[0].strip()).split()) >= 4}


def dtype_reasons(tree: ast.AST) -> list[str]:
    """The dict literals that map torch dtypes to sentences (``{torch.float64: "float64 is computed ..."}``): a
    reason table beside the registry (a table of OpenVINO's type names is not one)."""
    return [ast.unparse(node)[:80] for node in ast.walk(tree) if isinstance(node, ast.Dict) and any(
        isinstance(key, ast.Attribute) and isinstance(key.value, ast.Name) and key.value.id == "torch"
        and isinstance(value, ast.Constant) and isinstance(value.value, str) and " " in value.value
        for key, value in zip(node.keys, node.values, strict=True))]


@pytest.mark.parametrize("module", OUTSIDE_THE_CONTRACT)
def test_no_reason_or_dtype_table_is_written_by_hand_outside_the_registry(module):
    """A reason, finding message or dtype table about a difference outside ``workaround/contract/`` is a second
    text beside the registry's: the partitioner's reasons and the checker's messages read ``computes``, and the
    dtypes an entry is about are its ``dtypes``."""
    tree = ast.parse((PROJECT / module).read_text())
    texts = [node.value for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    copied = {name: said for name, said in SAID.items() if any(said in text for text in texts)}
    assert not copied, f"{module} writes the registry's text by hand: {copied}"
    assert not dtype_reasons(tree), f"{module} keeps a dtype table: {dtype_reasons(tree)}"
