"""A finding of the post-lowering check: its kind, the delegate and port it concerns, and what it says. Every
part of the checker makes them; ``workaround.checker.program_check`` gathers them."""

from dataclasses import dataclass

from workaround.contract.finding_kinds import FindingKind


@dataclass(frozen=True)
class Finding:
    kind: FindingKind
    delegate: int | None  # index among the program's OpenVINO delegates; None for the program as a whole
    port: int | None  # the delegate output (pass-through) or delegate-call argument (dim order) concerned
    detail: str
