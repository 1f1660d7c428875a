"""The counts README.md and docs/ state, rendered from what they count, so no figure can go stale unnoticed.

A figure in the Markdown is written between two comments that name it::

    the catalogue's <!-- figure catalogue_cases -->86<!-- /figure --> cases

and ``FIGURES`` says how each is computed: from the catalogue and its stock expectations on the headline release,
the mutations and their recorded runs (``docs/data/mutation-runs.json``), the conformance record, the recorded
release matrix, the registry of differences (``workaround.contract.differences``: a whole table), the LLM tier's
cases, the last recorded run of each tox env (``docs/data/gate-runs.json``, which ``--record-gate`` fills from the
summary every tox run of the tests writes at its end, ``out/gate-runs/ENV.json``: ``tests/tools/gate_runs.py``) and
of the checker's differential fuzz (``docs/data/checker-fuzz.json``, written by ``python -m benchmarks.checker_fuzz
--record``), and the real-width LLM benchmark's (``docs/data/llm-real-width.json``, ``python -m
benchmarks.llm_real_width --record``). ``tests/gate/test_figures.py`` fails, naming the file, the figure and both
values, when the text disagrees.

In the gate's env (the catalogue needs torch), from the project's folder:

    python -m tests.tools.figures              # check: exit 0 every figure current, 1 some stale
    python -m tests.tools.figures --write      # rewrite the stale ones in place
    python -m tests.tools.figures --record-gate out/gate-runs/*.json --write   # keep those runs as their envs'
    last

Exit status: 0 current (or written), 1 some figure stale or unknown, 2 usage error.
"""

import json
import re
import shlex
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tests.tools.gate_runs import OUTCOMES, read_record
from workaround.checker.command_line import OneLineErrors

PROJECT = Path(__file__).resolve().parents[2]
DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
GATE_RUNS = PROJECT / "docs" / "data" / "gate-runs.json"
CHECKER_FUZZ = PROJECT / "docs" / "data" / "checker-fuzz.json"
LLM_REAL_WIDTH = PROJECT / "docs" / "data" / "llm-real-width.json"
HEADLINE_OPENVINO = "2026.4.1"
BUDGET_MINUTES = {"ov2026.4": 6, "upstream": 8}  # installed, 2 cores
# The stock outcomes the README counts are the gate's: OpenVINO 2026.4.1, the class the gate computes as (f32).
HEADLINE_CLASS = "avx512"
FIGURE = re.compile(r"<!-- figure ([a-z0-9_.@-]+) -->(.*?)<!-- /figure -->", re.S)


@dataclass(frozen=True)
class Stale:
    document: Path
    figure: str
    written: str
    current: str | None  # None: no figure of that name

    def describe(self) -> str:
        where = self.document.relative_to(PROJECT) if self.document.is_relative_to(PROJECT) else self.document
        if self.current is None:
            return (f"{where}: no figure named {self.figure!r} (tests/tools/figures.py FIGURES), or no such run "
                    f"recorded ({GATE_RUNS.relative_to(PROJECT)}, {CHECKER_FUZZ.relative_to(PROJECT)})")
        return f"{where}: figure {self.figure} says {self.written!r}, it is {self.current!r}"


@cache
def stock_kinds() -> Counter[str]:
    """Each catalogue case's stock outcome on the headline release, its first failure counted: from bytes, else by
    path (``tests.support.release_behaviour.stock_outcome``, the gate's own expectations)."""
    from packaging.version import Version

    from repro.harness.cases.outcomes import Outcome
    from repro.harness.models.catalogue import CATALOGUE
    from tests.support.release_behaviour import CRASHED_OR_WRONG, stock_outcome

    def kind(case: object) -> str:
        from_bytes, _ = stock_outcome(case, "bytes", Version(HEADLINE_OPENVINO), HEADLINE_CLASS)
        if from_bytes == Outcome.WRONG:
            return "wrong_from_bytes"
        if from_bytes != Outcome.CORRECT:
            return "failing_from_bytes"
        by_path, _ = stock_outcome(case, "path", Version(HEADLINE_OPENVINO), HEADLINE_CLASS)
        return {Outcome.CORRECT: "correct", CRASHED_OR_WRONG: "crash_by_path"}.get(by_path, "unloadable_by_path")

    return Counter(kind(case) for case in CATALOGUE)


def catalogue_cases() -> int:
    from repro.harness.models.catalogue import CATALOGUE

    return len(CATALOGUE)


