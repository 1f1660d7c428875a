"""The LLM tier (``tox -e llm``): ExecuTorch's LLM pipeline with the OpenVINO backend, stock and workaround.

Each case (``repro/harness/llm/pipeline.py``: a tiny random-weight checkpoint of a model class the pipeline knows,
a KV cache or not, static or dynamic shapes, weights uncompressed or compressed by NNCF to 8 or 4 bits) is
exported as ``export_llm`` exports it, then its program runs in the real runtime from bytes and by path: a prefill
and greedy decode steps, each call's logits held to the reference's (the graph the pipeline handed the
partitioner, run by PyTorch). Prints one table; ``--json`` keeps the records.

Exit status: 0 every workaround case equals its reference both ways, 1 some does not (or fails to export), 2 usage
error, 125 could not test (the ExecuTorch stack or NNCF is missing).
"""

import contextlib
import importlib.util
import json
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cli import ExitStatus
from repro.harness.llm.pipeline import LlmCase, every_case
from repro.harness.runtime.program_runner import Load
from repro.reports import markdown as md

# What the tier holds to the reference (the pipeline also exports with XNNPACK, the benchmark's peer).
COMPARED_LOWERINGS = ("stock", "workaround")
LOADS = (Load.BYTES, Load.PATH)


def cell(record, load: str) -> str:
    export = record.export
    if export.error is not None:
        return f"export failed: {export.error[:120]}"
    run = record.runs[load]
    if run.max_relative_difference is None:
        return f"**{run.status.replace('_', ' ')}**: {run.detail.removeprefix('crashed: ')[:100]}"
    verdict = "equal" if run.equal else "**differs**"
    return f"{verdict} ({run.max_relative_difference:.1e})"


def contents(record) -> str:
    export = record.export
    if export.delegates is None:
        return ""
    share = export.nodes_outside / max(1, export.nodes_inside + export.nodes_outside)
    return f"{export.delegates} / {export.nodes_outside} ({share:.0%}) / {export.buffers_outside}"


def table(records: Sequence) -> str:
    return md.table(["case", "lowering", "delegates / nodes outside / caches crossing", *LOADS],
                    [[r.export.case, r.export.lowering, contents(r), *(cell(r, load) for load in LOADS)]
                     for r in records])


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 every workaround case equals its reference both "
                        "ways, 1 some does not, 2 usage error, 125 could not test (the ExecuTorch stack or NNCF "
                        "is missing)")
    parser.add_argument("--cases", type=cli.comma_separated,
                        help="comma-separated case names, MODEL-kv|nokv-static|dynamic-none|8wo|4wo (default: "
                             "every one)")
    parser.add_argument("--json", type=Path, help="also write the records to this file")
    parser.add_argument("--jobs", type=cli.positive_int, default=2, help="exports run side by side (default 2)")
    args = parser.parse_args(argv)
    if args.json:
        cli.require_writable(parser, "--json", args.json.parent)
    try:
        cases = [LlmCase.from_name(name) for name in args.cases] if args.cases else every_case()
    except ValueError as error:
        parser.error(f"--cases: {error}")
    if missing := [name for name in ("executorch", "nncf") if importlib.util.find_spec(name) is None]:
        print(f"COULD NOT TEST: {', '.join(missing)} not installed (tox -e llm installs the pipeline's stack)",
              file=sys.stderr)
        return ExitStatus.UNTESTABLE
    from repro.harness.cpu.classes import process_class
    from repro.harness.cpu.precision import f32_environment
    from repro.harness.llm.runs import exported, record_of
    from repro.harness.runtime.program_runner import ProgramRunner

    pairs = [(case, lowering) for case in cases for lowering in COMPARED_LOWERINGS]
    with tempfile.TemporaryDirectory() as scratch, contextlib.ExitStack() as stack:
        folder = Path(scratch)
        with ThreadPoolExecutor(args.jobs) as pool:
            exports = list(pool.map(lambda pair: exported(pair[0], pair[1], folder / f"{pair[0].name}.{pair[1]}"),
                                    pairs))
        runners = {load: stack.enter_context(ProgramRunner(load, environment=f32_environment(process_class())))
                   for load in LOADS}
        records = []
        for (case, lowering), export in zip(pairs, exports, strict=True):
            print(f"{case.name}: {lowering}", file=sys.stderr, flush=True)
            records.append(record_of(export, folder / f"{case.name}.{lowering}", runners))
    print(table(records))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps([record.as_json() for record in records], indent=1))
    failing = [r.export.case for r in records if r.export.lowering == "workaround" and not r.equal]
    print(f"workaround: {len(cases) - len(failing)} of {len(cases)} LLM cases equal their reference both ways"
          + (f"; not: {', '.join(failing)}" if failing else ""))
    return ExitStatus.BUG if failing else ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
