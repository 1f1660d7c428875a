"""repro/reports/release_boundaries.py: where each symptom starts and ends, said from any subset of releases,
and the bisection that finds every boundary from one release."""

import pytest

from repro.reports import openvino_compressed_matmul, openvino_state_cache_update, release_boundaries
from repro.reports import openvino_stale_copies as stale_copies_report
from tests.support.recorded_matrix import RECORDED, failure_row, matrix_of, recorded_rows


def test_summary_says_where_each_symptom_starts_and_ends(recorded_matrix):
    lines = recorded_matrix["summary"]["boundaries"]
    assert "stale output: **yes** 2023.0.0 to 2026.4.1" in lines
    assert "outputs first wrong too: **yes** 2023.0.0 to 2023.2.0; no 2023.3.0 to 2026.4.1" in lines
    assert "input overwritten: no 2023.0.0 to 2024.0.0; **yes** 2024.1.0 to 2026.4.1" in lines
    assert "shared slot: no 2023.0.0 to 2023.2.0; **yes** 2023.3.0 to 2026.4.1" in lines
    assert "C API in the wheel: no 2023.0.0 to 2024.2.0; **yes** 2024.3.0 to 2026.4.1" in lines
    assert "C++ headers in the wheel: no 2023.0.0 to 2024.2.0; **yes** 2024.3.0 to 2026.4.1" in lines
    assert "import reads the caller's buffer: no 2024.3.0 to 2026.3.1; **yes** 2026.4.0 to 2026.4.1" in lines


def test_a_subset_names_the_releases_it_did_not_measure():
    rows = [*recorded_rows({"2024.0.0", "2026.3.1"}), failure_row("install_failed", "no wheel", "2024.1.0")]
    line = release_boundaries.describe(rows, "input overwritten", RECORDED["available"])
    available = RECORDED["available"]
    between = ", ".join(available[available.index("2024.1.0"):available.index("2026.3.1")])
    assert line == ("input overwritten: no 2024.0.0; **yes** 2026.3.1 (not run before 2024.0.0: 2023.0.0, "
                    "2023.0.1, 2023.0.2, 2023.1.0, 2023.2.0, 2023.3.0; not run after 2026.3.1: 2026.4.0, "
                    f"2026.4.1; not measured between 2024.0.0 and 2026.3.1: {between})"), line


def bisect_from(requested):
    """What ``matrix.py --reports`` runs, with recorded rows standing in for the installs."""
    rows, rounds = recorded_rows(set(requested)), 0
    while more := release_boundaries.releases_to_run(rows, RECORDED["available"]):
        rows += recorded_rows(set(more))
        rounds += 1
    return rows, rounds


# Signals every release can show (the C and C++ programs need the headers wheels ship from 2024.3.0, so their
# lines name the older releases a subset did not run, which the full table measured as "not buildable").
EVERY_RELEASE_SIGNALS = [signal for signal in release_boundaries.SIGNALS if signal not in release_boundaries.TIMED
                         and signal not in ("import reads the caller's buffer", "Abs of constants dropped (C++)",
                                            "blob tied to the exporting CPU (C API)")]


@pytest.mark.parametrize("requested", [["2026.4.1"], ["2024.0.0", "2026.4.1"], ["2023.1.0"], ["2025.2.0"]])
@pytest.mark.parametrize("signal", EVERY_RELEASE_SIGNALS)
def test_bisection_from_any_subset_says_what_every_release_would(requested, signal):
    rows, _ = bisect_from(requested)
    # 7 boundaries among 27 releases (the Abs one the newest): bisecting each costs about log2 of its gap.
    assert len(rows) <= 17, f"bisection ran {len(rows)} of 27 releases"
    available = RECORDED["available"]
    everything = release_boundaries.describe(RECORDED["rows"], signal, available)
    assert release_boundaries.describe(rows, signal, available) == everything


def test_report_from_one_release_names_the_first_bad_releases():
    rows, _ = bisect_from(["2026.4.1"])
    report = stale_copies_report.openvino_stale_copies(matrix_of(rows))
    assert "Setting the output first gives the right values from 2023.3.0 on." in report
    assert "Stale output: present in every release on the index, oldest 2023.0.0.\n" in report
    assert "Input overwritten: from 2024.1.0 (see Releases" in report
    assert "input overwritten: no 2023.0.0 to 2024.0.0; **yes** 2024.1.0 to 2026.4.1" in report


def with_verdicts(rows, field, exit_codes):
    """Copies of ``rows`` with ``field`` an attachment run that exited with each of ``exit_codes``."""
    return [{**row, field: {"exit_code": code, "output": "", "stdout": ""}}
            for row, code in zip(rows, exit_codes, strict=True)]


@pytest.mark.parametrize("report", [openvino_state_cache_update, openvino_compressed_matmul],
                         ids=["state_cache_update", "compressed_matmul"])
def test_a_timed_verdict_that_flips_at_one_release_is_described_and_not_bisected(report):
    signal, field = report.SIGNAL, report.FIELD
    assert signal in release_boundaries.TIMED
    [newest] = recorded_rows({"2026.4.1"})
    alike = [{**newest, "requested": release, "release": release}
             for release in ("2024.0.0", "2025.0.0", "2026.4.1")]
    rows = with_verdicts(alike, field, (1, 0, 1))
    line = release_boundaries.describe(rows, signal, RECORDED["available"])
    assert line.startswith(f"{signal}: **yes** 2024.0.0; no 2025.0.0; **yes** 2026.4.1 ("), line
    assert release_boundaries.releases_to_run(rows, RECORDED["available"]) == ["2023.0.0"], "only the oldest"
    # the same flip of a fact that changes once (the import's precision) is bisected, on both sides
    fact = with_verdicts(rows, "import_precision", (1, 0, 1))
    assert release_boundaries.releases_to_run(fact, RECORDED["available"]) == ["2023.0.0", "2024.4.0", "2026.1.0"]
    # a release run for another boundary, without the timed run, is named as such
    untimed = [*rows, {**newest, "requested": "2024.4.0", "release": "2024.4.0", field: None}]
    line = release_boundaries.describe(untimed, signal, RECORDED["available"])
    assert line.endswith("; no timing on 2024.4.0: run for a boundary only, or not timeable there)"), line
