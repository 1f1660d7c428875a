"""A comment for openvino#31196 ("The greater operator is incorrect on nan"), not a new issue: what the
conformance sweep measured of NaN and infinities through OpenVINO's PyTorch frontend, rendered from the
outcomes it recorded (``repro/harness/conformance_expected.json``, read torch-free).

    python -m repro.reports.openvino_special_values [--release 2026.4.1]
"""

import argparse
import sys

from packaging.version import Version

from repro.harness import conformance_record
from repro.harness.cli import ExitStatus
from repro.harness.outcomes import Outcome
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

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


def comment(outcomes: dict[str, dict[str, str]], release: str) -> str:
    rows = special_value_rows(outcomes)
    ops = ", ".join(f"`{op}`" for op in dict.fromkeys(op for op, _ in rows))
    cycle = ", ".join(map(str, conformance_record.SPECIAL_FLOATS))
    return md.fill("openvino_special_values", issue=ISSUE, release=release, cycle=cycle, samples=len(rows),
                   ops=ops, related="; ".join(RELATED))


def openvino_special_values(matrix: Matrix) -> str:
    """The comment for the newest release among the matrix's rows whose sweep is recorded (the sweep runs in
    its own env, ``tox -e conformance``, not in the matrix), or a line saying none is."""
    releases = sorted((row["release"] for row in matrix["rows"] if row.get("release")), key=Version, reverse=True)
    recorded = next(((release, outcomes) for release in releases
                     if (outcomes := conformance_record.recorded(release)) is not None), None)
    if recorded is None:
        return (f"# Comment for {ISSUE}: no conformance sweep is recorded for the releases of this matrix "
                f"({', '.join(releases)})\n")
    return f"# Comment for {ISSUE}\n\n" + comment(recorded[1], recorded[0])


def main(argv: list[str] | None = None) -> int:
    from importlib.metadata import PackageNotFoundError, version

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    try:
        installed = version("openvino")
    except PackageNotFoundError:
        installed = None
    parser.add_argument("--release", default=installed, help="the OpenVINO release whose sweep to render")
    args = parser.parse_args(argv)
    outcomes = conformance_record.recorded(args.release) if args.release else None
    if outcomes is None:
        print(f"no conformance outcomes are recorded for OpenVINO {args.release}", file=sys.stderr)
        return ExitStatus.USAGE
    sys.stdout.write(comment(outcomes, args.release))
    return ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
