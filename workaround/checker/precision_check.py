"""The precision each delegate runs at where the checker imports it, as ExecuTorch 1.5.1's runtime imports it (with
no properties: this CPU, this OpenVINO and this process's environment decide), against what it was lowered
asking for (``precision_not_kept``: the blob does not carry the precision it was compiled with)."""

from dataclasses import dataclass

from workaround.checker.findings import Finding
from workaround.checker.pte import reader
from workaround.checker.pte.reader import spec_text
from workaround.contract.finding_kinds import FindingKind
from workaround.contract.openvino_types import CompiledModel

# Compile specs that ask a delegate for a precision: OpenVINO's own name, and the workaround's.
PRECISION_SPECS = ("INFERENCE_PRECISION_HINT", "inference_precision")


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
