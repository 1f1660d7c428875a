"""The per-op conformance sweep (``tox -e conformance``): every op of OpenVINO's PyTorch support list, called
as PyTorch's OpInfo database calls it, lowered stock and with the workaround, run in the real runtime with
OpenVINO computing in f32, compared with eager (``repro/harness/conformance.py``).

Each outcome is held to the one recorded for the installed OpenVINO release
(``repro/harness/conformance_expected.json``): a difference is upstream changing behaviour (re-check, then
``--record``) or the workaround regressing. ``--markdown`` writes the per-op table (docs/conformance.md).

Exit status: 0 every outcome is the recorded one, 1 some differ (or this release was never recorded),
2 usage error, 125 could not test (no ExecuTorch runtime).
"""

import argparse
import sys
import tempfile
from pathlib import Path

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cli import ExitStatus


def shard(text: str) -> tuple[int, int]:
    """argparse type: "K/N" with 1 <= K <= N."""
    try:
        number, count = (int(part) for part in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not K/N: {text!r}") from None
    if not 1 <= number <= count:
        raise argparse.ArgumentTypeError(f"K must be between 1 and N: {text!r}")
    return number, count


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
    args = parser.parse_args(argv)
    if args.markdown:
        cli.require_writable(parser, "--markdown", args.markdown.parent)
    from importlib.metadata import version

    from repro.harness import conformance, conformance_record, runtime  # torch, executorch: after the usage checks
    from repro.harness.lowerings import LOWERINGS
    from repro.harness.program_runner import ProgramRunner

    if args.ops and (unknown := sorted(args.ops - set(conformance.supported_ops()))):
        parser.error(f"--ops: not in OpenVINO's support list: {', '.join(unknown)}")
    try:
        runtime.check_runtime()
    except Exception as error:
        print(f"conformance: cannot run ExecuTorch programs here: {error}", file=sys.stderr)
        return ExitStatus.UNTESTABLE
    release = version("openvino")
    cases = conformance.sweep_cases(args.ops)
    if args.shard:
        cases = cases[args.shard[0] - 1::args.shard[1]]

    def progress(number, case, found):
        print(f"[{number + 1}/{len(cases)}] {case.id}: " + ", ".join(f"{name} {outcome}" for name, outcome in
                                                              found.items()), flush=True)

    with tempfile.TemporaryDirectory() as folder, ProgramRunner(
            "bytes", environment=conformance.F32_ENVIRONMENT) as runner:
        lowerings = [LOWERINGS[name] for name in conformance_record.LOWERINGS]
        outcomes = conformance.run_sweep(cases, runner, folder, lowerings, progress)
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(conformance_record.markdown(outcomes, release))
    if args.record:
        conformance_record.record(release, outcomes, replace=args.shard is None and args.ops is None)
        print(f"conformance: recorded {len(outcomes)} outcomes for OpenVINO {release}")
        return ExitStatus.CORRECT
    expected = conformance_record.recorded(release)
    if expected is None:
        print(f"conformance: nothing recorded for OpenVINO {release}: check the outcomes, then run with --record")
        return ExitStatus.BUG
    changed = conformance_record.differences(outcomes, expected)  # the cases this run made, whole sweep or not
    for line in changed:
        print(f"conformance: changed: {line}")
    print(f"conformance: {len(outcomes)} cases, {len(changed)} differ from what was recorded for OpenVINO "
          f"{release}")
    return ExitStatus.BUG if changed else ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
