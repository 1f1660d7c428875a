"""What importing a delegate's blob shows (``openvino.Core().import_model``, its runtime graph): outputs that
pass an input straight through (never written with ExecuTorch's call order), arguments laid out in a dim order
the compiled model does not honour, arguments the delegate cannot run (0-d or 0-size, dynamic-shaped outputs),
and what OpenVINO computes differently (``workaround.checker.blob_differences``)."""

from workaround.checker import compatibility_stamp
from workaround.checker.blob_differences import semantics_findings
from workaround.checker.findings import Finding
from workaround.checker.pte import reader
from workaround.contract.boundary_marks import INPUT_MARK, OUTPUT_MARK, read_mark
from workaround.contract.delegate_specs import GUARDED_KEY
from workaround.contract.finding_kinds import FindingKind
from workaround.contract.layouts import same_layout
from workaround.contract.openvino_types import CompiledModel


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
