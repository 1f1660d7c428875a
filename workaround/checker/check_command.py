"""Is a lowered program or a shipped .pte affected?  Look inside its OpenVINO blobs.

``openvino-pte-check``: every check of ``workaround.checker.program_check`` on one file, as one report (text or
``--json``) and an exit status.

For a model already exported::

    python -m workaround.check model.pte [--json]

Exit status (``EXIT_STATUS``), never 0 or 1 from a crash (``workaround.checker.command_line``): 0 clean, 1
affected, 2 not a readable .pte (not a regular file, cut short, any extent or index it claims inconsistent with the
file: checked before anything is judged), or its blobs cannot be opened here and its metadata shows nothing (a blob
opens only with the OpenVINO release and CPU that compiled it: check with the OpenVINO you deploy), or a usage
error; 3 the checker failed (a bug to report: --traceback shows where) or could not write its report; 130
interrupted; 141 the reader of its output went away.
"""

import json
import re
from argparse import ArgumentTypeError
from collections.abc import Collection
from dataclasses import asdict
from pathlib import Path

from workaround.checker import compatibility_stamp
from workaround.checker.blob_lifetime import BlobUse
from workaround.checker.command_line import OneLineErrors, Report, guarded
from workaround.checker.program_check import ProgramChecked, checked_program
from workaround.checker.pte import reader
from workaround.checker.pte.file import UnreadableFile, read_pte
from workaround.checker.pte.verifier import MalformedProgram
from workaround.contract import differences
from workaround.contract.delegate_specs import GUARDED_KEY
from workaround.contract.finding_kinds import FindingKind

EXIT_CLEAN, EXIT_AFFECTED, EXIT_UNREADABLE = 0, 1, 2
EXIT_STATUS = ("exit status: 0 clean (or no OpenVINO delegate), 1 affected, 2 not a readable .pte (or "
               "nothing could be checked: this OpenVINO cannot open its blobs) or a usage error, 3 the checker "
               "failed (not a verdict), 130 interrupted, 141 its output's reader went away")

# An operator as a runtime registers it and a program calls it: namespace::name, then .overload if it has one.
RUNTIME_OPERATOR = re.compile(r"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)?")
# What a blob cannot show (workaround.contract.differences): a delegate the workaround's semantics guards did not
# partition is not vouched for on these, and the report says so rather than leaving them out.
NOT_VISIBLE = [difference for difference in differences.unseen_by_the_checker()
               if difference.owner == differences.Owner.OPENVINO and difference.unseen != differences.NO_BLOB]


def not_visible_help() -> str:
    """The ``--help`` paragraph: each reason a blob cannot show a difference, and the entries it hides."""
    reasons = dict.fromkeys(difference.unseen for difference in NOT_VISIBLE)
    groups = [", ".join(d.name.replace("_", " ") for d in NOT_VISIBLE if d.unseen == unseen) + f" ({unseen})"
              for unseen in reasons]
    return ("not visible in a shipped blob, so not checked in a delegate the workaround's semantics guards did "
            "not partition: " + "; ".join(groups))


def stamp_lines(pte: Path, delegates: list[reader.Delegate]) -> list[str]:
    """What each blob was compiled for: OpenVINO 2026.4 imports it only there."""
    stamps = [compatibility_stamp.read(delegate.blob) for delegate in delegates]
    return [f"{pte}: OpenVINO delegate {index} was compiled for "
            + (stamp.describe() if stamp else "no CPU class (no stamp: OpenVINO 2026.3 or older)")
            for index, stamp in enumerate(stamps)]


def text_report(pte: Path, checked: ProgramChecked) -> list[str]:
    findings, delegates = checked.findings, checked.delegates
    lines = stamp_lines(pte, delegates)
    lines += [f"{pte}: OpenVINO delegate {index} was not partitioned by the workaround's semantics guards (no "
              f"{GUARDED_KEY} compile spec): {len(NOT_VISIBLE)} ways OpenVINO computes differently that a blob "
              "cannot show are not checked (--help lists them)"
              for index in not_vouched_for(delegates)]
    for found in checked.precisions:
        asked = f"asked for {found.asked} ({found.spec})" if found.asked else "asked for nothing"
        lines.append(f"{pte}: OpenVINO delegate {found.delegate} runs at {found.runs_at} here ({asked})")
    lines += [f"{pte}: OpenVINO delegate {freed.delegate} is stored in a segment ExecuTorch's backend frees after "
              "import, and its compiled model keeps nothing of it (asked of OpenVINO here: it ran with the blob's "
              "pages taken away): safe by path as this host computes"
              for freed in checked.freed_blobs if freed.use == BlobUse.KEEPS_NOTHING]
    lines += [f"{pte}: {finding.detail}" for finding in findings]
    counts = ", ".join(f"{sum(f.kind == kind for f in findings)} {kind.replace('_', ' ')}(s)"
                       for kind in FindingKind)
    lines += [f"{pte}: {reason}" for reason in checked.not_opened]
    verdict = f"AFFECTED: {counts}" if findings else "NOT CHECKED" if checked.not_opened else "clean"
    if not delegates and not findings:
        verdict = "nothing to check: this program does not use OpenVINO"
    return [*lines, f"{pte}: {len(delegates)} OpenVINO delegate(s), {verdict}"]


