"""openvino-pte-restamp: make a shipped .pte load on this host, or on a named CPU class (OpenVINO 2026.4).

Why: OpenVINO 2026.4 stamps each compiled blob with the exporting CPU's ISA and refuses it on any other
(``load_method`` 0x1), while the model after the stamp is the same whichever CPU compiled it. This command rewrites
each OpenVINO blob's stamp as the target's importer builds it (``workaround.checker.restamping``) and writes a new
program beside the old; torch-free, like ``openvino-pte-check``.

It vouches for a stamp it knows (version 1, ``meta=1.0``) of the target's OpenVINO release: a blob compiled by
another release is refused, since only the release that compiled it is known to read its body. With no
``--target-cpu`` the target is this host, and every rewritten blob is imported here before the file takes its name.
"""

import os
import stat
import tempfile
from argparse import ArgumentTypeError
from collections.abc import Callable
from pathlib import Path

from workaround.checker import compatibility_stamp, restamping
from workaround.checker.command_line import EXIT_USAGE, OneLineErrors, Report, guarded
from workaround.checker.pte import reader
from workaround.checker.pte.file import ProgramData, UnreadableFile, read_pte
from workaround.checker.pte.verifier import MalformedProgram

PROGRAM = "openvino-pte-restamp"
EXIT_REFUSED = 1
HERE = "here"
KNOWN = (1, "1.0")  # the stamp version and meta field this command was measured on
EXIT_STATUS = f"""exit status: 0 written (or nothing to rewrite: no blob is stamped), {EXIT_REFUSED} refused (a \
stamp it cannot vouch for; nothing written), {EXIT_USAGE} usage error or not a program (nothing written), 3 the \
command itself failed"""


class Refused(ValueError):
    """A blob this command cannot vouch for: why, in one line."""


def target_text(target: str) -> Callable[[compatibility_stamp.Stamp], str]:
    """The text a blob gets: this host's own, or the named class's with the blob's release kept."""
    if target != HERE:
        return lambda stamp: compatibility_stamp.text_for_class(target, stamp)
    here = compatibility_stamp.this_process_text()
    if here is None:
        raise Refused("this host's OpenVINO stamps nothing (a release before 2026.4): it takes no stamp to match")
    return lambda stamp: here


def vouched(text_for: Callable[[compatibility_stamp.Stamp], str]) -> Callable[[compatibility_stamp.Stamp], str]:
    """``text_for``, refusing a stamp of another form or of another release than the target's."""
    def checked(stamp: compatibility_stamp.Stamp) -> str:
        if (stamp.version, stamp.fields.get("meta")) != KNOWN:
            raise Refused(f"a blob's stamp is version {stamp.version}, meta={stamp.fields.get('meta')}: only "
                          f"version {KNOWN[0]}, meta={KNOWN[1]} was measured")
        text = text_for(stamp)
        release = compatibility_stamp.of_text(text).release
        if release != stamp.release:
            raise Refused(f"a blob was compiled by OpenVINO {stamp.release} and the target runs {release}: only "
                          f"the release that compiled a blob is known to read it; export again with {release}")
        return text
    return checked


def imported_here(pte: ProgramData) -> None:
    """Each OpenVINO blob of ``pte`` imported by this host's OpenVINO, as the runtime will."""
    import openvino as ov

    from workaround.checker.program_check import openvino_delegates
    from workaround.checker.pte import reader

    core = ov.Core()
    for index, delegate in enumerate(openvino_delegates(reader.read(pte))):
        try:
            core.import_model(delegate.blob, "CPU")
        except UnicodeDecodeError:  # OpenVINO's message quotes the blob's corrupted bytes
            raise Refused(f"OpenVINO delegate {index} does not import here even restamped: its error message is "
                          "not even text (the blob is corrupted)") from None
        except RuntimeError as error:
            reason = next((line.strip() for line in str(error).splitlines() if "Cannot import" in line),
                          str(error).splitlines()[-1] if str(error) else "")
            raise Refused(f"OpenVINO delegate {index} does not import here even restamped: {reason}") from None


