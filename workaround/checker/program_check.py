"""Is a lowered program or a shipped .pte affected?  Look inside its OpenVINO blobs.

Each OpenVINO delegate carries a compiled model. Opened with
``openvino.Core().import_model`` its runtime graph shows what the CPU plugin will
execute; a Result fed directly by a Parameter is exactly the pattern whose output
is never written when ExecuTorch sets inputs before outputs. This finds such
outputs whatever op produced them, including pass-throughs nobody has listed yet.

It also reads the program's own tensor metadata: a delegate argument (input or
output) whose dim order is not the default is handed to OpenVINO as if it were
contiguous, which gives wrong values for any layout-sensitive op, unless the compiled
model marks that it reads or writes it in that order (``workaround.contract.boundary_marks``,
which the workaround's partitions carry).

It flags what OpenVINO's CPU plugin computes differently from PyTorch, where the program shows it
(``workaround.checker.blob_differences``: float64 and int64 boundary tensors, uint8 / int8 arithmetic on
boundary tensors, division and remainders through float32, trunc division through int32; from the model
the blob carries, read without importing it: a constant an Abs was folded into, an AvgPool dividing its ceil
window by the kernel).

It flags delegate arguments the delegate cannot run at all: a 0-d or 0-size tensor fails at run
time (``empty_or_0d_argument``), and a dynamic-shaped output is never resized, so it comes back
with its upper bound's shape (``dynamic_shaped_output``).

And it reads where each OpenVINO blob is stored: in a segment after the flatbuffer
(ExecuTorch's default), ExecuTorch 1.5.1's backend frees it right after importing it, and
OpenVINO from 2026.4.0 on still reads the constants it does not repack from it. Whether a compiled
model does is asked of OpenVINO (``workaround.checker.blob_lifetime``: the blob's pages taken away after
import, then the model run); one that reads them crashes or computes on freed memory when the program is
loaded from a file (``delegate_blob_in_segment``), one that keeps nothing of them is safe by path, and
the report says which. Where it cannot be asked here (a blob this OpenVINO cannot open, a target of
another CPU class), a segment blob is a finding.

And it reads the compatibility stamp OpenVINO 2026.4 writes into each blob
(``workaround.checker.compatibility_stamp``): the CPU class and release it was compiled for, which alone import it.
A blob stamped for another class than the target's (this host, or ``--target-cpu``) is a finding
(``stamped_for_another_cpu``: ``load_method`` fails with 0x1 there; ``openvino-pte-restamp`` fixes it), one
compiled by another release too (``compiled_by_another_release``). A blob of this release stamped for another class
is still checked whole: its model does not depend on the class, so it is imported here with this host's stamp.

And it says the precision each delegate will run at, imported here as ExecuTorch 1.5.1's runtime imports
it (with no properties: this CPU, this OpenVINO and this process's environment decide, e.g. bf16 on CPUs
with AVX-512 BF16 or AMX); a delegate lowered asking for another precision (an ``INFERENCE_PRECISION_HINT``
or the workaround's ``inference_precision`` compile spec) that imports at another is a finding
(``precision_not_kept``): the blob does not carry the precision it was compiled with.

Program-wide, with or without OpenVINO: a program whose constants are all 0-size (what a delegate leaves
of an empty KV cache) has a 0-byte constant segment, and loaded from a file it fails at ``load_method``
with error 0x23 (``empty_constant_segment``). And, given the operators the deploying ExecuTorch runtime
registers (``--runtime-operators FILE``, one name per line, or ``installed`` for the ExecuTorch installed here),
a program calling an operator outside them fails at ``load_method`` with error 0x14 (``operator_missing``):
what a partitioner that hands ``sort`` or ``avg_pool3d`` back to ExecuTorch's portable runtime makes.

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
from workaround.checker.blob_differences import exported_model_findings, semantics_findings
from workaround.checker.blob_lifetime import BlobUse, blob_use
from workaround.checker.pte import reader
from workaround.checker.pte.file import ProgramData, read_pte
from workaround.checker.pte.verifier import MalformedProgram
from workaround.contract.boundary_marks import INPUT_MARK, OUTPUT_MARK, read_mark
from workaround.contract.cpu_classes import CpuClass
from workaround.contract.delegate_specs import GUARDED_KEY
from workaround.contract.finding_kinds import FindingKind
from workaround.contract.layouts import same_layout
from workaround.contract.openvino_types import CompiledModel
from workaround.contract.provenance import OPENVINO_BACKEND

if TYPE_CHECKING:  # for the annotation only: the checker itself runs without executorch
    from executorch.exir import ExecutorchProgramManager

# Compile specs that ask a delegate for a precision: OpenVINO's own name, and the workaround's.
PRECISION_SPECS = ("INFERENCE_PRECISION_HINT", "inference_precision")
# The releases measured to crash (or read freed memory) by path with a blob in a segment: the first whose C API
# import keeps pointers into the caller's memory (older ones copy it).
USE_AFTER_FREE_RELEASES = "OpenVINO 2026.4.0 and later (measured: 2026.4.0, 2026.4.1; 2026.3.1 and older are safe)"
IMPORT_KEEPS_CALLER_MEMORY_FROM = (2026, 4, 0)


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    delegate: int | None  # index among the program's OpenVINO delegates; None for the program as a whole
    port: int | None  # the delegate output (pass-through) or delegate-call argument (dim order) concerned
    detail: str


# What ExecuTorch's OpenVINO backend compiles for: a device name ("CPU", "GPU.1", "AUTO:GPU,CPU"). Another
# (a corrupted byte) fails at load_method (measured: the Python runtime aborts on it).
DEVICE = re.compile(r"[A-Z][A-Z0-9_.:,()-]*")


def spec_text(value: bytes) -> str:
    """A compile spec's value as ExecuTorch's OpenVINO backend reads it: a C string, up to its first NUL."""
    return value.split(b"\0")[0].decode("ascii", "backslashreplace")


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


def pass_through_outputs(compiled: CompiledModel) -> list[tuple[int, str]]:
    """Indices of outputs of the compiled model that are fed directly by a Parameter and share its tensor, with
    its name. Sharing is the bug: a Result fed by a Parameter in the model itself shares the Parameter's tensor
    (one slot in the infer request, never written with inputs set first); one that OpenVINO's compilation left
    fed by a Parameter (an integer ``x + 0`` or ``x * 1`` it eliminated) keeps its own tensor name, and the
    plugin writes it (measured: right on repeated runs with changing inputs)."""
    runtime_model = compiled.get_runtime_model()
    input_names: set[str] = set().union(*(port.get_names() for port in compiled.inputs))
    found: list[tuple[int, str]] = []
    for index, result in enumerate(runtime_model.get_results()):
        source = result.input_value(0).get_node()
        if source.get_type_name() == "Parameter" and compiled.outputs[index].get_names() & input_names:
            found.append((index, source.get_friendly_name()))
    return found


def honoured_dim_orders(compiled: CompiledModel) -> dict[int, list[int]]:
    """The argument positions (inputs, then outputs) whose dim order the compiled model marks as read
    or written in that order, with the order: {position: [dim order]}."""
    honoured: dict[int, list[int]] = {}
    for offset, prefix, ports in ((0, INPUT_MARK, compiled.inputs), (len(compiled.inputs), OUTPUT_MARK,
                                                                     compiled.outputs)):
        for index, port in enumerate(ports):
            for found in filter(None, (read_mark(prefix, name) for name in port.get_names())):
                if found[0] == index:
                    honoured[offset + index] = found[1]
    return honoured


def unhonoured_dim_orders(delegate: reader.Delegate, compiled: CompiledModel) -> list[tuple[int, list[int]]]:
    """(position, dim order) of each argument laid out unlike both the default and what the model honours.
    Compared as layouts: size-1 dims make several dim orders mean the same bytes."""
    honoured = honoured_dim_orders(compiled)
    found: list[tuple[int, list[int]]] = []
    for position, argument in enumerate(delegate.arguments):
        if argument is None:
            continue
        sizes, order = argument.sizes, argument.dim_order
        layouts_it_can_be_read_in = [sorted(order)] + ([honoured[position]] if position in honoured else [])
        if not any(same_layout(sizes, order, other) for other in layouts_it_can_be_read_in):
            found.append((position, order))
    return found


UNRUNNABLE = {
    FindingKind.EMPTY_OR_0D_ARGUMENT: "is 0-d or 0-size: the delegate fails at run time on it",
    FindingKind.DYNAMIC_SHAPED_OUTPUT: "is a dynamic-shaped output: the runtime never resizes it, so it comes "
                                       "back with its upper bound's shape",
}


def unrunnable_arguments(delegate: reader.Delegate,
                         compiled: CompiledModel) -> list[tuple[FindingKind, int, str]]:
    """(kind, position, what) for each argument the delegate cannot run (see the module docstring)."""
    found: list[tuple[FindingKind, int, str]] = []
    for position, argument in enumerate(delegate.arguments):
        if argument is None:
            continue
        if not argument.sizes or 0 in argument.sizes:
            found.append((FindingKind.EMPTY_OR_0D_ARGUMENT, position, f"sizes {argument.sizes}"))
        elif argument.dynamic and position >= len(compiled.inputs):
            found.append((FindingKind.DYNAMIC_SHAPED_OUTPUT, position, f"upper bound {argument.sizes}"))
    return found


class BlobNotOpened(RuntimeError):
    """This OpenVINO cannot open a delegate's compiled model: a blob opens only with the release (and the CPU
    features) that compiled it; a corrupted one opens with none (and may fail with a message that is not even
    text), or opens with names that are not text."""


def openvino_release() -> str:
    from importlib.metadata import version

    return version("openvino")


def importable_here(blob: bytes, here: str | None) -> bytes:
    """``blob`` as this host's OpenVINO imports it: stamped for another class of this release, restamped with this
    host's text ``here`` (its model does not depend on the class); otherwise as it is."""
    stamp = compatibility_stamp.read(blob)
    if (here is None or stamp is None or stamp.text == here
            or stamp.release != compatibility_stamp.of_text(here).release):
        return blob
    return compatibility_stamp.with_text(blob, here)