def report(pte: Path, as_json: bool, runtime_operators: Collection[str] | None = None,
           cpu_class: str | None = None) -> Report:
    """The check of one file, as the command line prints it. Everything is read and checked before a line
    is written: an inconsistent file is a verdict of its own (2), never judged on part of it."""
    try:
        checked = checked_program(reader.read(read_pte(pte)), runtime_operators, cpu_class, str(pte))
    except (UnreadableFile, MalformedProgram) as error:
        return Report(EXIT_UNREADABLE, [], [f"{pte}: not a readable .pte: {error}"])
    code = EXIT_AFFECTED if checked.findings else EXIT_UNREADABLE if checked.not_opened else EXIT_CLEAN
    if not as_json:
        return Report(code, text_report(pte, checked), [])
    return Report(code, [json.dumps({"file": str(pte), "openvino_delegates": len(checked.delegates),
                                     "stamps": [stamp_record(delegate) for delegate in checked.delegates],
                                     "findings": [asdict(f) for f in checked.findings],
                                     "not_opened": checked.not_opened,
                                     "not_visible": {"delegates": not_vouched_for(checked.delegates),
                                                     "differences": [d.name for d in NOT_VISIBLE]},
                                     "precision": [asdict(p) for p in checked.precisions],
                                     "freed_blobs": [asdict(freed) for freed in checked.freed_blobs]},
                                    indent=1)], [])


def not_vouched_for(delegates: list[reader.Delegate]) -> list[int]:
    """The delegates whose partitioner did not hand back what a blob cannot show (no guards' compile spec: a stock
    partitioner's, or an older workaround's)."""
    return [index for index, delegate in enumerate(delegates) if GUARDED_KEY not in delegate.compile_specs]


def stamp_record(delegate: reader.Delegate) -> dict[str, str | None] | None:
    stamp = compatibility_stamp.read(delegate.blob)
    if stamp is None:
        return None
    return {"cpu_class": stamp.cpu_class, "isa": stamp.isa, "release": stamp.release, "text": stamp.text}


def operator_names(value: str) -> frozenset[str]:
    """The operator names ``--runtime-operators`` gives: the installed runtime's, or a file's (one a line, ``#``
    comments and blank lines skipped), each of the form a program calls them by."""
    if value == "installed":
        try:
            from workaround.partitioner.rules.runtime_kernels import installed_operators
        except ImportError as error:
            raise ArgumentTypeError(f"no ExecuTorch runtime is installed here ({error}): name a file") from None
        return installed_operators()
    try:
        text = bytes(read_pte(Path(value))).decode()
    except (UnreadableFile, UnicodeDecodeError) as error:
        raise ArgumentTypeError(f"{value}: not a text file of operator names ({error})") from None
    names = [line.split("#")[0].strip() for line in text.splitlines()]
    found = frozenset(name for name in names if name)
    if bad := next((name for name in found if not RUNTIME_OPERATOR.fullmatch(name)), None):
        raise ArgumentTypeError(f"{value}: {bad!r} is not an operator name (namespace::name.overload)")
    if not found:
        raise ArgumentTypeError(f"{value}: names no operator")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = OneLineErrors(prog="openvino-pte-check", description=__doc__.splitlines()[0],
                           epilog=f"{EXIT_STATUS}. {not_visible_help()}")
    parser.add_argument("pte", type=Path, help="an ExecuTorch .pte file")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every finding")
    parser.add_argument("--traceback", action="store_true",
                        help="when the checker itself fails (exit 3), print where, for a bug report (so does "
                             "OPENVINO_PTE_CHECK_TRACEBACK=1)")
    parser.add_argument("--runtime-operators", metavar="FILE|installed", type=operator_names,
                        help="also flag each operator the program calls that the deploying ExecuTorch runtime "
                             "does not register (it would not load, 0x14): a file of its operator names, one a "
                             "line (aten::sort.values, ...: what its _get_operator_names() lists), or 'installed' "
                             "for the ExecuTorch installed here (imports torch)")
    parser.add_argument("--target-cpu", choices=sorted(compatibility_stamp.ISA_OF_CLASS), metavar="CLASS",
                        help="check for loading on this CPU class (one of "
                             f"{', '.join(compatibility_stamp.ISA_OF_CLASS)}) rather than on this host: a blob "
                             "stamped for another is a finding")
    args = parser.parse_args(argv)
    return guarded(parser.prog, lambda: report(args.pte, args.json, args.runtime_operators, args.target_cpu),
                   args.traceback)

