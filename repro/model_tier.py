"""The model tier (``tox -e models``): real architectures through the stock partitioner and the workaround.

Each model of ``repro/harness/models/real_models.py`` (transformers, tiny configs, random weights) is
exported, lowered stock and with the workaround, saved, and run in the real runtime in child processes,
from bytes and by path; each output is compared with eager PyTorch. Prints one table: model x partitioner
x load -> correct / wrong by X / failed (why). Not part of the gate's time budget.

Exit status: 0 every workaround run equals eager, 1 some workaround run does not, 2 usage error.
"""

import contextlib
import importlib.util
import json
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cases.outcomes import AT_EXPORT, Outcome
from repro.harness.cases.record import CaseRecord
from repro.harness.cli import ExitStatus
from repro.harness.models import real_models


def load_cell(record: CaseRecord, load: str) -> str:
    """One table cell: how the program ran when loaded that way."""
    if record["outcome"] in AT_EXPORT:
        return f"{record['outcome'].replace('_', ' ')}: {record['lowering_error'][:100]}"
    run = record["runs"][load]
    if run["outcome"] == Outcome.CORRECT:
        return "correct"
    if run["outcome"] == Outcome.WRONG:
        return f"**wrong** by {max(row['max_abs_diff'] for row in run['outputs'] if not row['ok']):.3g}"
    detail = run.get("detail", "").split("; log:")[0].removeprefix("crashed: ")  # the signal, not the log
    return f"**{run['outcome'].replace('_', ' ')}**: {detail[:100]}"


def table(records: Sequence[CaseRecord], loads: Sequence[str]) -> str:
    lines = ["| model | partitioner | " + " | ".join(loads) + " |", "|---|---|" + "---|" * len(loads)]
    lines += [f"| {r['case']} | {r['partitioner']} | " + " | ".join(load_cell(r, load) for load in loads) + " |"
              for r in records]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 every workaround run equals eager, 1 some "
                        "workaround run does not, 2 usage error, 125 could not test (transformers or the "
                        "ExecuTorch stack is missing)")
    parser.add_argument("--models", type=cli.comma_separated,
                        help="comma-separated model names (default: all)")
    parser.add_argument("--json", type=Path, help="also write the records to this file")
    args = parser.parse_args(argv)
    if args.json:
        cli.require_writable(parser, "--json", args.json.parent)
    if unknown := [name for name in args.models or [] if name not in real_models.MODELS]:
        parser.error(f"--models: unknown {', '.join(unknown)} (known: {', '.join(real_models.MODELS)})")
    if missing := [name for name in ("transformers", "executorch") if importlib.util.find_spec(name) is None]:
        print(f"COULD NOT TEST: {', '.join(missing)} not installed (tox -e models installs the model tier's "
              "stack)", file=sys.stderr)
        return ExitStatus.UNTESTABLE
    from repro.harness.cases.runs import GATE_LOADS, run_case  # torch, executorch: after the usage checks
    from repro.harness.lowering.named import STOCK, WORKAROUND
    from repro.harness.runtime.program_runner import ProgramRunner

    cases = [real_models.case(name) for name in args.models or real_models.MODELS]
    records = []
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stack:
        runners = {load: stack.enter_context(ProgramRunner(load)) for load in GATE_LOADS}
        for case in cases:
            for lowering in (STOCK, WORKAROUND):
                print(f"{case.name}: {lowering.name}", file=sys.stderr, flush=True)
                records.append(run_case(case, lowering, runners, folder))
    print(table(records, GATE_LOADS))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([{k: v for k, v in r.items() if k != "traceback"} for r in records],
                                        indent=1, default=str))
    failing = [r["case"] for r in records
               if r["partitioner"] == WORKAROUND.name and r["outcome"] != Outcome.CORRECT]
    print(f"workaround: {len(cases) - len(failing)} of {len(cases)} models equal eager both ways"
          + (f"; not: {', '.join(failing)}" if failing else ""))
    return ExitStatus.BUG if failing else ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
