"""The precision OpenVINO's CPU plugin computes f32 models at in this process, and the tolerances that follow.

On CPUs with AVX-512 BF16 or AMX the CPU plugin's default is bf16, and ExecuTorch 1.5.1's runtime imports
every delegate with no properties, so nothing in a program can ask for f32 (measured: a 256-wide f32
matmul 0.097 from float64 at the default, 2.2e-5 at f32). Capping the plugin's instruction set below
AVX-512 BF16 (``OV_CPU_MAX_ISA=AVX512_CORE_VNNI``, set before OpenVINO loads; VNNI kept, so int8 keeps its
kernels) makes its default f32: the gate sets it for itself and its children (``tests/conftest.py``), so a
layout or copy bug smaller than bf16 rounding still shows, on every CPU alike. On a CPU without bf16 the cap
changes nothing. The tolerances below are what each precision leaves (measured on the catalogue and the
model tier; see docs/measurements.md).
"""

import os
from collections.abc import Mapping
from functools import cache

from repro.harness.cpu.classes import CpuClass, environment_for

ISA_CAP = "OV_CPU_MAX_ISA"
F32_ISA_CAP = {ISA_CAP: "AVX512_CORE_VNNI"}  # below AVX512_CORE_BF16 and AMX: the CPU plugin's default is f32
# (f32 tolerance, bf16 tolerance)
CONV = (1e-4, 1e-2)  # convolutions and matmuls of the catalogue
DEEP = (1e-3, 5e-2)  # the model tier: two to six layers of random weights


@cache
def default_is_f32() -> bool:
    """True where OpenVINO's CPU plugin computes f32 models in f32 in this process (its default hint)."""
    import openvino as ov

    return str(ov.Core().get_property("CPU", "INFERENCE_PRECISION_HINT")) in ("<Type: 'float32'>", "f32")


def tolerance(pair: tuple[float, float]) -> float:
    """The f32 or the bf16 tolerance of ``pair``, for the precision this process computes at."""
    return pair[0] if default_is_f32() else pair[1]


def f32_environment(cpu_class: CpuClass) -> dict[str, str]:
    """The variables that make a child compute as ``cpu_class`` at f32: that class's kernels (oneDNN's cap), and
    OpenVINO's own cap no higher than the gate's (below bf16, so the default precision is f32)."""
    environment = environment_for(cpu_class)
    if cpu_class == CpuClass.AVX512_BF16:
        environment.update(F32_ISA_CAP)
    return environment


def without_cap(environment: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environment`` (default: this process's) without the ISA cap: OpenVINO at the CPU's default."""
    return {key: value for key, value in (os.environ if environment is None else environment).items()
            if key != ISA_CAP}
