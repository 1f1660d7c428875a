"""What is rendered from the conformance sweep's record, without running it: the per-op table in the docs and
the comment for OpenVINO's NaN issue are the record's, so neither can drift from what was measured."""

from pathlib import Path

from repro.harness.conformance import record as conformance_record
from repro.harness.cpu.classes import ORDER
from repro.reports import openvino_special_values
from tests.support.helpers import PROJECT, run_cli

RELEASE = "2026.4.1"  # the release the docs show
DOCS_CLASS = "avx512_bf16"  # the class whose whole table the docs show (the others: the rows that differ)


def test_the_release_is_recorded_on_every_cpu_class():
    assert conformance_record.recorded_classes(RELEASE) == sorted(ORDER)


def test_docs_conformance_table_is_the_recorded_sweep():
    recorded = conformance_record.recorded(RELEASE, DOCS_CLASS)
    assert recorded, f"nothing recorded for {RELEASE} on {DOCS_CLASS}"
    text = Path(PROJECT / "docs" / "conformance.md").read_text()
    assert conformance_record.markdown(recorded, RELEASE, DOCS_CLASS) in text, \
        "docs/conformance.md is not the recorded sweep: python -m repro.conformance --markdown FILE, then paste"
    assert conformance_record.class_markdown(RELEASE) in text, \
        "docs/conformance.md's classes table is not the record's: conformance_record.class_markdown, then paste"


def test_special_values_comment_joins_the_open_issue_and_names_what_was_measured():
    recorded = conformance_record.recorded(RELEASE, DOCS_CLASS)
    body = openvino_special_values.comment(recorded, RELEASE, DOCS_CLASS)
    assert body.startswith("A data point for openvinotoolkit/openvino#31196")
    assert "[Bug]" not in body, "a comment, not an issue body"
    assert "### " not in body, "a comment, not an issue body"
    ops = {op for op, _ in openvino_special_values.special_value_rows(recorded)}
    assert {"gt", "ge", "relu"} <= ops
    assert not ops & {"clone", "alias_copy", "reflection_pad2d"}, "wrong on finite floats too: not this thread's"
    rows = openvino_special_values.special_value_rows(recorded)
    assert f"{len(rows)} samples, finite float32 right, differ" in body


def test_special_values_comment_prints_for_a_recorded_release_and_refuses_another():
    printed = run_cli("python", "-m", "repro.reports.openvino_special_values", "--release", RELEASE)
    assert printed.returncode == 0, printed.stderr
    assert "#31196" in printed.stdout
    missing = run_cli("python", "-m", "repro.reports.openvino_special_values", "--release", "1999.1.0")
    assert missing.returncode == 2
    assert missing.stderr.strip() == "no conformance outcomes are recorded for OpenVINO 1999.1.0"


def test_special_values_comment_says_which_samples_differ_by_cpu_class():
    body = openvino_special_values.comment(conformance_record.recorded(RELEASE, DOCS_CLASS), RELEASE, DOCS_CLASS)
    assert "`gt/gt/special values`: avx2 correct" in body
    assert "`vcmpgtps`" in body
