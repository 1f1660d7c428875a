"""Is a lowered program or a shipped .pte affected?  Every check of a program, delegate by delegate, gathered
into one list of findings (``check_program``) or one report (``checked_program``, what ``openvino-pte-check``
prints). Each part is a module of its own:

- ``workaround.checker.compiled_model``: what importing a blob shows (an output that passes an input straight
  through, never written with ExecuTorch's call order; a dim order the compiled model does not honour; an argument
  the delegate cannot run; and what OpenVINO computes differently, ``workaround.checker.blob_differences``);
- ``workaround.checker.blob_differences.exported_model_findings``: what the blob's own IR shows, read without
  importing it (so also where this OpenVINO cannot open it);
- ``workaround.checker.precision_check``: the precision each delegate imports at here, against what it was
  lowered asking for;
- ``workaround.checker.segment_blobs``: a blob in a segment, which ExecuTorch 1.5.1's backend frees after import
  and whose compiled model may still read it;
- ``workaround.checker.target_cpu``: where the program is to load, and whether each blob's compatibility stamp
  lets it.

And, program-wide, here: a program whose constants are all 0-size fails to load by path (0x23,
``empty_constant_segment``), and one calling an operator the deploying runtime lacks fails at ``load_method``
(0x14, ``operator_missing``; given ``--runtime-operators``).

After lowering::

    findings = check_program(executorch_program_manager)   # [] means clean

For a shipped ``.pte``, the command line: ``workaround.checker.check_command``.
"""

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from workaround.checker import compatibility_stamp
from workaround.checker.blob_differences import exported_model_findings
from workaround.checker.blob_lifetime import blob_use
from workaround.checker.compiled_model import (
    BlobNotOpened,
    compiled_model_findings,
    importable_here,
    open_blob,
    openvino_release,
)
from workaround.checker.findings import Finding
from workaround.checker.precision_check import Precision, inference_precision, precision_findings
from workaround.checker.pte import reader
from workaround.checker.pte.file import ProgramData, read_pte
from workaround.checker.pte.reader import spec_text
from workaround.checker.pte.verifier import MalformedProgram
from workaround.checker.segment_blobs import SegmentBlob, import_keeps_caller_memory, segment_finding
from workaround.checker.target_cpu import Target, stamp_findings, target_cpu, this_host
from workaround.contract.cpu_classes import CpuClass
from workaround.contract.delegate_specs import GUARDED_KEY
from workaround.contract.finding_kinds import FindingKind
from workaround.contract.provenance import OPENVINO_BACKEND

if TYPE_CHECKING:  # for the annotation only: the checker itself runs without executorch
    from executorch.exir import ExecutorchProgramManager


# What ExecuTorch's OpenVINO backend compiles for: a device name ("CPU", "GPU.1", "AUTO:GPU,CPU"). Another
# (a corrupted byte) fails at load_method (measured: the Python runtime aborts on it).
DEVICE = re.compile(r"[A-Z][A-Z0-9_.:,()-]*")


def openvino_delegates(program: reader.ProgramContents) -> list[reader.Delegate]:
    """Every OpenVINO delegate of a program read by ``reader.read`` (which refuses an inconsistent one), with
    the tensors its call passes; MalformedProgram unless each one's device is a device."""
    found = [delegate for delegate in program.delegates if delegate.backend == OPENVINO_BACKEND]
    for index, delegate in enumerate(found):
        device = spec_text(delegate.compile_specs.get("device", b"CPU"))
        if not DEVICE.fullmatch(device):
            raise MalformedProgram(f"OpenVINO delegate {index} is compiled for device '{device}', which is not a "
                                   "device name")
    return found


def empty_constant_segment(found: reader.Constants) -> list[Finding]:
    """The program-wide finding of a program whose constants are all 0-size (what a delegate leaves of an
    empty KV cache): by path its 0-byte constant segment loads as null and load_method fails (0x23)."""
    if not found.sizes or found.segment_bytes != 0:
        return []
    return [Finding(FindingKind.EMPTY_CONSTANT_SEGMENT, None, None,
                    f"the program's {len(found.sizes)} constant(s) are all 0-size and its constant segment is 0 "
                    "bytes: loaded from a file, load_method fails with error 0x23 (ExecuTorch's file loaders "
                    "return no buffer for a 0-byte segment); from bytes it loads. Re-export with the workaround's "
                    "partitioner, which drops the empty constants its delegates leave unused")]


@dataclass(frozen=True)
class DelegatesChecked:
    """What checking a program's OpenVINO delegates found: the findings, why a blob could not be opened here (the
    findings then hold what the program's metadata shows on its own), each opened delegate's precision, and each
    blob the runtime frees after import (where this release's import keeps pointers into it)."""
    findings: list[Finding]
    not_opened: list[str]
    precisions: list[Precision]
    freed_blobs: list[SegmentBlob]


def opened_delegate(index: int, delegate: reader.Delegate, here: str | None
                    ) -> tuple[list[Finding], Precision]:
    """What only importing the blob shows: its compiled model's findings and its precision. Raises BlobNotOpened
    where this OpenVINO cannot open it."""
    compiled = open_blob(index, delegate, here)
    try:
        found = inference_precision(index, delegate, compiled)
        return compiled_model_findings(index, delegate, compiled) + precision_findings(found), found
    except UnicodeDecodeError as error:
        raise BlobNotOpened(f"OpenVINO {openvino_release()} opens delegate {index}'s compiled model but its names "
                            "are not text (the blob is corrupted): checked what the program's own metadata shows "
                            "only") from error


