"""The OpenVINO C API issue body: since 2026.4.0 ``ov_core_import_model`` keeps reading the caller's
buffer after it returns, and nothing says how long it must live.

Built from the matrix's rows, in OpenVINO's bug template: the reproducer is a 40-line C program
(``attachments/openvino_import_lifetime.c``) built against the wheel's ``libopenvino_c`` as printed;
the cause is shown, not argued, by two more measurements per release, both run by the matrix in each
wheel: which ``Core::import_model`` overload the C API calls (``nm`` on ``libopenvino_c``), and how each
overload treats the caller's memory (``attachments/openvino_import_overloads.cpp``).
"""

import re
from collections.abc import Callable

from packaging.version import Version

from repro import attachment_commands as commands
from repro.reports import markdown as md
from repro.reports.matrix_report import by_release, neighbour_groups
from repro.reports.matrix_row import Matrix, MatrixRow, recorded
from repro.reports.openvino_issue import CHECKLIST, template_fields
from repro.reports.release_boundaries import program_verdict

IMPORT_REPRODUCER = md.attachment("openvino_import_lifetime.c")
OVERLOADS_PROGRAM = md.attachment("openvino_import_overloads.cpp")
TENSOR_OVERLOAD_PR = "openvinotoolkit/openvino PR #31327 (\"ov::Core::import_model(ov::Tensor ...)\", July 2025)"
OVERLOAD_LINE = re.compile(r"^import_model\((?P<overload>[^)]*)\): (?P<result>.*)$", re.MULTILINE)
ISTREAM = re.compile(r"std::basic_istream<char, std::char_traits<char> ?>")


def reads_caller_buffer(row: MatrixRow) -> bool | None:
    """The C program's verdict on this release: True (bug), False (copies), None (not built or not run)."""
    return program_verdict(row.get("import_lifetime"))


def was_measured(row: MatrixRow) -> bool:
    return reads_caller_buffer(row) is not None


def verdicts(rows: list[MatrixRow]) -> dict[str, bool | None]:
    return {row["release"]: reads_caller_buffer(row) for row in rows if was_measured(row)}


def called_overload(row: MatrixRow) -> str | None:
    """The first parameter of the ``Core::import_model`` the wheel's C API imports, from the nm line's output
    (``std::istream&`` or ``ov::Tensor const&``); None where nm found none."""
    output = (row.get("import_symbols") or {}).get("output", "")
    start = output.find("ov::Core::import_model(")
    if start < 0:
        return None
    depth, text = 0, output[start + len("ov::Core::import_model("):]
    for index, char in enumerate(text):
        depth += {"<": 1, ">": -1}.get(char, 0)
        if char in ",)" and depth == 0:
            return ISTREAM.sub("std::istream", text[:index]).strip()
    return None


def overload_results(row: MatrixRow) -> dict[str, str]:
    """{overload: what the C++ check found} for one release (empty where it was not built)."""
    output = (row.get("import_overloads") or {}).get("output", "")
    return {match["overload"]: match["result"] for match in OVERLOAD_LINE.finditer(output)}


def not_measured_line(rows: list[MatrixRow]) -> str:
    """One line for the releases where the C program could not be built or run, with the reason(s) seen."""
    missing = [row for row in by_release(rows) if not was_measured(row)]
    if not missing:
        return ""
    reasons = sorted({reason(row) for row in missing})
    names = ", ".join(row["release"] for row in missing)
    return f"Not measurable ({len(missing)} releases: {names}): {'; '.join(reasons)}."


def reason(row: MatrixRow) -> str:
    output = (row.get("import_lifetime") or {}).get("output") or row.get("detail") or "not run"
    if "openvino/c/openvino.h" in output:
        return "the wheel ships no C headers (wheels from 2024.3.0 do)"
    if "libopenvino_c" in output:
        return "the wheel ships no libopenvino_c"
    return output.splitlines()[-1][:160] if output else "not run"


def table_cells(row: MatrixRow) -> tuple[str, ...]:
    results = overload_results(row)
    return ("**reads the caller's buffer**" if reads_caller_buffer(row) else "copies",
            f"`{called_overload(row)}`" if called_overload(row) else "-",
            results.get("std::istream&", "-"), results.get("const ov::Tensor&", "-"))


def lifetime_table(rows: list[MatrixRow]) -> str:
    """One line per stretch of measured neighbouring releases with the same cells."""
    lines = [[stretch, *cells] for cells, stretch in neighbour_groups(filter(was_measured, rows), table_cells)]
    header = ["releases (count)", f"`{IMPORT_REPRODUCER.name}`",
              "`ov_core_import_model` calls `Core::import_model(…)` with",
              "C++ `import_model(std::istream&)` over caller memory", "C++ `import_model(const ov::Tensor&)`"]
    return md.table(header, lines)


def newest_bad(rows: list[MatrixRow]) -> MatrixRow | None:
    bad = [row for row in by_release(rows) if reads_caller_buffer(row)]
    return bad[-1] if bad else None


