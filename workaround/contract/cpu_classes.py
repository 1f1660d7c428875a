"""The classes of x86 CPU OpenVINO's CPU plugin computes differently for, by the family of kernels a process runs
(named by the instruction set its JIT picks): ``avx2`` (AVX2 and FMA, no AVX-512), ``avx512`` (AVX-512
F/BW/VL/DQ, with or without VNNI), ``avx512_bf16`` (AVX-512 with bf16, or AMX). OpenVINO 2026.4 stamps each
exported blob with its class, and some values differ by class. One enum for both deployables: the checker reads
and rewrites stamps by class, the harness and the tests run as each (``repro.harness.cpu.classes`` says how a
process reaches one). Standard library only."""

from enum import StrEnum


class CpuClass(StrEnum):
    AVX2 = "avx2"
    AVX512 = "avx512"
    AVX512_BF16 = "avx512_bf16"


ORDER = (CpuClass.AVX2, CpuClass.AVX512, CpuClass.AVX512_BF16)  # lowest first