def blob_findings(index: int, delegate: reader.Delegate, target: Target) -> list[Finding]:
    """What the blob's bytes show, read without importing it (so also where this OpenVINO cannot), where it is
    to load: an AVX2 importer computes compressed weights' matmuls without quantizing their activations."""
    if GUARDED_KEY in delegate.compile_specs:
        return []
    quantizes = target.text is None or compatibility_stamp.of_text(target.text).cpu_class != CpuClass.AVX2
    try:
        return [Finding(kind, index, port, f"OpenVINO delegate {index}: {what}")
                for kind, port, what in exported_model_findings(delegate.blob, quantizes)]
    except MalformedProgram as error:
        raise MalformedProgram(f"OpenVINO delegate {index}: {error}") from error


def check_delegates(delegates: list[reader.Delegate], target: Target | None = None,
                    program: str = "PROGRAM.pte") -> DelegatesChecked:
    """Every finding in the delegates, where the program is to load on ``target`` (default: this host; a fix
    names the file as ``program``)."""
    here = this_host()
    target = target or here
    checked = DelegatesChecked([], [], [], [])
    for index, delegate in enumerate(delegates):
        checked.findings.extend(stamp_findings(index, delegate, target, program))
        try:
            findings, found = opened_delegate(index, delegate, here.text)
            checked.findings.extend(findings)
            checked.precisions.append(found)
        except BlobNotOpened as error:
            checked.not_opened.append(str(error))
            found = None
        checked.findings.extend(blob_findings(index, delegate, target))
        stamp = compatibility_stamp.read(delegate.blob)  # the release it imports with, where it says
        if delegate.in_segment and import_keeps_caller_memory(stamp.release if stamp else openvino_release()):
            # asked where it opens, and of this host only: what is read in place depends on the CPU class
            asked = found is not None and target.text == here.text
            freed = SegmentBlob(index, blob_use(importable_here(delegate.blob, here.text)) if asked else None)
            checked.freed_blobs.append(freed)
            checked.findings.extend(segment_finding(index, freed.use))
    return checked


@dataclass(frozen=True)
class ProgramChecked(DelegatesChecked):
    """A program's check: its OpenVINO delegates, and every finding, theirs and the program's."""
    delegates: list[reader.Delegate]


def checked_program(contents: reader.ProgramContents, runtime_operators: Collection[str] | None,
                    cpu_class: str | None, program: str) -> ProgramChecked:
    """The one pipeline of a check: the delegates where the program is to load, the constants, the operators."""
    delegates = openvino_delegates(contents)
    checked = check_delegates(delegates, target_cpu_of(contents, cpu_class), program)
    findings = (checked.findings + empty_constant_segment(contents.constants)
                + missing_operators(contents.operators, runtime_operators))
    return ProgramChecked(findings, checked.not_opened, checked.precisions, checked.freed_blobs, delegates)


def missing_operators(operators: list[str], registered: Collection[str] | None) -> list[Finding]:
    """The program-wide finding of each operator the program calls that the runtime does not register (none
    when no runtime was named)."""
    if registered is None:
        return []
    return [Finding(FindingKind.OPERATOR_MISSING, None, None,
                    f"the program calls {name}, which the ExecuTorch runtime checked against has no kernel for: "
                    "load_method fails with error 0x14 (from bytes and by path). Build the runtime with that "
                    "kernel, or re-export with the workaround's partitioner (CopySafeOpenvinoPartitioner(..., "
                    "runtime_operators=...)), which refuses to hand an op to a runtime without its kernel")
            for name in dict.fromkeys(operators) if name not in registered]


def check_program(program: "ExecutorchProgramManager | bytes | bytearray | str | Path",
                  runtime_operators: Collection[str] | None = None, target_cpu: str | None = None
                  ) -> list[Finding]:
    """Findings for an ExecutorchProgramManager (``.to_executorch()``), .pte bytes, or a .pte path; with
    ``runtime_operators`` (what the deploying runtime registers), also each operator it lacks; with
    ``target_cpu`` (a class of ``compatibility_stamp.ISA_OF_CLASS``), loading there rather than here. Raises
    MalformedProgram for an inconsistent program, UnreadableFile for a path that is not a regular file."""
    name = str(program) if isinstance(program, str | Path) else "PROGRAM.pte"
    data: ProgramData
    if isinstance(program, str | Path):
        data = read_pte(Path(program))
    elif isinstance(program, bytes | bytearray):
        data = bytes(program)
    else:
        data = program.buffer
    contents = reader.read(data)
    checked = checked_program(contents, runtime_operators, target_cpu, name)
    if checked.not_opened:
        raise BlobNotOpened(checked.not_opened[0])
    return checked.findings


def target_cpu_of(contents: reader.ProgramContents, cpu_class: str | None) -> Target | None:
    """The target, asked of OpenVINO only where the program has an OpenVINO delegate."""
    return target_cpu(cpu_class) if openvino_delegates(contents) else None
