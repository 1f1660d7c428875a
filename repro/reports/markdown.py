"""Markdown building blocks shared by the upstream reports (OpenVINO's and ExecuTorch's).

Every report is an issue body a maintainer reads on its own: a title, then sections. Its prose is a Markdown
template beside its builder (``repro/reports/NAME.md``, ``string.Template``: ``$field`` where the builder puts
what it computed from the rows, ``$$`` for a dollar sign), so that a sentence is edited where it is read. The
pieces that recur — sections, fenced code, bullet lists, tables, collapsed details, and the sentence that names
the first bad release *among the releases that were run* — are written once here, so the reports cannot drift
apart in how they state evidence.
"""

import re
import string
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from packaging.version import Version

ATTACHMENTS = Path(__file__).resolve().parents[1] / "attachments"
TEMPLATES = Path(__file__).resolve().parent  # NAME.md beside NAME.py


def attachment(name: str) -> Path:
    """The standalone file a report embeds (``repro/attachments/NAME``), named like the report."""
    return ATTACHMENTS / name


def issue(title: str, sections: Iterable[Sequence[str]]) -> str:
    """``# title`` and ``## heading`` sections, in order; empty sections are left out. A section given as
    (heading, text, summary) is collapsed under ``summary``: evidence a maintainer opens to check a claim,
    not what they read to triage (the main text stays short: ``main_text``)."""
    parts = []
    for heading, text, *collapsed in sections:
        if text and text.strip():
            parts.append(f"## {heading}\n\n" + (details(collapsed[0], text) if collapsed else text.strip()))
    body = "\n\n".join(parts)
    return f"# {title}\n\n{body}\n"


def render(name: str, **fields: object) -> str:
    """The report whose template is ``NAME.md`` beside its builder, its fields filled: ``# title``, then its
    ``## heading`` sections (found in the template, before any field is filled), each laid out as ``issue`` lays
    sections out, so one that comes out empty is left out."""
    template = template_of(name, fields)
    title, *sections = re.split(r"^## ", template.template, flags=re.MULTILINE)
    filled = [string.Template(section).substitute(fields).split("\n", 1) for section in sections]
    return issue(string.Template(title).substitute(fields).removeprefix("# ").strip(), filled)


def fill(name: str, **fields: object) -> str:
    """The template ``NAME.md`` with its fields filled, as it is (a comment: no sections to lay out)."""
    return template_of(name, fields).substitute(fields)


def template_of(name: str, fields: Mapping[str, object]) -> string.Template:
    """The template ``NAME.md``; a field it does not use is an error (a builder computing what no sentence
    says), as is one it uses and is not given (``substitute`` raises)."""
    template = string.Template((TEMPLATES / f"{name}.md").read_text())
    unused = sorted(fields.keys() - set(template.get_identifiers()))
    if unused:
        raise ValueError(f"{name}.md has no field {', '.join(unused)}")
    return template


def collapsed(summary: str, body: str) -> str:
    """``details(summary, body)``, or nothing where there is no body (a section with nothing else is left out)."""
    return details(summary, body) if body and body.strip() else ""


def details(summary: str, body: str) -> str:
    """A collapsed block: what a maintainer opens only to check a claim (sources, full logs, patches)."""
    return f"<details>\n<summary>{summary}</summary>\n\n{body.strip()}\n\n</details>"


def main_text(report: str) -> str:
    """The report without its collapsed blocks: what a maintainer reads first."""
    return re.sub(r"<details>.*?</details>", "", report, flags=re.DOTALL)


def words(text: str) -> int:
    return len(text.split())


def code_block(source: str, language: str = "python") -> str:
    """``source`` fenced; only its last newlines dropped, so a patch's closing blank context line (a space)
    stays and the block still applies as pasted."""
    return f"```{language}\n{source.rstrip(chr(10))}\n```"


def bullets(lines: Iterable[str]) -> str:
    return "\n".join(f"- {line}" for line in lines if line)


def table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell).replace("|", "/").replace("\n", " ") for cell in row) + " |"
              for row in rows]
    return "\n".join(lines)


def first_bad_release(verdicts: Mapping[str, bool | None], available: Sequence[str] = ()) -> str:
    """A sentence naming the first bad release among those run, the last good one before it, and
    which releases on the index between the two were not run. ``verdicts``: {release: bad?}."""
    ordered = sorted(verdicts, key=Version)
    bad = [release for release in ordered if verdicts[release]]
    if not bad:
        return f"Not seen in any release run ({', '.join(ordered)})."
    good_before = [release for release in ordered if not verdicts[release] and Version(release) < Version(bad[0])]
    if not good_before:
        return f"Seen in every release run from {bad[0]} (the oldest run) on; older releases were not run."
    between = [release for release in available if Version(good_before[-1]) < Version(release) < Version(bad[0])]
    gap = f" Not run in between: {', '.join(between)}." if between else ""
    return f"First bad release: {bad[0]}; the release before it that was run, {good_before[-1]}, is fine.{gap}"
