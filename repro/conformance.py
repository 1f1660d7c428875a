"""The per-op conformance sweep (``tox -e conformance``): every op of OpenVINO's PyTorch support list, called
as PyTorch's OpInfo database calls it, lowered stock and with the workaround, run in the real runtime with
OpenVINO computing in f32, compared with eager (``repro/harness/conformance/per_op.py``).

Each outcome is held to the one recorded for the installed OpenVINO release on this process's CPU class
(``repro/harness/conformance/expected.json``; ``repro/harness/cpu/classes.py``): a difference is upstream
changing behaviour (re-check, then ``--record``) or the workaround regressing. ``--cpu-class`` runs the sweep as
a lower class computes (an AVX-512 host reaches ``avx2``). ``--markdown`` writes the per-op table
(docs/conformance.md).

Exit status: 0 every outcome is the recorded one, 1 some differ (or this release and class were never recorded),
2 usage error, 125 could not test (no ExecuTorch runtime).
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cli import ExitStatus
from repro.harness.conformance import record as conformance_record
from repro.harness.cpu import classes as cpu_classes


def shard(text: str) -> tuple[int, int]:
    """argparse type: "K/N" with 1 <= K <= N."""
    try:
        number, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not K/N: {text!r}") from None
    if not 1 <= number <= count:
        raise argparse.ArgumentTypeError(f"K must be between 1 and N: {text!r}")
    return number, count


def computing_as(parser: argparse.ArgumentParser, asked: str | None) -> cpu_classes.CpuClass:
    """The class this process computes as: the one asked for (its caps set before OpenVINO loads), else the host's
    under the caps already set; one usage line where the host cannot reach it or no class is measured for it."""
    reachable = cpu_classes.reachable_classes()
    if asked:
        if asked not in reachable:
            parser.error(f"--cpu-class: this host reaches {', '.join(reachable) or 'no class'}, not {asked}")
        os.environ.update(cpu_classes.environment_for(cpu_classes.CpuClass(asked)))
    try:
        return cpu_classes.process_class()
    except cpu_classes.UnmeasuredCpuClass as error:
        parser.error(str(error))


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 every outcome is the recorded one, 1 some "
                        "differ (or none is recorded for this release), 2 usage error, 125 could not test")
    parser.add_argument("--ops", type=lambda text: {item for item in text.split(",") if item},
                        help="comma-separated support-list names to sweep (default: all)")
    parser.add_argument("--markdown", type=Path, help="write the per-op table here")
    parser.add_argument("--record", action="store_true",
                        help="keep this run's outcomes as the expectations of the installed OpenVINO release "
                             "(a whole sweep replaces them; a shard or --ops is merged in)")
    parser.add_argument("--shard", type=shard, metavar="K/N",
                        help="run every N-th case from the K-th (run N shards side by side on N cores)")
    parser.add_argument("--lowering", action="append", dest="lowerings",
                        choices=conformance_record.LOWERINGS,
                        help="run only this lowering (repeatable; default: all three); with --record its column "
                             "is merged into what is recorded")
    parser.add_argument("--cpu-class", choices=[str(cpu_class) for cpu_class in cpu_classes.ORDER],
                        help="compute as this CPU class (capping oneDNN's ISA; this host reaches "
                             f"{', '.join(cpu_classes.reachable_classes()) or 'none'}; default: the host's, or "
                             "the cap already set)")
    args = parser.parse_args(argv)
    if args.markdown:
        cli.require_writable(parser, "--markdown", args.markdown.parent)
        if args.lowerings:
            parser.error("--markdown writes the table of all three lowerings: leave out --lowering")
    cpu_class = computing_as(parser, args.cpu_class)
    from importlib.metadata import version

    from repro.harness.conformance import per_op
    from repro.harness.lowering.named import LOWERINGS
    from repro.harness.runtime.available import check_runtime  # torch, executorch: after the usage checks
    from repro.harness.runtime.program_runner import ProgramRunner

    if args.ops and (unknown := sorted(args.ops - set(per_op.supported_ops()))):
        parser.error(f"--ops: not in OpenVINO's support list: {', '.join(unknown)}")
    try:
        check_runtime()
    except Exception as error:
        print(f"conformance: cannot run ExecuTorch programs here: {error}", file=sys.stderr)
        return ExitStatus.UNTESTABLE
    release = version("openvino")
    swept = per_op.sweep(args.ops)
    cases = swept.cases[args.shard[0] - 1::args.shard[1]] if args.shard else swept.cases
    not_swept = [f"`{item.op}` ({item.opinfo}), {item.variant}: {item.reason}" for item in swept.not_swept]
    for line in not_swept:
        print(f"conformance: not swept: {line}")

    def progress(number, case, found):
        print(f"[{number + 1}/{len(cases)}] {case.id}: " + ", ".join(f"{name} {outcome}" for name, outcome in
                                                              found.items()), flush=True)

    with tempfile.TemporaryDirectory() as folder, ProgramRunner(
            "bytes", environment=per_op.F32_ENVIRONMENT) as runner:
        lowerings = [LOWERINGS[name] for name in args.lowerings or conformance_record.LOWERINGS]
        outcomes = per_op.run_sweep(cases, runner, folder, lowerings, progress)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(conformance_record.markdown(outcomes, release, cpu_class, not_swept))
    if args.record:
        whole = args.shard is None and args.ops is None and args.lowerings is None
        conformance_record.record(release, cpu_class, outcomes, replace=whole)
        if args.ops is None:  # every op's variants were made, whichever shard ran
            conformance_record.record_not_swept(not_swept, version("torch"))
        print(f"conformance: recorded {len(outcomes)} outcomes for OpenVINO {release} on {cpu_class}")
        return ExitStatus.CORRECT
    expected = conformance_record.recorded(release, cpu_class)
    if expected is None:
        print(f"conformance: nothing recorded for OpenVINO {release} on {cpu_class}: check the outcomes, then run "
              "with --record")
        return ExitStatus.BUG
    # the cases (and lowerings) this run made, whole sweep or not
    changed = conformance_record.differences(outcomes, expected)
    for line in changed:
        print(f"conformance: changed: {line}")
    print(f"conformance: {len(outcomes)} cases ({len(not_swept)} variants not swept), {len(changed)} differ from "
          f"what was recorded for OpenVINO {release} on {cpu_class}")
    return ExitStatus.BUG if changed else ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
