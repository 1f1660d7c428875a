"""A comment for openvino#31196 ("The greater operator is incorrect on nan"), not a new issue: what the
conformance sweep measured of NaN and infinities through OpenVINO's PyTorch frontend, rendered from the
outcomes it recorded (``repro/harness/conformance/expected.json``, read torch-free).

    python -m repro.reports.openvino_special_values [--release 2026.4.1]
"""

import argparse
import sys

from packaging.version import Version

from repro.harness.cases.outcomes import Outcome
from repro.harness.cli import ExitStatus
from repro.harness.conformance import record as conformance_record
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix
from workaround.contract import differences

ISSUE = "openvinotoolkit/openvino#31196"
# Threads on the same family that a maintainer would link (searched 2026-12-01; docs/upstream.md).
RELATED = ("#35927 (closed: Greater/GreaterOrEqual with NaN, ONNX)", "#35649 (open: Relu(NaN) is 0)",
           "#35935 (open: MaxPool of an all-NaN window is -FLT_MAX)",
           "PR #5494 (2021: the CPU Reduce starts max from -FLT_MAX, so a max of all -inf is -FLT_MAX)")


def special_value_rows(outcomes: dict[str, dict[str, str]]) -> list[tuple[str, ...]]:
    """(op, OpInfo) of every sample the stock partitioner got wrong on special values alone: its "special
    values" case wrong, every finite float32 case of the same OpInfo right (a copy made wrong by the stale-copy
    bug, or a reflection pad by the dropped Abs, is wrong on finite floats too, and is not this thread's)."""
    finite_wrong = {tuple(case_id.split("/")[:2]) for case_id, found in outcomes.items()
                    if case_id.split("/")[2].startswith("float32") and found["stock"] == Outcome.WRONG}
    return sorted(key for case_id, found in outcomes.items()
                  if case_id.endswith("/special values") and found["stock"] == Outcome.WRONG
                  and (key := tuple(case_id.split("/")[:2])) not in finite_wrong)


def by_class(release: str) -> str:
    """The samples whose stock outcome differs between the recorded CPU classes, as a paragraph (empty where one
    class is recorded or none differs)."""
    classes = conformance_record.recorded_classes(release)
    stock = {case_id: {cpu_class: found.get("stock") for cpu_class, found in rows.items()}
             for case_id, rows in conformance_record.class_differences(release).items()}
    lines = [f"`{case_id}`: " + ", ".join(f"{cpu_class} {outcome}" for cpu_class, outcome in by_class.items())
             for case_id, by_class in stock.items() if len(set(by_class.values())) > 1]
    if not lines:
        return ""
    return md.fill("openvino_special_values_by_class", classes=", ".join(classes), count=len(lines),
                   samples=md.bullets(lines)).strip() + "\n\n"


def what_differs() -> str:
    """OpenVINO's special-value entries of the registry (``workaround.contract.differences``): ops, difference."""
    entries = [difference for difference in differences.DIFFERENCES
               if difference.owner == differences.Owner.OPENVINO and difference.special_values]
    return "; ".join(f"{subject(entry)} {entry.computes}" for entry in entries)


def subject(entry: differences.Difference) -> str:
    """What the entry is about: its ops, or, where its dtype decides (NaN made bool), any conversion to it."""
    named = ", ".join(f"`{name}`" for name in differences.op_names(entry))
    return named or "any conversion to " + ", ".join(f"`{dtype}`" for dtype in entry.dtypes)


def comment(outcomes: dict[str, dict[str, str]], release: str, cpu_class: str) -> str:
    rows = special_value_rows(outcomes)
    ops = ", ".join(f"`{op}`" for op in dict.fromkeys(op for op, _ in rows))
    cycle = ", ".join(map(str, conformance_record.SPECIAL_FLOATS))
    return md.fill("openvino_special_values", issue=ISSUE, release=release, cycle=cycle, samples=len(rows),
                   ops=ops, related="; ".join(RELATED), cpu_class=cpu_class, by_class=by_class(release),
                   what_differs=what_differs())


def widest_class(release: str) -> str | None:
    """The recorded class whose kernels get the most special values wrong: the report's main figures."""
    def wrong(cpu_class: str) -> int:
        return len(special_value_rows(conformance_record.recorded(release, cpu_class) or {}))

    classes = conformance_record.recorded_classes(release)
    return max(classes, key=wrong) if classes else None


def openvino_special_values(matrix: Matrix) -> str:
    """The comment for the newest release among the matrix's rows whose sweep is recorded (the sweep runs in
    its own env, ``tox -e conformance``, not in the matrix), or a line saying none is."""
    releases = sorted((row["release"] for row in matrix["rows"] if row.get("release")), key=Version, reverse=True)
    found = next(((release, cpu_class) for release in releases if (cpu_class := widest_class(release))), None)
    if found is None:
        return (f"# Comment for {ISSUE}: no conformance sweep is recorded for the releases of this matrix "
                f"({', '.join(releases)})\n")
    release, cpu_class = found
    return f"# Comment for {ISSUE}\n\n" + comment(conformance_record.recorded(release, cpu_class) or {}, release,
                                                   cpu_class)


def main(argv: list[str] | None = None) -> int:
    from importlib.metadata import PackageNotFoundError, version

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    try:
        installed = version("openvino")
    except PackageNotFoundError:
        installed = None
    parser.add_argument("--release", default=installed, help="the OpenVINO release whose sweep to render")
    args = parser.parse_args(argv)
    cpu_class = widest_class(args.release) if args.release else None
    if cpu_class is None:
        print(f"no conformance outcomes are recorded for OpenVINO {args.release}", file=sys.stderr)
        return ExitStatus.USAGE
    sys.stdout.write(comment(conformance_record.recorded(args.release, cpu_class) or {}, args.release, cpu_class))
    return ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
