"""The compatibility header OpenVINO 2026.4's CPU plugin writes at the start of every exported blob.

Layout (measured on 2026.4.0 and 2026.4.1; openvino PR #36969, "[CPU] Implement cache compatibility checks for CPU
plugin"): the magic ``OVCPU_RR`` as a little-endian u64 (the bytes ``RR_UPCVO``), a u32 version (1), a u64 length,
then that many bytes of text, ``meta=1.0;ov=2026.4.1;isa=<the exporting process's oneDNN ISA name>``, then the
model's IR. The importer builds the same text for itself and refuses a blob whose text differs by one byte ("it
was built for a different runtime configuration (OpenVINO version/isa mismatch)"), which is why a program
exported on one CPU class does not load on another. Blobs of 2026.3 and older carry no header.
"""

import struct
from dataclasses import dataclass
from functools import cache

from workaround.contract.cpu_classes import CpuClass

MAGIC = b"RR_UPCVO"
_FIXED = struct.Struct("<8sIQ")  # magic, version, text length
# oneDNN's ISA names as the stamp spells them, by the class of kernels they run (workaround.contract.cpu_classes).
_CLASS_OF_ISA = (("bfloat16", CpuClass.AVX512_BF16), ("AMX", CpuClass.AVX512_BF16), ("AVX-512", CpuClass.AVX512),
                 ("AVX2", CpuClass.AVX2))
# The ISA name each class's importer writes, measured (2026.4.1): an AMD EPYC with AVX2 only; an AVX-512 BF16 host,
# and the same host with oneDNN capped at AVX512_CORE_VNNI. (An AVX-512 CPU without VNNI, or one with AMX, writes
# yet another name: a program for one is restamped on it, as this host.)
ISA_OF_CLASS = {CpuClass.AVX2: "Intel AVX2", CpuClass.AVX512: "Intel AVX-512 with Intel DL Boost",
                CpuClass.AVX512_BF16: "Intel AVX-512 with Intel DL Boost and bfloat16 support"}


@dataclass(frozen=True)
class Stamp:
    version: int
    text: str  # "meta=1.0;ov=2026.4.1;isa=Intel AVX2"
    size: int  # of the whole header: the IR starts here

    @property
    def fields(self) -> dict[str, str]:
        return dict(field.partition("=")[::2] for field in self.text.split(";") if field)

    @property
    def isa(self) -> str:
        return self.fields.get("isa", "")

    @property
    def release(self) -> str:
        return self.fields.get("ov", "")

    @property
    def cpu_class(self) -> CpuClass | None:
        """The class of CPU kernels the stamp names (avx2, avx512, avx512_bf16), or None for an ISA below AVX2."""
        return next((cpu_class for word, cpu_class in _CLASS_OF_ISA if word in self.isa), None)

    def describe(self) -> str:
        return f"CPU class {self.cpu_class or 'unknown'} ({self.isa}), OpenVINO {self.release}"


def of_text(text: str) -> Stamp:
    """The stamp a text alone gives (what an importer requires, say), to read its fields: version 1, no header."""
    return Stamp(1, text, 0)


def read(blob: bytes) -> Stamp | None:
    """The blob's stamp, or None where it has none (OpenVINO 2026.3 and older) or it is cut short."""
    if len(blob) < _FIXED.size or not blob.startswith(MAGIC):
        return None
    _, version, length = _FIXED.unpack_from(blob)
    if _FIXED.size + length > len(blob):
        return None
    text = blob[_FIXED.size:_FIXED.size + length].decode("utf-8", "replace")
    return Stamp(version, text, _FIXED.size + length)


def with_text(blob: bytes, text: str) -> bytes:
    """``blob`` with its stamp's text replaced (the length field follows): the blob a process whose own text that
    is would have exported, where the IR after the header does not depend on the exporting class (measured: the
    same layers and attributes, names aside, exported under AVX2 and AVX-512 BF16 kernels, for each of the 134
    programs of the catalogue, stock and workaround)."""
    stamp = read(blob)
    if stamp is None:
        raise ValueError("the blob has no compatibility header")
    encoded = text.encode()
    return _FIXED.pack(MAGIC, stamp.version, len(encoded)) + encoded + blob[stamp.size:]


def text_for_class(cpu_class: str, stamp: Stamp) -> str:
    """``stamp``'s text as an importer of ``cpu_class`` (a ``CpuClass`` or its name) builds it, the rest kept."""
    fields = {**stamp.fields, "isa": ISA_OF_CLASS[CpuClass(cpu_class)]}
    return ";".join(f"{key}={value}" for key, value in fields.items())


@cache
def this_process_text() -> str | None:
    """The text this process's OpenVINO builds, and so requires of a blob it imports (None before 2026.4): read
    from a one-op model it exports, since neither the Python nor the C API gives it. Once a process: the ISA it
    names is oneDNN's, fixed when the library loads (its cap is read then)."""
    import openvino as ov
    import openvino.opset8 as ops

    x = ops.parameter([1], ov.Type.f32)
    compiled = ov.Core().compile_model(ov.Model([ops.sin(x)], [x]), "CPU")
    stamp = read(compiled.export_model().getvalue())
    return stamp.text if stamp else None
