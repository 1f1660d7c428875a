"""The CPU class a process computes as (``repro/harness/cpu/classes.py``): read from the host's flags and oneDNN's
cap, and reached in plain OpenVINO by that cap alone (its kernels and its blob stamp follow it; OpenVINO's own
``OV_CPU_MAX_ISA`` moves neither)."""

import json
import os
import subprocess
import sys

import pytest

from repro.harness.cpu.classes import (
    CAP,
    CpuClass,
    UnmeasuredCpuClass,
    capped,
    environment_for,
    flags_class,
    process_class,
    reachable_classes,
)
from tests.support.helpers import PROJECT

AVX2_HOST = {"sse4_2", "avx", "avx2", "fma"}
AVX512_HOST = AVX2_HOST | {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_vnni"}


@pytest.mark.parametrize(("flags", "expected"), [
    (AVX2_HOST, CpuClass.AVX2),
    (AVX2_HOST | {"avx_vnni"}, CpuClass.AVX2),
    (AVX512_HOST, CpuClass.AVX512),
    (AVX512_HOST | {"avx512_bf16"}, CpuClass.AVX512_BF16),
    (AVX512_HOST | {"amx_bf16", "amx_tile"}, CpuClass.AVX512_BF16),
    ({"sse4_2", "avx"}, None),
    (set(), None),
], ids=["avx2", "avx2_vnni", "avx512_vnni", "avx512_bf16", "amx", "avx_only", "no_flags"])
def test_a_hosts_class_is_read_from_its_flags(flags, expected):
    assert flags_class(flags) == expected


@pytest.mark.parametrize(("cap", "expected"), [
    ({}, CpuClass.AVX512_BF16), ({CAP: "AVX2"}, CpuClass.AVX2), ({CAP: "avx512_core"}, CpuClass.AVX512),
    ({CAP: "AVX512_CORE_VNNI"}, CpuClass.AVX512), ({CAP: "AVX512_CORE_AMX"}, CpuClass.AVX512_BF16),
    ({"DNNL_MAX_CPU_ISA": "AVX2"}, CpuClass.AVX2), ({CAP: "SSE41"}, None), ({CAP: "ALL"}, CpuClass.AVX512_BF16),
    ({"OV_CPU_MAX_ISA": "AVX2"}, CpuClass.AVX512_BF16),
])
def test_oneDNNs_cap_lowers_the_class_and_openvinos_does_not(cap, expected):
    assert capped(CpuClass.AVX512_BF16, cap) == expected


def test_a_cap_above_the_host_changes_nothing():
    assert capped(CpuClass.AVX2, {CAP: "AVX512_CORE_BF16"}) == CpuClass.AVX2


def test_a_class_below_every_measured_one_is_an_error_saying_to_measure_it():
    with pytest.raises(UnmeasuredCpuClass, match="measure the gate's expectations on it"):
        process_class({CAP: "SSE41"})


# A child compiles Greater and exports it, as one class computes: what its kernels and its blob's stamp say.
PROBE = """
import json, numpy as np, openvino as ov, openvino.opset8 as ops
from workaround.checker import compatibility_stamp
x = ops.parameter([2], ov.Type.f32)
model = ov.Core().compile_model(ov.Model([ops.greater(x, ops.constant(np.float32(0)))], [x]), "CPU")
stamp = compatibility_stamp.read(model.export_model().getvalue())
print(json.dumps({"nan_greater": bool(model([np.array([np.nan, 1], np.float32)])[0][0]),
                  "stamped_class": stamp and stamp.cpu_class, "isa": stamp and stamp.isa}))
"""


def probe(environment):
    result = subprocess.run([sys.executable, "-c", PROBE], env={**os.environ, **environment}, cwd=PROJECT,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout)


@pytest.mark.parametrize("cpu_class", reachable_classes(), ids=str)
def test_plain_openvino_compares_nan_as_the_class_is_recorded(cpu_class):
    """Greater(NaN, 0) is false in OpenVINO's AVX2 kernels only (the catalogue's nan_greater_than records it)."""
    from repro.harness.models.catalogue import CASES

    found = probe(environment_for(cpu_class))
    assert found["nan_greater"] == (cpu_class not in CASES["nan_greater_than"].stock.right_on)
    assert found["stamped_class"] in (cpu_class, None), found  # None: a release before the stamp


def test_openvinos_own_cap_leaves_the_kernels_and_the_stamp_as_they_were():
    native = probe({})
    assert probe({"OV_CPU_MAX_ISA": "AVX2"}) == native


# What a class exports, compared: a conv and a softmax compiled at f32 (OpenVINO's default below bf16), the IR
# after the blob's header hashed.
BODY_PROBE = """
import hashlib, json, numpy as np, openvino as ov, openvino.opset8 as ops
from workaround.checker import compatibility_stamp
x = ops.parameter([1, 3, 8, 8], ov.Type.f32)
w = ops.constant(np.random.default_rng(0).standard_normal((4, 3, 3, 3)).astype(np.float32))
y = ops.softmax(ops.relu(ops.convolution(x, w, [1, 1], [1, 1], [1, 1], [1, 1])), 1)
blob = ov.Core().compile_model(ov.Model([y], [x]), "CPU").export_model().getvalue()
stamp = compatibility_stamp.read(blob)
ir = blob[stamp.size if stamp else 0:]
print(json.dumps({"isa": stamp and stamp.isa, "ir": hashlib.sha256(ir).hexdigest()}))
"""


def test_every_class_exports_the_same_ir_at_one_precision():
    """Why the gate lowers once and re-stamps for the other classes (``repro.harness.cpu.restamp``): the blob's
    header is all that differs between the classes' exports (the partitioner's graph is pure torch.fx, the same on
    any CPU; measured on whole programs too: the workaround's upstream_clone_sin lowered by a process capped at
    AVX2 and one at AVX-512 BF16 carry the same IR, 1,700 bytes after the header)."""
    from repro.harness.cpu.precision import f32_environment

    exported = []
    for cpu_class in reachable_classes():
        result = subprocess.run([sys.executable, "-c", BODY_PROBE], cwd=PROJECT, capture_output=True, text=True,
                                env={**os.environ, **f32_environment(cpu_class)}, timeout=120, check=False)
        assert result.returncode == 0, result.stderr[-2000:]
        exported.append(json.loads(result.stdout))
    assert len({found["ir"] for found in exported}) == 1, exported
