"""What each OpenVINO release is known to do with the plain reproducer's models.

This is the table the tests hold the installed release to. It was measured with
``repro/plain_openvino.py`` (see the README's release table); when a test built on
it fails, OpenVINO changed behaviour: re-measure, update this table and the
upstream report, and check whether the workaround can be retired.
"""

from dataclasses import dataclass
from importlib.metadata import version

from packaging.version import Version

from repro.harness.cases.outcomes import Outcome
from repro.harness.cpu.classes import process_class
from repro.harness.runtime.program_runner import Load
from tests.support.outcomes import CRASHED_OR_WRONG

STALE, DOWNSTREAM, OVERWRITTEN = "stale_output", "wrong_downstream", "input_overwritten"
SLOT = "input_slot_is_output_buffer"  # get_input_tensor(0) returns output 0's buffer before infer()

# (first release of an era, {model: {order: symptoms}}); an era lasts until the next one.
_ERAS = [
    ("2023.0.0", {  # the control order is wrong too; the input is never touched; the slots are apart
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
        "param_result_only": {"inputs_first": {STALE}, "outputs_first": {STALE}},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM}, "outputs_first": {STALE}},
    }),
    ("2023.3.0", {  # input and output share one slot: setting outputs first avoids the bug from here on
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM, SLOT}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE, SLOT}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM, SLOT}, "outputs_first": set()},
    }),
    ("2024.1.0", {  # the stale output is now also copied into the caller's input
        "param_result_and_sin": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN, SLOT}, "outputs_first": set()},
        "param_result_only": {"inputs_first": {STALE, SLOT}, "outputs_first": set()},
        "param_result_and_sin_dynamic": {"inputs_first": {STALE, DOWNSTREAM, OVERWRITTEN, SLOT},
                                         "outputs_first": set()},
    }),
]

# Models converted from torch copy ops return (copy, sin(copy)), like param_result_and_sin.
TORCH_MODEL_BEHAVES_LIKE = "param_result_and_sin"
# Top-level openvino.opset8 (before: openvino.runtime.opset8 only; 2026 has no openvino.runtime).
TOP_LEVEL_OPSETS_FROM = Version("2025.0.0")
# The first wheel that ships libopenvino_c (the C API), measured over every release since 2023.0.0; the C++
# headers and cmake/OpenVINOConfig.cmake arrive in the same wheel (2024.2.0 has none of them).
C_API_IN_WHEEL_FROM = CPP_HEADERS_IN_WHEEL_FROM = Version("2024.3.0")
# The first release whose CPU blobs carry the compatibility stamp and import only on the exporting CPU's class
# (measured over every release on the index: attachments/openvino_cpu_stamp.py in the recorded matrix).
STAMPED_FROM = Version("2026.4.0")
# Before this release ov.convert_model has no rule for aten.alias_copy (measured on 2024.6.0, 2025.0.0).
TORCH_ALIAS_COPY_CONVERTS_FROM = Version("2025.1.0")


def installed_openvino():
    return Version(version("openvino"))


def expected_symptoms(model, order, release=None):
    release = release or installed_openvino()
    eras = [table for first, table in _ERAS if Version(first) <= release]
    if not eras:
        raise LookupError(f"no known behaviour for OpenVINO {release}: add it to {__name__}")
    if model.startswith("torch:"):
        model = TORCH_MODEL_BEHAVES_LIKE
    return eras[-1][model][order]


# --- The ExecuTorch path with the stock OpenvinoPartitioner --------------------------------
# What each catalogue case does with the stock partitioner is stated on the case (``Case.stock``, in
# repro/harness/models/catalogue.py); these are the releases at which that changes.

# From this release OpenVINO's partitioner takes aten.alias_copy (x.detach(), x[:, :], transpose(0, 0)).
ALIAS_COPY_DELEGATED_FROM = Version("2025.4.0")
# From this release ov_core_import_model no longer copies the content: the CPU plugin reads the
# constants it does not repack (biases, eltwise operands) from the caller's buffer after the call
# (attachments/openvino_import_lifetime.c; measured on every release: 2024.3.0 - 2026.3.1 copy; 2026.4.0, 2026.4.1
# do not).
# ExecuTorch 1.5.1's OpenVINO backend frees that buffer right after the call, so a program loaded by
# path crashes, or gives wrong values once the freed pages are reused; from bytes nothing is freed.
IMPORT_KEEPS_CALLER_BUFFER_FROM = Version("2026.4.0")
# The CPU plugin drops a rank-1 Abs computed from constants (openvino#38166; what reflection padding decomposes
# into) from this release on: the matrix measured 2025.3.0 right and 2025.4.0 wrong, plain and C++.
ABS_OF_CONSTANTS_DROPPED_FROM = Version("2025.4.0")
_USE_AFTER_FREE = ("by path the backend has freed the blob whose constants OpenVINO reads in place "
                   "(use-after-free: crash, or wrong values once the pages are reused)")


