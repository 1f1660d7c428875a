"""openvino-stale-copies.md, rendered from the recorded matrix: its structure, its mechanism and source
pointers, and the snippet it pastes, run on the installed release."""

import re

from repro.reports import openvino_stale_copies as stale_copies_report
from tests.support.helpers import run_cli
from tests.support.recorded_matrix import DATA, recorded_rows
from tests.support.release_behaviour import expected_symptoms

REPORT_STRUCTURE = DATA / "openvino-stale-copies.structure.txt"


def report_structure(markdown):
    """What must not silently go: headings, bold template fields, fenced block languages, table headers."""
    lines = []
    for line in markdown.splitlines():
        if line.startswith(("# ", "## ", "| releases")) or (line.startswith("```") and line != "```"):
            lines.append(line)
        elif line.startswith("- **"):
            lines.append(line.split(":", 1)[0])
    return "\n".join(lines) + "\n"


def collapsed_section(report, heading):
    """The text of a ``## heading`` section whose body is one collapsed <details> block."""
    section = report.split(f"## {heading}\n\n")[1].split("\n\n## ")[0]
    assert section.startswith("<details>\n<summary>"), section[:200]
    assert section.endswith("\n\n</details>"), section[-200:]
    return section.split("</summary>\n\n", 1)[1].removesuffix("\n\n</details>")


def test_mechanism_is_four_bullets_each_marked_measured_or_read_in_source(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    bullets = collapsed_section(report, "Mechanism").splitlines()
    assert len(bullets) <= 4
    assert all(line.startswith(("- **Measured**:", "- **Read in source**:")) for line in bullets), bullets


def test_source_pointers_are_permalinks_at_the_tested_build_with_function_names(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    lines = collapsed_section(report, "Where in the sources").split("\n\n")[1].splitlines()
    assert len(lines) == len(stale_copies_report.POINTERS)
    for line in lines:
        path, url, function = re.match(r"- \[`([^`]+)`\]\((\S+)\), `([^`]+)`: ", line).groups()
        assert url == f"https://github.com/openvinotoolkit/openvino/blob/e213a147257/{path}"
        assert "::" in function
        assert "(read " in line


def test_report_keeps_its_structure(recorded_matrix):
    structure = report_structure(stale_copies_report.openvino_stale_copies(recorded_matrix))
    assert structure == REPORT_STRUCTURE.read_text(), (
        f"the report's structure changed; if that is intended, write this into {REPORT_STRUCTURE}:\n{structure}")


def test_report_reads_on_its_own(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    assert report.startswith("# [Bug]: [CPU] ")
    assert stale_copies_report.MINIMAL_REPRODUCER.read_text().rstrip() in report
    assert stale_copies_report.CPP_REPRODUCER.read_text().rstrip() in report
    newest = recorded_rows({"2026.4.1"})[0]
    assert newest["snippet"]["output"] in report, "the snippet's output is pasted verbatim"
    assert newest["plain"]["cpp_output"].rstrip() in report, "the C++ program's output is pasted verbatim"
    assert "It ran unchanged on every release in the table (2023.0.0 to 2026.4.1)." in report
    for pointer in ("`INFERENCE_PRECISION_HINT`: bf16", "`OPTIMIZATION_CAPABILITIES`", "PR #23035",
                    "issue #4742", "PR #5000", "**Operating System**: Debian GNU/Linux 12 (bookworm)"):
        assert pointer in report
    assert "from 2023.3.0 on; 2023.3.0 is also where the outputs-first order became right" in report
    assert "Stale output: present in every release on the index, oldest 2023.0.0" in report
    assert "| 2024.3.0 to 2026.4.1 (18) |" in report, "neighbouring releases with the same symptoms share a row"


def code_block_after(markdown, marker, language):
    start = markdown.index(f"```{language}\n", markdown.index(marker)) + len(language) + 4
    return markdown[start:markdown.index("\n```", start)]


def test_snippet_in_the_report_shows_this_releases_symptoms(recorded_matrix):
    report = stale_copies_report.openvino_stale_copies(recorded_matrix)
    snippet = code_block_after(report, "Save as", "python")
    result = run_cli("python", "-c", snippet, timeout=300)
    expected = expected_symptoms("param_result_and_sin", "inputs_first")
    wrong = {"stale_output", "wrong_downstream", "input_overwritten"} & set(expected)
    assert result.returncode == (1 if wrong else 0), result.stderr[-2000:]
    cpu = next(line for line in result.stdout.splitlines() if line.startswith("CPU:"))
    checks = dict(part.rsplit(": ", 1) for part in cpu.removeprefix("CPU: ").split("; "))
    assert checks["output 0 == x"].split()[0] == str("stale_output" not in expected), cpu
    assert checks["output 1 == sin(x)"] == str("wrong_downstream" not in expected), cpu
    assert checks["x intact"] == str("input_overwritten" not in expected), cpu
    assert checks["input 0 is output 0's buffer"] == str("input_slot_is_output_buffer" in expected), cpu
    assert {line.split(":")[0] for line in result.stdout.splitlines()[1:]} == {"CPU", "AUTO", "HETERO"}
