"""The bugs the way ExecuTorch users meet them.

Each case of a small model catalogue (``repro/harness/models/catalogue.py``) goes through ``torch.export`` ->
``to_edge_transform_and_lower(..., partitioner=[...])`` -> ``.to_executorch()`` -> a ``.pte``
file -> the real ExecuTorch runtime (the pip wheel's pybindings, whose OpenVINO delegate
dlopens ``libopenvino_c`` from the installed openvino wheel). Every program is run twice, each
time in a child process so that a crash is a result, not the end of the run: loaded from
Python bytes, and loaded by path as deployments do. Every output is compared with eager
PyTorch; pure copies must match bit for bit, computed outputs within the case's tolerance.

With ``--replay`` the OpenVINO blob inside each delegate is taken out of the lowered program
and run again in plain OpenVINO Python with the inputs the delegate received (``repro/harness/runtime/replay.py``).

Usage::

    python repro/executorch_path.py [--partitioner stock] [--case NAME] [--replay]
                                    [--save-dir DIR] [--json]

(The ExecuTorch issue bodies are built by ``repro/matrix.py --executorch --reports DIR`` from this
script's JSON and the reports' own reproducers, per release.)

Exit status: 0 every case correct, 1 a case wrong, crashing or failing to lower (bug
reproduced), 125 could not test (ExecuTorch, its OpenVINO backend or libopenvino_c
unavailable, or the runtime failed without any bug showing).
"""

import argparse
import json
import os
import platform
import sys
import tempfile
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cases.outcomes import BUG_OUTCOMES, Outcome, describe_counts, outcome_counts
from repro.harness.cases.record import CaseRecord
from repro.harness.cases.runs import GATE_LOADS, run_case, saved_program
from repro.harness.cli import ExitStatus
from repro.harness.lowering import candidates
from repro.harness.lowering.named import LOWERINGS
from repro.harness.models.catalogue import CASES, CATALOGUE
from repro.harness.models.seed import SEED
from repro.harness.runtime import quiet
from repro.harness.runtime.available import Untestable, check_runtime
from repro.harness.runtime.program_runner import ProgramRunner


def summarize(records: Sequence[CaseRecord], partitioner: str) -> tuple[int, str]:
    """(exit code, verdict): wrong values, a crash, a failed lowering or a failure at run time is the bug;
    a timeout alone is untested."""
    bad = [r for r in records if r["outcome"] in BUG_OUTCOMES]
    counts = describe_counts(outcome_counts(records))
    if bad:
        return ExitStatus.BUG, (f"BUG REPRODUCED with the {partitioner} partitioner: {len(bad)} of {len(records)} "
                                f"cases wrong, crashing, failing to lower or failing at run time ({counts})")
    if any(r["outcome"] not in (Outcome.CORRECT, Outcome.REFUSED) for r in records):
        return ExitStatus.UNTESTABLE, f"COULD NOT TEST: the runtime failed ({counts})"
    refused = [r["case"] for r in records if r["outcome"] == Outcome.REFUSED]
    verdict = (f"OK: {len(records) - len(refused)} of {len(records)} cases equal eager PyTorch ({partitioner}; "
               f"{counts})")
    refusals = f"; refused at export with a clear error: {', '.join(refused)}" if refused else ""
    return ExitStatus.CORRECT, verdict + refusals


def environment() -> dict[str, str | None]:
    versions = {name: version(name) for name in ("openvino", "executorch", "torch", "numpy")}
    return {"python": platform.python_version(), **versions, "os": platform.platform(),
            "openvino_lib_path": os.environ.get("OPENVINO_LIB_PATH")}


def run_detail(record: CaseRecord) -> str:
    failed = [f"{load}: {run['detail']}" for load, run in record["runs"].items() if run["detail"]]
    return record["lowering_error"] or "; ".join(failed) or ", ".join(record["ops_outside"] or [])


def print_table(report: dict[str, Any]) -> None:
    for key, value in report["environment"].items():
        print(f"{key:>17}: {value}")
    width = max(len(record["case"]) for record in report["cases"]) + 1
    loads = "  ".join(f"{load:14}" for load in GATE_LOADS)
    print(f"\n{'case':{width}} {loads} {'deleg.':>6}  {'max |diff| per output':26} detail")
    for record in report["cases"]:
        runs = record["runs"]
        outcomes = "  ".join(f"{runs[load]['outcome'] if load in runs else record['outcome']:14}"
                             for load in GATE_LOADS)
        first = next(iter(runs.values()), {})
        diffs = " ".join(f"{row['max_abs_diff']:.3g}" + ("" if row["ok"] else "!")
                         for row in first.get("outputs") or [])
        detail = run_detail(record)
        print(f"{record['case']:{width}} {outcomes} {record['delegates'] or 0:>6}  {diffs:26} "
              f"{detail.splitlines()[0][:100] if detail else ''}")
        if record["replay"]:
            replayed = record["replay"]
            same = {True: "same values as the runtime", False: "DIFFERENT values from the runtime",
                    None: "no program output comes straight from a delegate"}[replayed["agrees_with_runtime"]]
            control = "correct" if replayed["control_order_correct"] else "wrong"
            print(f"{'':{width}} replayed in plain OpenVINO: inputs first -> {same}; outputs first -> {control}")
    print("\n" + report["verdict"])


