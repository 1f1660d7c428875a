"""Every upstream report renders, byte for byte, what it rendered when it was last accepted, from the recorded
matrix (``tests/data/matrix-all-releases.json``): a change to a report's wording, or to the code or template
that renders it, shows here as a diff to review. To accept a deliberate change:
``python -m tests.upstream.test_report_rendering`` rewrites ``tests/data/reports/``.
"""

import difflib

import pytest

from repro.reports import upstream
from tests.support.recorded_matrix import DATA, RECORDED

ACCEPTED = DATA / "reports"


def rendered(folder):
    return {path.name: path.read_text() for path in upstream.write_reports(RECORDED, folder)}


def test_every_report_has_an_accepted_rendering():
    assert sorted(path.name for path in ACCEPTED.iterdir()) == sorted(upstream.REPORTS)


@pytest.mark.parametrize("name", sorted(upstream.REPORTS))
def test_the_report_renders_byte_for_byte_as_accepted(tmp_path, name):
    now, accepted = rendered(tmp_path)[name], (ACCEPTED / name).read_text()
    diff = "".join(difflib.unified_diff(accepted.splitlines(True), now.splitlines(True), "accepted", "now"))[:4000]
    accept = "python -m tests.upstream.test_report_rendering"
    assert now == accepted, f"{name} renders differently (accept: {accept}):\n{diff}"


if __name__ == "__main__":
    for report_name, text in rendered(ACCEPTED).items():
        print(f"wrote {ACCEPTED / report_name} ({len(text)} characters)")