_EMPTY_SEGMENT = ("by path the program's only constants are 0-size: its 0-byte constant segment loads as null "
                  "and load_method fails (0x23)")


@dataclass(frozen=True)
class ExecutorchBackend:
    """What one ExecuTorch release's OpenVINO backend does, as the stock outcomes depend on it."""
    delegates_copies: bool  # the partitioner lets a returned copy of an input into a partition
    boundary_sizes_only: bool  # boundary tensors reach OpenVINO with their sizes only (channels-last wrong)
    frees_blob: bool  # OpenvinoBackend::init frees the compiled blob right after the import
    empty_constants_unloadable: bool  # the runtime: a program whose constants are all 0-size fails by path (0x23)


_EVERY_BUG = ExecutorchBackend(delegates_copies=True, boundary_sizes_only=True, frees_blob=True,
                               empty_constants_unloadable=True)
# Per ExecuTorch release, measured with the stock partitioner on OpenVINO 2026.4.1 and torch 2.13.0 (the whole
# gate in tox ov2026.4-et1.4, ov2026.4-et1.5.0 and ov2026.4, 2026-12-01): the same four bugs in each. A release
# that fixes one turns its strict expected failures into XPASS, saying which test to retire.
EXECUTORCH_BACKENDS = {"1.4.1": _EVERY_BUG, "1.5.0": _EVERY_BUG, "1.5.1": _EVERY_BUG}


def installed_executorch():
    """The installed ExecuTorch release's entry in EXECUTORCH_BACKENDS; an unmeasured release is an error."""
    release = version("executorch")
    if release not in EXECUTORCH_BACKENDS:
        raise LookupError(f"no known behaviour for executorch {release}: run the gate on it and add what it does "
                          f"to EXECUTORCH_BACKENDS in {__name__}")
    return EXECUTORCH_BACKENDS[release]


def stock_use_after_free(release=None):
    """Programs whose delegate reads a constant in place crash (or compute on freed memory) by path."""
    release = release or installed_openvino()
    return release >= IMPORT_KEEPS_CALLER_BUFFER_FROM and installed_executorch().frees_blob


def stock_outcome(case, load="bytes", release=None, cpu_class=None):
    """(outcome, why) for a catalogue case with the stock partitioner on the installed (or given) release and
    this process's (or the given) CPU class, its program loaded from bytes or by path; the outcome an
    ``Outcome`` (CORRECT, WRONG, LOWERING_FAILED or RUNTIME_FAILED) or CRASHED_OR_WRONG. A class never measured
    is an error (``UnmeasuredCpuClass``), as a release never measured is."""
    from repro.harness.models.catalogue import (  # needs torch
        ABS_DROPPED,
        PASS_THROUGH,
        READ_AS_CONTIGUOUS,
        WRITTEN_AS_CONTIGUOUS,
    )

    release, backend = release or installed_openvino(), installed_executorch()
    cpu_class = cpu_class or process_class()
    if load != Load.BYTES and case.stock.empty_constant_segment and backend.empty_constants_unloadable:
        return Outcome.RUNTIME_FAILED, _EMPTY_SEGMENT
    if load != Load.BYTES and case.stock.reads_constant_in_place and stock_use_after_free(release):
        return CRASHED_OR_WRONG, _USE_AFTER_FREE
    right_because = [  # (applies, why this release, ExecuTorch and CPU class compute the case right after all)
        (cpu_class in case.stock.right_on, f"OpenVINO's {cpu_class} kernels compute it as PyTorch does"),
        (case.stock.why == ABS_DROPPED and release < ABS_OF_CONSTANTS_DROPPED_FROM,
         "OpenVINO before 2025.4.0 keeps the Abs of constants"),
        (case.stock.alias_copy and release < ALIAS_COPY_DELEGATED_FROM,
         "alias_copy is not delegated before 2025.4, so ExecuTorch makes the copy"),
        (case.stock.why == PASS_THROUGH and not backend.delegates_copies,
         "this ExecuTorch keeps returned copies out of OpenVINO partitions"),
        (case.stock.why in (READ_AS_CONTIGUOUS, WRITTEN_AS_CONTIGUOUS) and not backend.boundary_sizes_only,
         "this ExecuTorch hands OpenVINO each boundary tensor in its dim order"),
    ]
    why = next((why for applies, why in right_because if applies), None)
    return (Outcome.CORRECT, why) if why else (case.stock.outcome, case.stock.why)