def mutations() -> dict[str, object]:
    from tests.tools.mutations import MUTATIONS, recorded_runs

    current = [run for run in recorded_runs().values() if run is not None]
    dates = sorted(run["date"] for run in current)
    return {"count": len(MUTATIONS), "last": list(MUTATIONS)[-1],
            "red": sum(1 for run in current if run["caught_by"]),
            "run_dates": " to ".join(dict.fromkeys([dates[0], dates[-1]])) if dates else "never"}


@cache
def headline_sweep() -> dict[str, dict[str, str]]:
    """The conformance record of the headline release, as the docs quote it (read once: every entry of the
    differences table counts its rows in it)."""
    from repro.harness.conformance.record import recorded

    return recorded(HEADLINE_OPENVINO, "avx512_bf16") or {}


def conformance() -> dict[str, int]:
    from repro.harness.conformance.record import not_swept_recorded

    cases = headline_sweep()
    return {"cases": len(cases), "ops": len({case.split("/")[0] for case in cases}),
            "not_swept": len(not_swept_recorded())}


def matrix_releases() -> int:
    """The releases the recorded matrix ran (every one on the index from 2023.0.0)."""
    return len(json.loads((PROJECT / "tests" / "data" / "matrix-all-releases.json").read_text())["available"])


def llm_cases() -> int:
    from repro.harness.llm.pipeline import every_case

    return len(every_case())


def minutes(seconds: float) -> str:
    whole_minutes, rest = divmod(round(seconds), 60)
    return f"{whole_minutes} min {rest} s"


def run_key(env: str, cpu_class: str) -> str:
    """Where a run is recorded: the env's name for a run on a host of the highest class, the one that computes as
    every class and so runs every test (README's "with every CPU class"); ``ENV@CLASS`` for a host of a lower
    class, which runs its own class only (an AVX2 host: fewer tests, its own kernels), so neither hides the
    other."""
    from repro.harness.cpu.classes import ORDER

    return env if cpu_class == ORDER[-1] else f"{env}@{cpu_class}"


def gate_run(key: str, field: str) -> str:
    """A field of the last run recorded under ``key`` (``run_key``); ``budget`` says whether its time was within
    the env's budget (the same minutes on every host), ``tests`` how many tests it ran (every outcome counted)."""
    run = read_record(GATE_RUNS)[key]
    if field == "tests":
        return str(sum(run[outcome] for outcome in OUTCOMES))
    if field == "budget":
        budget = BUDGET_MINUTES[key.partition("@")[0]]
        return f"{'within' if run['seconds'] <= budget * 60 else 'over'} its {budget}-minute budget"
    return minutes(run["seconds"]) if field == "minutes" else str(run[field])


def checker_fuzz_run(field: str) -> str:
    """The recorded run of the checker's differential fuzz (``python -m benchmarks.checker_fuzz --record``):
    files, disagreements, minutes, verdicts (each pair of runtime and checker verdicts and its files, most
    first), date, commit."""
    run = read_record(CHECKER_FUZZ)
    rendered = {
        "files": lambda: f"{run['files']:,}",
        "disagreements": lambda: str(len(run["disagreements"])),
        "minutes": lambda: minutes(run["seconds"]),
        "verdicts": lambda: "; ".join(f"{pair}: {count:,}" for pair, count
                                      in sorted(run["counts"].items(), key=lambda item: -item[1])),
    }
    return rendered.get(field, lambda: str(run[field]))()


def conformance_rows(difference: object) -> int:
    """The recorded conformance rows that show a registry entry: its ops' rows the stock partitioner gets wrong,
    in the special-values variant for an entry of special values, in the others for the rest (OpenVINO's entries:
    the sweep runs no partitioner-free column)."""
    from workaround.contract.differences import Owner, op_names

    if difference.owner != Owner.OPENVINO:
        return 0
    bases = set(op_names(difference))
    return sum(1 for case_id, found in headline_sweep().items()
               if case_id.split("/")[0] in bases and found.get("stock") != "correct"
               and case_id.endswith("special values") == difference.special_values)


def what_the_workaround_does(difference: object) -> str:
    from workaround.contract.differences import Owner

    rewrite = f"`exact_rewrites/{difference.rewrite}.py`" if difference.rewrite else None
    if difference.owner == Owner.EXECUTORCH:
        return "never hands a node back to it: refused at lowering (`CannotHandBackError`) unless it stays exact"
    if not difference.rule:
        return f"keeps it delegated, rewritten exactly ({rewrite})" if rewrite else \
            "pins `DYNAMIC_QUANTIZATION_GROUP_SIZE` to 0 in the blob (asked-for speed aside)"
    handed = f"hands it back (`{difference.rule}`)" + (f", or rewrites it exactly ({rewrite})" if rewrite else "")
    return f'with `special_values="torch"`: {handed}' if difference.special_values else handed