def show_progress(number: int, total: int, record: CaseRecord) -> None:
    """One line per case on a terminal (a run takes about a minute); nothing when piped."""
    if sys.stderr.isatty():
        loads = ", ".join(f"{load} {run['outcome']}" for load, run in record["runs"].items()) or record["outcome"]
        print(f"[{number}/{total}] {record['case']}: {loads}", file=sys.stderr, flush=True)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    """The options, every one checked (a one-line usage error, exit 2) before any case runs."""
    parser = cli.parser(__doc__.splitlines()[0], cli.BISECT_EXIT_CODES + " (with the workaround or a candidate: "
                        "1 means some case is not equal to eager)", prog="executorch_path.py")
    parser.add_argument("--partitioner", default="stock", metavar="NAME|module:Class",
                        help=f"one of {', '.join(sorted(LOWERINGS))}, or a candidate partitioner class by "
                             "import path (constructed with [CompileSpec('device', b'CPU')]), held to eager like "
                             "the workaround (default: stock)")
    parser.add_argument("--transform-pass", action="append", default=[], metavar="module:Class",
                        help="with a candidate partitioner: a transform pass class to lower with (repeatable)")
    parser.add_argument("--case", action="append", metavar="NAME",
                        help="run only this catalogue case (repeatable; the names are in "
                             "repro/harness/models/catalogue.py)")
    parser.add_argument("--replay", action="store_true", help="replay each delegate's blob in plain OpenVINO")
    parser.add_argument("--save-dir", type=Path, help="write each case's .pte file here (CASE.PARTITIONER.pte; "
                                                      "one already there is an error unless --force)")
    parser.add_argument("--force", action="store_true", help="with --save-dir: overwrite .pte files already there")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show what torch, torchao and the runtime print while they load (hidden by default)")
    args = parser.parse_args(argv)
    if unknown := [name for name in args.case or [] if name not in CASES]:
        parser.error(f"--case: no such case: {', '.join(unknown)} "
                     "(the names are in repro/harness/models/catalogue.py)")
    if ":" in args.partitioner:
        try:
            args.lowering = candidates.candidate_lowering(args.partitioner, args.transform_pass)
        except candidates.CandidateError as error:
            parser.error(str(error))
    elif args.partitioner not in LOWERINGS:
        parser.error(f"--partitioner: {args.partitioner!r} is neither one of {', '.join(sorted(LOWERINGS))} "
                     "nor module.path:ClassName")
    elif args.transform_pass:
        parser.error("--transform-pass goes with a candidate partitioner (--partitioner module.path:ClassName)")
    else:
        args.lowering = LOWERINGS[args.partitioner]
    if args.force and not args.save_dir:
        parser.error("--force goes with --save-dir")
    if args.save_dir:
        cli.require_writable(parser, "--save-dir", args.save_dir)
        cases = [CASES[name] for name in args.case] if args.case else CATALOGUE
        paths = [saved_program(args.save_dir, case, args.lowering) for case in cases]
        there = [path.name for path in paths if path.exists()]
        if there and not args.force:
            parser.error(f"--save-dir: {args.save_dir} already holds {len(there)} of the programs this run writes "
                         f"({', '.join(there[:3])}{', ...' if len(there) > 3 else ''}): give another folder, or "
                         "--force to overwrite them")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        with quiet.chatter_hidden(args.verbose):
            quiet.load_the_export_stack()
            check_runtime()
    except (Untestable, ImportError) as error:
        print(f"COULD NOT TEST: {error}", file=sys.stderr)
        if args.json:
            print(json.dumps({"exit_code": ExitStatus.UNTESTABLE, "verdict": f"COULD NOT TEST: {error}"}))
        return ExitStatus.UNTESTABLE
    cases = [CASES[name] for name in args.case] if args.case else CATALOGUE
    runners = {load: ProgramRunner(load) for load in GATE_LOADS}
    with tempfile.TemporaryDirectory() as scratch:
        try:
            records = []
            for number, case in enumerate(cases, 1):
                records.append(run_case(case, args.lowering, runners, args.save_dir or scratch,
                                        with_replay=args.replay))
                show_progress(number, len(cases), records[-1])
        finally:
            for runner in runners.values():
                runner.close()
    exit_code, verdict = summarize(records, args.lowering.name)
    report = {"environment": environment(), "seed": SEED, "partitioner": args.lowering.name, "loads": GATE_LOADS,
              "cases": records, "counts": outcome_counts(records), "verdict": verdict, "exit_code": exit_code}
    print(json.dumps(report, indent=1)) if args.json else print_table(report)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
