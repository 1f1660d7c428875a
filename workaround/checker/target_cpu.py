"""Where a program is to load, and whether each blob's compatibility stamp (OpenVINO 2026.4,
``workaround.checker.compatibility_stamp``) lets it: a blob stamped for another class than the target's is a
finding (``stamped_for_another_cpu``: ``load_method`` fails with 0x1 there; ``openvino-pte-restamp`` fixes it),
one compiled by another release too (``compiled_by_another_release``)."""

from dataclasses import dataclass

from workaround.checker import compatibility_stamp
from workaround.checker.findings import Finding
from workaround.checker.pte import reader
from workaround.contract.finding_kinds import FindingKind


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