def differences_of(owner: str) -> int:
    from workaround.contract.differences import DIFFERENCES

    return sum(1 for difference in DIFFERENCES if difference.owner == owner)


BY_DTYPE = "any, by its tensors' dtypes"  # then the dtypes the entry names


def differences_table() -> str:
    """README.md's table of every way OpenVINO or ExecuTorch's kernels compute differently (the registry)."""
    from workaround.contract.differences import DIFFERENCES, op_names

    rows = ["| what differs | ops | whose, measured on | the workaround | `openvino-pte-check` | held by |",
            "|---|---|---|---|---|---|"]
    for difference in DIFFERENCES:
        dtypes = ": " + ", ".join(f"`{dtype}`" for dtype in difference.dtypes) if difference.dtypes else ""
        ops = ", ".join(f"`{name}`" for name in op_names(difference)) or BY_DTYPE + dtypes
        checker = f"`{difference.finding}`" if difference.finding else f"not visible: {difference.unseen}"
        held = [f"`{case}`" for case in difference.cases]
        if rows_held := conformance_rows(difference):
            held.append(f"{rows_held} conformance row{'s' if rows_held > 1 else ''} of its ops wrong")
        rows.append(f"| {difference.computes} | {ops} | {difference.owner}: {difference.measured} | "
                    f"{what_the_workaround_does(difference)} | {checker} | {', '.join(held) or '-'} |")
    return "\n" + "\n".join(rows) + "\n"


def mutation_runs_table() -> str:
    """docs/gate.md's table of each mutation's recorded run (``python -m tests.tools.mutations --record``)."""
    from tests.tools.mutations import MUTATIONS, recorded_runs

    rows = ["| | what it breaks | recorded run | caught first by | run with |", "|---|---|---|---|---|"]
    for name, run in recorded_runs().items():
        what = MUTATIONS[name][0]
        if run is None:
            rows.append(f"| {name} | {what} | none of this definition | - | - |")
            continue
        verdict = f"red in {run['seconds']} s" if run["caught_by"] else f"**not caught** (exit {run['gate_exit']})"
        caught = f"`{run['caught_by'][0]}`" if run["caught_by"] else "-"
        arguments = f"`{shlex.join(run['pytest_arguments'])}`" if run["pytest_arguments"] else "the whole gate"
        rows.append(f"| {name} | {what} | {verdict}, {run['date']} at {run['commit']} | {caught} | {arguments} |")
    return "\n" + "\n".join(rows) + "\n"


def llm_real_width_table() -> str:
    """The real-width LLM benchmark's ratios against their goals, one column per recorded CPU class, precision and
    depth (``python -m benchmarks.llm_real_width --record``), each with the dates it ran."""
    runs = read_record(LLM_REAL_WIDTH)
    names = list(dict.fromkeys(name for run in runs.values() for name in run["ratios"]))
    goals = {name: run["ratios"][name]["at most"] for run in runs.values() for name in run["ratios"]}

    def cell(run: dict, name: str) -> str:
        ratio = run["ratios"].get(name)
        if ratio is None:
            return "-"
        return f"**{ratio['ratio']:.2f}**" if ratio["met"] else f"{ratio['ratio']:.2f}, not met"

    lines = [f"| ratio | at most | {' | '.join(llm_run_headers(runs))} |", f"|---|---|{'---|' * len(runs)}"]
    lines += [f"| {name} | {goals[name]} | {' | '.join(cell(run, name) for run in runs.values())} |"
              for name in names]
    return "\n" + "\n".join(lines) + "\n"


def llm_run_headers(runs: dict) -> list[str]:
    return [f"{key} ({', '.join(sorted({r['date'] for r in run['runs']}))})" for key, run in runs.items()]


def llm_real_width_timings() -> str:
    """The real-width LLM benchmark's medians, tokens per second and resident memory added, per candidate, one
    column per recorded CPU class and precision; then each program's export seconds."""
    runs = read_record(LLM_REAL_WIDTH)
    names = list(dict.fromkeys(name for run in runs.values() for name in run["timings"]))
    exports = list(dict.fromkeys(name for run in runs.values() for name in run["export_seconds"]))

    def cell(run: dict, name: str) -> str:
        timing = run["timings"].get(name)
        return "-" if timing is None else (f"{timing['median_ms']:.1f} ms ({timing['tokens_per_s']:g} tok/s, "
                                           f"+{timing['resident_added_mb']} MB)")

    lines = [f"| candidate | {' | '.join(llm_run_headers(runs))} |", f"|---|{'---|' * len(runs)}"]
    lines += [f"| {name} | {' | '.join(cell(run, name) for run in runs.values())} |" for name in names]
    seconds = [[f"{run['export_seconds'][name]} s" if name in run["export_seconds"] else "-"
                for run in runs.values()] for name in exports]
    lines += [f"| {name} | {' | '.join(cells)} |" for name, cells in zip(exports, seconds, strict=True)]
    return "\n" + "\n".join(lines) + "\n"