def last_good_before(rows: list[MatrixRow], release: str) -> MatrixRow | None:
    good = [row for row in by_release(rows)
            if reads_caller_buffer(row) is False and Version(row["release"]) < Version(release)]
    return good[-1] if good else None


def overload_summary(rows: list[MatrixRow]) -> str:
    """What the C++ check found for each overload over the releases it ran on, in one sentence each."""
    ran = [row for row in rows if overload_results(row)]

    def result(overload: str) -> Callable[[MatrixRow], str]:
        return lambda row: overload_results(row).get(overload, "-").split(", ", 1)[-1]

    overloads = dict.fromkeys(overload for row in ran for overload in overload_results(row))
    return md.bullets([f"`import_model({overload})`: " + "; ".join(
        f"{found} on {stretch}" for found, stretch in neighbour_groups(ran, result(overload))
        if "not declared" not in found) for overload in overloads])


def reproduction(newest: MatrixRow) -> str:
    return f"""\
1. Install OpenVINO's wheel (and have a C compiler):

{md.code_block(commands.install_line(newest['release']), 'sh')}

2. Save as `{IMPORT_REPRODUCER.name}` (below):

{md.details(IMPORT_REPRODUCER.name, md.code_block(IMPORT_REPRODUCER.read_text(), 'c'))}

3. Build it against the wheel's C API and run it, in the folder holding it:

{md.code_block(commands.c_build(IMPORT_REPRODUCER.name), 'sh')}

Expected: `y[0] = 11 22 33` (x + c) and exit 0. Exit 1 and `3 13 23` (x - 7): the compiled model read the
bytes the caller overwrote after `ov_core_import_model` returned."""


def log_output(rows: list[MatrixRow], newest: MatrixRow) -> str:
    good = last_good_before(rows, newest["release"])
    return "\n\n".join(f"On {row['release']}:\n\n"
                       f"{md.code_block(recorded(row, 'import_lifetime')['output'], 'text')}"
                       for row in filter(None, [good, newest]))


def cause(rows: list[MatrixRow], newest: MatrixRow) -> str:
    good = last_good_before(rows, newest["release"])
    symbols = "\n\n".join(f"{row['release']}: `{called_overload(row)}`"
                            for row in filter(None, [good, newest]) if called_overload(row))
    return f"""\
**Measured in each wheel** (the table's third column): which `Core::import_model` the C API calls,

{md.code_block(commands.IMPORT_SYMBOLS, 'sh')}

{symbols}

— so 2026.4's `ov_core_import_model` hands the caller's content to the `ov::Tensor` overload where
earlier releases wrapped it in a stream. That overload came with {TENSOR_OVERLOAD_PR}. The change that made
`ov_core_import_model` call it we could not find: searching the tracker (pull requests touching
`src/bindings/c/src/ov_core.cpp`, "import_model" with "C API" or "tensor") gave none between 2026.3.1 and
2026.4.0, and the newest `ov_core.cpp` readable here (00afc1f) still uses `mem_istream` (below).

**Measured, C++** (the last two columns; `{OVERLOADS_PROGRAM.name}` below, built like the C++ program
of the stale-copies report), over the same caller-owned bytes:

{overload_summary(rows)}

So the Tensor overload reading the caller's memory is not what changed; the C API's switch to it is.

**Read in source**: `src/bindings/c/src/ov_core.cpp`, `ov_core_import_model`, at commit 00afc1f (the newest
readable here) wraps the content in a `mem_istream` and calls the `std::istream` overload. The header
(`include/openvino/c/ov_core.h` in the {newest['release']} wheel) documents `content` only as "A pointer to
content of the exported model": nothing says it must outlive the compiled model.

<details><summary>{OVERLOADS_PROGRAM.name}</summary>

{md.code_block(OVERLOADS_PROGRAM.read_text(), 'cpp')}

{md.code_block(commands.cpp_build(OVERLOADS_PROGRAM.name), 'sh')}

</details>"""




def openvino_import_lifetime(matrix: Matrix) -> str:
    rows = matrix["rows"]
    newest = newest_bad(rows)
    if newest is None:
        return md.issue("No release run reads the caller's buffer after ov_core_import_model",
                        [("Releases", lifetime_table(rows) + "\n\n" + not_measured_line(rows))])
    fields = template_fields(newest, device_note="",
                             framework="OpenVINO's C API alone (found through ExecuTorch's OpenVINO backend)",
                             model="synthetic IR in the program, `y = x + c` (c a 2x3 f32 Constant)")
    return md.render(
        "openvino_import_lifetime",
        first_bad=min(release for release, bad in verdicts(rows).items() if bad),
        first_bad_release=md.first_bad_release(verdicts(rows), matrix.get("available", ())),
        environment=md.collapsed("OpenVINO, OS, CPU, build", fields),
        reproduction=reproduction(newest),
        log_output=md.collapsed("What the program prints, verbatim", log_output(rows, newest)),
        per_release=md.collapsed("Per release", lifetime_table(rows) + "\n\n" + not_measured_line(rows)),
        cause=md.collapsed("Measured in each wheel, and read in source", cause(rows, newest)),
        checklist=md.collapsed("Checked", CHECKLIST))
