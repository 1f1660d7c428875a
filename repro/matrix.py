"""Run the reproducers over many OpenVINO releases and write the release table and reports.

Each release runs in its own environment (``repro/matrix_runs.py``); one release failing
becomes a row with that status, it never stops the run.

Usage::

    python repro/matrix.py [--versions 2024.0.0,2026.4] [--executorch] [-j 2]
                           [--out out/matrix] [--reports out/reports]

``--versions`` takes releases (2024.0.0) or series (2025.4: its newest patch on the index);
default: every release on the index from 2023.0.0 on. Each release runs ``plain_openvino.py``
(Python, C and, where the wheel ships headers and a compiler exists, C++), the report's snippet
(``attachments/openvino_stale_copies.py``, its output kept verbatim) and
the import-lifetime report's shell lines (``repro/attachment_commands.py``: the C program, the C++ overload
check, the ``nm`` line) verbatim (and, with ``--executorch``, ``executorch_path.py``, the two
ExecuTorch reports' reproducers, ``torch.utils.collect_env`` and the op tests our ExecuTorch patches add, with
and without them; with ``--executorch-source DIR`` too, the frees-blob reproducer with the backend rebuilt
from that ExecuTorch checkout with our patch). ``--executorch-versions 1.4.1,1.5.1`` runs the
ExecuTorch part once per ExecuTorch release, each in its own environment; the rows keep each release's
results (``executorch_releases``) and the table shows them side by side. Writes ``matrix.json`` and
``matrix.md`` to ``--out``, and
with ``--reports`` the upstream issue bodies (``repro/reports/upstream.py``). With ``--reports``
the matrix first completes the boundaries: it also runs the oldest release on the index and bisects
every symptom's change between two measured releases (``repro/reports/release_boundaries.py``; not the
timed costs', which flip near their thresholds, and those releases skip the timed reproducers), so the reports
name each first bad release whatever subset was asked for. Exit status: 0 when the table
was written, 2 for a usage error.
"""

import functools
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from packaging.version import Version

if not __package__:
    import _as_script  # noqa: F401  (run by path: make the project's packages importable)

from repro.harness import cli
from repro.harness.cli import ExitStatus
from repro.harness.lowering import executorch_patches
from repro.matrix_runs import PROJECT, run_matrix
from repro.releases import HEADLINE_EXECUTORCH, discover_releases, executorch_list, release_list, resolve
from repro.reports import matrix_report, release_boundaries, upstream


def main(argv: list[str] | None = None) -> int:
    parser = cli.parser(__doc__.splitlines()[0], "exit status: 0 the table was written, 2 usage error "
                        "(checked before anything is installed or written)")
    parser.add_argument("--versions", type=release_list, help="comma-separated releases or series")
    parser.add_argument("--executorch", action="store_true",
                        help=f"also run the ExecuTorch path (>= 2024.4) with executorch {HEADLINE_EXECUTORCH}")
    parser.add_argument("--executorch-versions", type=executorch_list, metavar="RELEASES",
                        help="comma-separated ExecuTorch releases to run the ExecuTorch path with, each in its "
                             "own environment (implies --executorch; the newest also runs the patches)")
    parser.add_argument("-j", "--jobs", type=cli.positive_int, default=2, help="releases prepared and run at once")
    parser.add_argument("--out", type=Path, default=PROJECT / "out" / "matrix",
                        help="folder for matrix.json and matrix.md (default: out/matrix)")
    parser.add_argument("--executorch-source", type=Path, default=None, metavar="DIR",
                        help="with --executorch: an ExecuTorch checkout to rebuild the OpenVINO backend from with "
                             "our patch (default: $EXECUTORCH_SOURCE)")
    parser.add_argument("--reports", type=Path, help="write the upstream issue bodies into this folder")
    parser.add_argument("--cache", type=Path, default=PROJECT / ".matrix" / "envs",
                        help="folder for the per-release environments, reused later (default: .matrix/envs)")
    parser.add_argument("--timeout", type=cli.positive_int, default=900,
                        help="seconds per install and per script run")
    args = parser.parse_args(argv)
    args.executorch = args.executorch or bool(args.executorch_versions)
    for option, folder in (("--out", args.out), ("--reports", args.reports), ("--cache", args.cache)):
        if folder:
            cli.require_writable(parser, option, folder)
    if args.executorch_source and not args.executorch:
        parser.error("--executorch-source goes with --executorch")
    try:  # $EXECUTORCH_SOURCE counts only with --executorch
        source = executorch_patches.source_tree(args.executorch_source) if args.executorch else None
    except executorch_patches.PatchFailed as error:
        parser.error(f"--executorch-source: {error}")
    available, index_note = discover_releases()
    requested = args.versions or available
    if unknown := [item for item in requested if resolve(item, available) is None]:
        parser.error(f"--versions: not on the package index: {', '.join(unknown)} ({index_note} Newest: "
                     f"{max(available, key=Version)}.)")
    print(index_note, file=sys.stderr)
    started = time.monotonic()
    versions = args.executorch_versions or ([HEADLINE_EXECUTORCH] if args.executorch else [])
    run = functools.partial(run_matrix, available=available, cache=args.cache, executorch_versions=versions,
                            jobs=args.jobs, timeout=args.timeout, executorch_source=source)
    rows = run(requested)
    while args.reports and (more := release_boundaries.releases_to_run(rows, available)):
        print(f"to find where each symptom starts and ends, also running {', '.join(more)}", file=sys.stderr)
        rows += run(more, timed=False)
    matrix = {"generated": datetime.now(UTC).isoformat(timespec="seconds"), "index_note": index_note,
              "available": available, "seconds": round(time.monotonic() - started, 1), "rows": rows,
              "summary": matrix_report.summarize(rows, available)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "matrix.json").write_text(json.dumps(matrix, indent=1))
    (args.out / "matrix.md").write_text(matrix_report.render_markdown(matrix))
    print(matrix_report.render_markdown(matrix))
    if args.reports:
        for path in upstream.write_reports(matrix, args.reports):
            print(f"upstream report: {path}", file=sys.stderr)
    print(f"wrote {args.out}/matrix.json and matrix.md in {matrix['seconds']} s", file=sys.stderr)
    return ExitStatus.CORRECT


if __name__ == "__main__":
    sys.exit(main())