def stock(kind: str) -> Callable[[], int]:
    return lambda: stock_kinds()[kind]


FIGURES: dict[str, Callable[[], object]] = {
    "catalogue_cases": catalogue_cases,
    "stock_bad": lambda: catalogue_cases() - stock_kinds()["correct"],
    "stock_wrong_from_bytes": stock("wrong_from_bytes"),
    "stock_failing_from_bytes": stock("failing_from_bytes"),
    "stock_crash_by_path": stock("crash_by_path"),
    "stock_unloadable_by_path": stock("unloadable_by_path"),
    "mutations": lambda: mutations()["count"],
    "mutations_last": lambda: mutations()["last"],
    "mutations_red": lambda: mutations()["red"],
    "mutations_run_dates": lambda: mutations()["run_dates"],
    "mutation_runs_table": mutation_runs_table,
    "conformance_cases": lambda: conformance()["cases"],
    "conformance_ops": lambda: conformance()["ops"],
    "conformance_not_swept": lambda: conformance()["not_swept"],
    "llm_cases": llm_cases,
    "matrix_releases": matrix_releases,
    "differences_openvino": lambda: differences_of("OpenVINO CPU plugin"),
    "differences_executorch": lambda: differences_of("ExecuTorch portable kernels"),
    "differences_table": differences_table,
    "llm_real_width_table": llm_real_width_table,
    "llm_real_width_timings": llm_real_width_timings,
}


def current(name: str) -> str | None:
    """The figure's value as the text writes it; gate figures are ``gate.KEY.FIELD`` (KEY: ``run_key``; FIELD:
    passed, xfailed, skipped, minutes, date, commit, budget), the checker fuzz's ``checker_fuzz.FIELD``
    (``checker_fuzz_run``)."""
    try:
        if name.startswith("gate."):
            return gate_run(*name.removeprefix("gate.").rsplit(".", 1))
        if name.startswith("checker_fuzz."):
            return checker_fuzz_run(name.removeprefix("checker_fuzz."))
    except (KeyError, TypeError):
        return None
    return str(FIGURES[name]()) if name in FIGURES else None


def stale_figures(documents: list[Path] = DOCUMENTS) -> list[Stale]:
    return [Stale(document, match.group(1), match.group(2), value)
            for document in documents for match in FIGURE.finditer(document.read_text())
            if (value := current(match.group(1))) != match.group(2)]


def write(found: list[Stale]) -> None:
    for document in {stale.document for stale in found}:
        document.write_text(FIGURE.sub(lambda match: f"<!-- figure {match.group(1)} -->"
                                       f"{current(match.group(1)) or match.group(2)}<!-- /figure -->",
                                       document.read_text()))


def record_gate(summary: Path) -> str:
    """Keep a gate run's summary (what ``tests/conftest.py`` writes) as its env's last recorded run on its host's
    class (``run_key``)."""
    run = json.loads(summary.read_text())
    runs = read_record(GATE_RUNS)
    runs[run_key(run.pop("env"), run["cpu_class"])] = run
    GATE_RUNS.parent.mkdir(parents=True, exist_ok=True)
    GATE_RUNS.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n")
    return f"{GATE_RUNS.relative_to(PROJECT)}: recorded {summary}"


def main(argv: list[str] | None = None) -> int:
    parser = OneLineErrors(prog="python -m tests.tools.figures", description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite every stale figure in place")
    parser.add_argument("--record-gate", type=Path, nargs="+", default=[], metavar="SUMMARY",
                        help="first keep these runs' summaries (out/gate-runs/ENV.json) as their envs' last runs")
    args = parser.parse_args(argv)
    if missing := [str(summary) for summary in args.record_gate if not summary.is_file()]:
        parser.error(f"no such run summary: {', '.join(missing)} (a tox run of the tests writes "
                     "out/gate-runs/ENV.json)")
    for summary in args.record_gate:
        print(record_gate(summary))
    found = stale_figures()
    if args.write:
        write([stale for stale in found if stale.current is not None])
        found = [stale for stale in found if stale.current is None]
    for stale in found:
        print(stale.describe())
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
