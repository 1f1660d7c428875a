"""The checker's differential fuzz in full: every truncation and single-byte flip of both tracked sample programs
(``tests/support/checker_fuzz.py``), each loaded by path in ExecuTorch's runtime and checked by the checker, both
in processes of their own. Prints one JSON object: the counts, the time, and every disagreement (a file the runtime
refuses that the checker calls clean, a checker exit other than 0, 1 or 2, a traceback). Exit 1 if there is one.
``--record`` also keeps a full run, with its date and commit, as the one README.md and docs/ quote
(``docs/data/checker-fuzz.json``, rendered by ``python -m tests.tools.figures --write``).

    python -m benchmarks.checker_fuzz [--jobs 2] [--every N | --record]
"""

import json
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

from repro.harness import cli
from repro.harness.runtime.program_runner import ProgramRunner
from tests.support.checker_fuzz import CheckerRunner, corpus, differ
from tests.tools.figures import CHECKER_FUZZ, PROJECT
from tests.tools.gate_runs import commit, today


def sweep(mutants, folder):
    with ProgramRunner("path", timeout=60) as runtime, CheckerRunner() as checker:
        return differ(mutants, runtime, checker, folder)


def main(argv=None):
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 no disagreement, 1 some, 2 usage error",
                        prog="python -m benchmarks.checker_fuzz")
    parser.add_argument("--jobs", type=cli.positive_int, default=2,
                        help="runtime/checker pairs run side by side (default 2)")
    parser.add_argument("--every", type=cli.positive_int, default=1,
                        help="only every Nth file of the corpus (a quick look; default 1: all)")
    parser.add_argument("--record", action="store_true",
                        help=f"also keep this run as the recorded one ({CHECKER_FUZZ.relative_to(PROJECT)})")
    args = parser.parse_args(argv)
    if args.record and args.every != 1:
        parser.error("--record keeps a full run: leave out --every")
    mutants = list(corpus())[::args.every]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(args.jobs) as pool:
        shares = [mutants[job::args.jobs] for job in range(args.jobs)]
        folders = [Path(folder) / str(job) for job in range(args.jobs)]
        for job_folder in folders:
            job_folder.mkdir()
        results = list(pool.map(sweep, shares, folders))
    counts: dict[str, int] = {}
    found = []
    for disagreements, share_counts in results:
        found += disagreements
        for key, value in share_counts.items():
            counts[key] = counts.get(key, 0) + value
    run = {"files": len(mutants), "seconds": round(time.monotonic() - started, 1), "counts": counts,
           "disagreements": [asdict(d) for d in found]}
    print(json.dumps(run, indent=1))
    if args.record:
        run |= {"date": today(), "commit": commit(), "jobs": args.jobs}
        CHECKER_FUZZ.write_text(json.dumps(run, indent=1) + "\n")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