def open_blob(index: int, delegate: reader.Delegate, here: str | None = None) -> CompiledModel:
    import openvino as ov

    try:
        return ov.Core().import_model(importable_here(delegate.blob, here), "CPU")
    except UnicodeDecodeError as error:  # OpenVINO's message quotes the blob's corrupted bytes
        raise BlobNotOpened(f"OpenVINO {openvino_release()} cannot open delegate {index}'s compiled model (its "
                            "error message is not even text: the blob is corrupted): checked what the program's "
                            "own metadata shows only") from error
    except RuntimeError as error:
        lines = [line.strip() for line in str(error).splitlines() if line.strip()]
        reason = next((line for line in lines if line.startswith("[CPU]")), lines[-1] if lines else repr(error))
        raise BlobNotOpened(f"OpenVINO {openvino_release()} cannot open delegate {index}'s compiled "
                            f"model ({reason}): checked what the program's own metadata shows only") from error


def compiled_model_findings(index: int, delegate: reader.Delegate, compiled: CompiledModel) -> list[Finding]:
    """What only the compiled model shows: pass-through outputs, unhonoured dim orders, unrunnable arguments."""
    findings = [Finding(FindingKind.PASS_THROUGH_OUTPUT, index, output,
                        f"output {output} of OpenVINO delegate {index} is input '{name}' passed straight "
                        "through: with ExecuTorch's call order it is never written")
                for output, name in pass_through_outputs(compiled)]
    findings += [Finding(FindingKind.NON_DEFAULT_DIM_ORDER, index, position,
                         f"argument {position} of OpenVINO delegate {index} has dim order {order} and its "
                         "compiled model does not read or write it in that order: the runtime hands it over "
                         "as if it were contiguous, so the values are wrong unless every op between it and "
                         "the partition's edge is elementwise")
                 for position, order in unhonoured_dim_orders(delegate, compiled)]
    findings += [Finding(kind, index, position, f"argument {position} of OpenVINO delegate {index} ({what}) "
                         f"{UNRUNNABLE[kind]}; lower with the workaround's partitioner, which keeps such "
                         "tensors inside ExecuTorch")
                 for kind, position, what in unrunnable_arguments(delegate, compiled)]
    if GUARDED_KEY in delegate.compile_specs:  # proven or handed back: workaround.contract.delegate_specs
        return findings
    return findings + [Finding(kind, index, position, f"OpenVINO delegate {index}: {what}")
                       for kind, position, what in semantics_findings(delegate, compiled)]


