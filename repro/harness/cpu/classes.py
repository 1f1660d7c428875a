"""Which class of x86 CPU OpenVINO's CPU plugin computes for in this process, and how to reach the others.

OpenVINO computes some values differently by instruction set: its x64 ``Greater`` / ``GreaterEqual``
emitters compare with an ordered predicate in their AVX2 branch (NaN is false, as in PyTorch) and an
unordered one in their SSE4.1 and AVX-512 branches (NaN is true). A class is the family of kernels a
process runs, named by the instruction set the CPU plugin's JIT picks:

- ``avx2``: AVX2 and FMA, no AVX-512 (most AMD EPYCs before Zen 4, Intel client CPUs, many CI runners);
- ``avx512``: AVX-512 F/BW/VL/DQ, with or without VNNI (Skylake-SP to Ice Lake servers);
- ``avx512_bf16``: AVX-512 with bf16 (Cooper Lake, Zen 4 and later) or AMX (Sapphire Rapids and later).

A process's class is its host's, capped by oneDNN's dispatcher control ``ONEDNN_MAX_CPU_ISA``
(``DNNL_MAX_CPU_ISA`` is the older name), which the CPU plugin's JIT and its blob stamp obey (measured on
2026.4.1: capped at AVX2 on an AVX-512 BF16 host, ``Greater(NaN, 0)`` is false and an exported blob says
``isa=Intel AVX2``). OpenVINO's own ``OV_CPU_MAX_ISA`` is another thing: it caps only the core's feature
queries, so it changes the default precision (bf16 -> f32) but no kernel and no stamp.

Below AVX2, and off x86, no class is measured: ``process_class`` says so, as an unmeasured release does.
"""

import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from workaround.contract.cpu_classes import ORDER, CpuClass

CAP = "ONEDNN_MAX_CPU_ISA"
LEGACY_CAP = "DNNL_MAX_CPU_ISA"
OPENVINO_CAP = "OV_CPU_MAX_ISA"


__all__ = ["ORDER", "CpuClass"]  # the contract's, read from here by the harness and the tests
# The cap that makes a process of a higher class compute as this one (oneDNN's names).
CAP_FOR = {CpuClass.AVX2: "AVX2", CpuClass.AVX512: "AVX512_CORE_VNNI", CpuClass.AVX512_BF16: "AVX512_CORE_BF16"}
# oneDNN's dispatcher names, lowest first, and the class each leaves a process at (None: below every class).
_ONEDNN_ISAS = {"SSE41": None, "AVX": None, "AVX2": CpuClass.AVX2, "AVX2_VNNI": CpuClass.AVX2,
                "AVX2_VNNI_2": CpuClass.AVX2, "AVX512_CORE": CpuClass.AVX512,
                "AVX512_CORE_VNNI": CpuClass.AVX512}
_AVX512 = {"avx512f", "avx512bw", "avx512vl", "avx512dq"}


class UnmeasuredCpuClass(LookupError):
    """This process runs kernels of no class the project has measured OpenVINO on."""


def flags_class(flags: set[str]) -> CpuClass | None:
    """The class of a CPU with these /proc/cpuinfo flags, or None below AVX2."""
    if flags >= _AVX512 and flags & {"avx512_bf16", "amx_bf16"}:
        return CpuClass.AVX512_BF16
    if flags >= _AVX512:
        return CpuClass.AVX512
    return CpuClass.AVX2 if {"avx2", "fma"} <= flags else None


@cache
def host_flags() -> frozenset[str]:
    """The CPU flags the kernel reports (empty off Linux or off x86)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return frozenset()
    line = next((line for line in text.splitlines() if line.startswith("flags")), "")
    return frozenset(line.partition(":")[2].split())


def capped(cpu_class: CpuClass | None, environment: Mapping[str, str]) -> CpuClass | None:
    """``cpu_class`` under the oneDNN cap ``environment`` sets, if any (a cap above it changes nothing)."""
    cap = (environment.get(CAP) or environment.get(LEGACY_CAP) or "").upper()
    if cpu_class is None or not cap or cap in ("ALL", "DEFAULT"):
        return cpu_class
    limit = _ONEDNN_ISAS.get(cap, CpuClass.AVX512_BF16)  # every name above AVX512_CORE_VNNI keeps bf16
    return None if limit is None else min(cpu_class, limit, key=ORDER.index)


def process_class(environment: Mapping[str, str] | None = None) -> CpuClass:
    """The class OpenVINO computes for in a process with ``environment`` (default: this one's) on this host."""
    environment = os.environ if environment is None else environment
    found = capped(flags_class(set(host_flags())), environment)
    if found is None:
        shown = " ".join(sorted(host_flags() & {"sse4_2", "avx", "avx2", "fma", *_AVX512})) or "none read"
        raise UnmeasuredCpuClass(f"no known OpenVINO behaviour for this CPU (flags: {shown}; {CAP}="
                                 f"{environment.get(CAP, '')!r}): measure the gate's expectations on it and add "
                                 f"its class to {__name__}")
    return found


def reachable_classes() -> list[CpuClass]:
    """Every class this host can compute as (its own and those below it), lowest first."""
    own = flags_class(set(host_flags()))
    return [] if own is None else list(ORDER[:ORDER.index(own) + 1])


def environment_for(cpu_class: CpuClass) -> dict[str, str]:
    """The variables that make a child process of this host compute as a host of ``cpu_class`` would: oneDNN's cap
    for the kernels and the stamp, and OpenVINO's for the core's feature queries (without it the core still sees
    bf16 and defaults to it, which AVX2 kernels cannot compile: every import fails)."""
    return {CAP: CAP_FOR[cpu_class], OPENVINO_CAP: CAP_FOR[cpu_class]}