def write_new(path: Path, parts: list[restamping.Part], force: bool, mode: int,
              check: Callable[[Path], None]) -> None:
    """``parts`` one after the other at ``path``, whole or not at all: written to a temporary file beside it, which
    ``check`` reads back (and may refuse), with the permission bits ``mode`` (the source's: ``mkstemp`` makes a
    file only its owner can read, and a runtime service of another user could not load the model); an existing
    file replaced only with ``force``."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(handle, stat.S_IMODE(mode))
        with os.fdopen(handle, "wb") as file:
            for part in parts:
                file.write(part)
        check(Path(temporary))
        if force:
            os.replace(temporary, path)
        else:
            os.link(temporary, path)  # fails if the path exists meanwhile: nothing is overwritten
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def read_back(target: str) -> Callable[[Path], None]:
    """What the written program must pass before it takes its name: read back whole, and imported by this host's
    OpenVINO when it is to load here."""
    def check(written: Path) -> None:
        program = read_pte(written)
        reader.read(program)
        if target == HERE:
            imported_here(program)
    return check


def restamp_file(source: Path, output: Path, target: str, force: bool) -> Report:
    try:
        parts, changes = restamping.restamped_parts(read_pte(source), vouched(target_text(target)))
        if not changes:
            return Report(0, [f"{source}: no OpenVINO blob is stamped: it loads on every CPU class as it is; "
                              "nothing written"], [])
        write_new(output, parts, force, source.stat().st_mode, read_back(target))
    except (Refused, restamping.CannotRestamp) as refusal:
        return Report(EXIT_REFUSED, [], [f"{PROGRAM}: {source}: refused: {refusal}; nothing written"])
    except (UnreadableFile, MalformedProgram) as error:
        return Report(EXIT_USAGE, [], [f"{PROGRAM}: {source}: not a program it can read: {error}"])
    except FileExistsError:
        return Report(EXIT_USAGE, [], [f"{PROGRAM}: {output} exists (written meanwhile): pass --force to replace "
                                       "it"])
    lines = [f"OpenVINO delegate {change.delegate}: {compatibility_stamp.of_text(change.old).describe()} -> "
             f"{compatibility_stamp.of_text(change.new).describe()}" for change in changes]
    where = "this host (imported here)" if target == HERE else f"CPU class {target}"
    return Report(0, [*lines, f"wrote {output}: it loads on {where}"], [])


def target_class(value: str) -> str:
    if value != HERE and value not in compatibility_stamp.ISA_OF_CLASS:
        known = ", ".join(compatibility_stamp.ISA_OF_CLASS)
        raise ArgumentTypeError(f"unknown CPU class {value!r}: one of {known}, or {HERE}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = OneLineErrors(prog=PROGRAM, description=__doc__.splitlines()[0], epilog=EXIT_STATUS)
    parser.add_argument("pte", type=Path, help="an ExecuTorch .pte file")
    parser.add_argument("-o", "--output", type=Path,
                        help="where to write the program (default: beside it, NAME.TARGET.pte)")
    parser.add_argument("--target-cpu", type=target_class, default=HERE, metavar="CLASS",
                        help=f"the CPU class to load on: {', '.join(compatibility_stamp.ISA_OF_CLASS)}, or {HERE} "
                             f"(default: this host, whatever its ISA)")
    parser.add_argument("--force", action="store_true", help="replace the output if it exists")
    parser.add_argument("--traceback", action="store_true",
                        help="when the command itself fails (exit 3), print where")
    args = parser.parse_args(argv)
    output = args.output or args.pte.with_name(f"{args.pte.stem}.{args.target_cpu}.pte")
    if not args.pte.is_file():
        parser.error(f"{args.pte}: no such file")
    if output.exists() and not args.force:
        parser.error(f"{output} exists: pass --force to replace it")
    if not output.parent.is_dir():
        parser.error(f"{output.parent}: no such folder")
    return guarded(PROGRAM, lambda: restamp_file(args.pte, output, args.target_cpu, args.force), args.traceback)