@dataclass(frozen=True)
class Precision:
    delegate: int
    runs_at: str  # OpenVINO's name for the precision the import here gives ("f32", "bf16", ...)
    asked: str | None  # what its compile specs ask for, or None
    spec: str | None  # the compile spec that asks


def inference_precision(index: int, delegate: reader.Delegate, compiled: CompiledModel) -> Precision:
    """What precision the delegate runs at here, and what it was lowered asking for."""
    hint = compiled.get_property("INFERENCE_PRECISION_HINT")  # an element type: 2023.0's has no to_string
    runs_at = hint.get_type_name() if hasattr(hint, "get_type_name") else str(hint)
    spec = next((key for key in PRECISION_SPECS if key in delegate.compile_specs), None)
    asked = spec_text(delegate.compile_specs[spec]) if spec else None
    return Precision(index, runs_at, asked, spec)


def precision_findings(found: Precision) -> list[Finding]:
    if found.asked is None or found.asked == found.runs_at:
        return []
    return [Finding(FindingKind.PRECISION_NOT_KEPT, found.delegate, None,
                    f"OpenVINO delegate {found.delegate} was lowered asking for {found.asked} (compile spec "
                    f"{found.spec}) but imports at {found.runs_at} here: the blob does not carry its precision "
                    "and ExecuTorch 1.5.1's runtime imports with no properties, so this CPU decides. Expect "
                    f"{found.runs_at} rounding; see docs/model-owners.md for f32 at run time")]


