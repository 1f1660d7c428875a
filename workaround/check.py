"""Is a lowered program or a shipped .pte affected?  Look inside its OpenVINO blobs.

Each OpenVINO delegate carries a compiled model. Opened with
``openvino.Core().import_model`` its runtime graph shows what the CPU plugin will
execute; a Result fed directly by a Parameter is exactly the pattern whose output
is never written when ExecuTorch sets inputs before outputs. This finds such
outputs whatever op produced them, including pass-throughs nobody has listed yet.

After lowering::

    findings = check_program(executorch_program_manager)   # [] means clean

For a model already exported::

    python -m workaround.check model.pte [--json]
    exit 0: clean, 1: affected, 2: not a readable .pte
"""

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

OPENVINO_BACKEND = "OpenvinoBackend"
EXIT_CLEAN, EXIT_AFFECTED, EXIT_UNREADABLE = 0, 1, 2


@dataclass(frozen=True)
class Finding:
    kind: str  # "pass_through_output"
    delegate: int  # index among the program's OpenVINO delegates
    output: int  # the delegate output concerned
    detail: str


class UnreadableProgram(ValueError):
    """The bytes are not an ExecuTorch program."""


def openvino_blobs(pte_bytes):
    """The compiled-model bytes of every OpenVINO delegate in a serialized program."""
    from executorch.exir._serialize._program import deserialize_pte_binary

    if len(pte_bytes) < 8 or pte_bytes[4:6] != b"ET":
        raise UnreadableProgram("no ExecuTorch program identifier ('ET..') at byte 4")
    try:
        program = deserialize_pte_binary(pte_bytes).program
    except Exception as error:
        raise UnreadableProgram(f"cannot deserialize: {type(error).__name__}: {error}") from error
    return [program.backend_delegate_data[delegate.processed.index].data
            for plan in program.execution_plan for delegate in plan.delegates
            if delegate.id == OPENVINO_BACKEND]


def pass_through_outputs(blob):
    """Indices of outputs of the compiled model that are fed directly by a Parameter, with its name."""
    import openvino as ov

    runtime_model = ov.Core().import_model(blob, "CPU").get_runtime_model()
    found = []
    for index, result in enumerate(runtime_model.get_results()):
        source = result.input_value(0).get_node()
        if source.get_type_name() == "Parameter":
            found.append((index, source.get_friendly_name()))
    return found


def check_blobs(blobs):
    return [Finding("pass_through_output", delegate, output,
                    f"output {output} of OpenVINO delegate {delegate} is input '{name}' passed straight "
                    "through: with ExecuTorch's call order it is never written")
            for delegate, blob in enumerate(blobs) for output, name in pass_through_outputs(blob)]


def check_program(program):
    """Findings for an ExecutorchProgramManager (``.to_executorch()``), .pte bytes, or a .pte path."""
    if isinstance(program, str | Path):
        program = Path(program).read_bytes()
    buffer = program if isinstance(program, bytes | bytearray) else program.buffer
    return check_blobs(openvino_blobs(bytes(buffer)))


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m workaround.check", description=__doc__.splitlines()[0])
    parser.add_argument("pte", type=Path, help="an ExecuTorch .pte file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        blobs = openvino_blobs(args.pte.read_bytes())
    except (OSError, UnreadableProgram) as error:
        print(f"{args.pte}: not a readable .pte: {error}", file=sys.stderr)
        return EXIT_UNREADABLE
    findings = check_blobs(blobs)
    if args.json:
        print(json.dumps({"file": str(args.pte), "openvino_delegates": len(blobs),
                          "findings": [asdict(f) for f in findings]}, indent=1))
    else:
        for finding in findings:
            print(f"{args.pte}: {finding.detail}")
        print(f"{args.pte}: {len(blobs)} OpenVINO delegate(s), "
              + (f"AFFECTED: {len(findings)} pass-through output(s)" if findings else "clean"))
    return EXIT_AFFECTED if findings else EXIT_CLEAN


if __name__ == "__main__":
    sys.exit(main())