def import_keeps_caller_memory(release: str) -> bool:
    """Whether ``release``'s C API import leaves the compiled model pointing into the memory it was given."""
    numbers = [int(part) for part in re.findall(r"\d+", release)[:3]]
    return tuple(numbers) >= IMPORT_KEEPS_CALLER_MEMORY_FROM


SEGMENT_BLOB_FREED = ("OpenVINO delegate {index}'s compiled model is stored in a segment that ExecuTorch's "
                      "OpenVINO backend frees right after importing it, and {why}: loaded from a file, the "
                      f"program crashes or reads freed memory with {USE_AFTER_FREE_RELEASES}. Re-export with "
                      "ExecutorchBackendConfig(extract_delegate_segments=False) or the workaround's partitioner")
WHY = {BlobUse.READS: "its compiled model reads that blob after import (asked of OpenVINO here: with the blob's "
                      "pages taken away after import, running it faulted)",
       BlobUse.UNKNOWN: "whether its compiled model reads that blob after import could not be asked here"}


def segment_finding(index: int, use: BlobUse | None) -> list[Finding]:
    """The finding of a segment blob whose compiled model reads it after import, or may (``use`` None: it
    could not be asked); none for one that keeps nothing of it."""
    why = WHY.get(use or BlobUse.UNKNOWN)
    if why is None:
        return []
    return [Finding(FindingKind.DELEGATE_BLOB_IN_SEGMENT, index, None, SEGMENT_BLOB_FREED.format(index=index,
                                                                                                 why=why))]


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
class Target:
    """Where the program is to load: the stamp text its importer requires (None: a release that stamps nothing),
    and how the fix names it (``--target-cpu CLASS``, or nothing for this host)."""
    text: str | None
    cpu_class: str | None = None  # None: this host

    def describe(self) -> str:
        return f"CPU class {self.cpu_class}" if self.cpu_class else "this host"


def this_host() -> Target:
    return Target(compatibility_stamp.this_process_text())


def target_cpu(cpu_class: str | None) -> Target:
    """The named class's importer (this host's release), or this host's for None."""
    here = this_host()
    if cpu_class is None or here.text is None:
        return here
    return Target(compatibility_stamp.text_for_class(cpu_class, compatibility_stamp.of_text(here.text)), cpu_class)


def stamp_findings(index: int, delegate: reader.Delegate, target: Target, program: str) -> list[Finding]:
    """The blob does not load where the program is to: stamped for another class, or compiled by another
    release."""
    stamp = compatibility_stamp.read(delegate.blob)
    if stamp is None or target.text is None or stamp.text == target.text:
        return []
    made, wanted = f"OpenVINO delegate {index} was compiled for {stamp.describe()}", compatibility_stamp.of_text(
        target.text)
    if stamp.release != wanted.release:
        return [Finding(FindingKind.COMPILED_BY_ANOTHER_RELEASE, index, None,
                        f"{made}; OpenVINO imports a blob only with the release that compiled it: on "
                        f"{target.describe()} (OpenVINO {wanted.release}) load_method fails with error 0x1. "
                        f"Export it again with OpenVINO {wanted.release}")]
    option = f" --target-cpu {target.cpu_class}" if target.cpu_class else ""
    return [Finding(FindingKind.STAMPED_FOR_ANOTHER_CPU, index, None,
                    f"{made}; OpenVINO 2026.4 imports a blob only on the CPU class it was stamped for: on "
                    f"{target.describe()} ({wanted.isa}) load_method fails with error 0x1. Fix: "
                    f"openvino-pte-restamp {program}{option}")]


@dataclass(frozen=True)
class SegmentBlob:
    """A blob ExecuTorch's backend frees after import, and whether its compiled model reads it then (None: it
    could not be asked here)."""
    delegate: int
    use: BlobUse | None


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
