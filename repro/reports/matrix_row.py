"""One row of the release matrix: what ``repro/matrix_runs.py`` records for one OpenVINO release and
``matrix.json`` holds, and what every report builder reads. Typed here so that the runner, the reports and
the tests name the same fields; a row is JSON as written (a ``TypedDict`` is a dict), so recorded matrices
read back unchanged.
"""

from enum import StrEnum
from typing import Any, TypedDict


class RowStatus(StrEnum):
    """How the release's plain reproducer ended (its exit status, or why there is none)."""

    OK = "ok"  # exit 0: the bug does not show
    BUG = "bug"  # exit 1: reproduced
    UNTESTABLE = "untestable"  # exit 125
    ERROR = "error"  # another exit, or no JSON
    CRASHED = "crashed"  # killed by a signal
    TIMEOUT = "timeout"
    INSTALL_FAILED = "install_failed"  # the environment could not be made: nothing ran


class CommandRun(TypedDict, total=False):
    """A command run verbatim: its exit status (None: it ran out of time), everything it printed, and what it
    printed on stdout (an attachment's own lines; its stderr holds the third-party import messages)."""

    exit_code: int | None
    output: str
    stdout: str


class MatrixRow(TypedDict):
    requested: str  # as the user named it (a series, "2026.4"), resolved to ``release``
    release: str
    status: RowStatus | None
    detail: str
    seconds: float | None
    plain: dict[str, Any] | None  # plain_openvino.py --json
    snippet: CommandRun | None  # attachments/openvino_stale_copies.py
    # attachments/openvino_import_lifetime.c, built and run as its report prints it (repro/attachment_commands.py)
    import_lifetime: CommandRun | None
    import_overloads: CommandRun | None  # the same of attachments/openvino_import_overloads.cpp
    import_symbols: CommandRun | None  # the `nm ... | grep import_model` line: which import the C API calls
    constant_abs: CommandRun | None  # attachments/openvino_constant_abs.py
    constant_abs_cpp: CommandRun | None  # its C++ twin, built and run
    cpu_semantics: CommandRun | None  # attachments/openvino_cpu_semantics.py
    import_precision: CommandRun | None  # attachments/openvino_import_precision.py, at the CPU's default
    cpu_stamp: CommandRun | None  # attachments/openvino_cpu_stamp.py
    cpu_stamp_c: CommandRun | None  # its C twin (attachments/openvino_cpu_stamp.c), built and run
    state_cache_update: CommandRun | None  # attachments/openvino_state_cache_update.py (a cost: exit 1 reproduced)
    compressed_matmul: CommandRun | None  # attachments/openvino_compressed_matmul.py (a cost: exit 1 reproduced)
    # executorch_path.py --json, or None where the ExecuTorch stack was not installed
    executorch: dict[str, Any] | None
    executorch_by_path: CommandRun | None  # attachments/executorch_frees_blob.py
    executorch_channels_last: CommandRun | None  # attachments/executorch_channels_last.py
    executorch_empty_constants: CommandRun | None  # attachments/executorch_empty_constants.py
    executorch_semantics: CommandRun | None  # attachments/executorch_semantics.py
    executorch_stale_copies: CommandRun | None  # attachments/executorch_stale_copies.py
    executorch_precision: CommandRun | None  # attachments/executorch_precision.py, at the CPU's default
    executorch_runtime_import: CommandRun | None  # attachments/executorch_runtime_import.py
    executorch_portable_kernels: CommandRun | None  # attachments/executorch_portable_kernels.py
    executorch_cpu_stamp: CommandRun | None  # attachments/executorch_cpu_stamp.py
    executorch_llm_pipeline: CommandRun | None  # attachments/executorch_llm_pipeline.py
    executorch_openvino_4wo_layers: CommandRun | None  # attachments/executorch_openvino_4wo_layers.py
    pytorch_cia_materialization: CommandRun | None  # attachments/pytorch_cia_materialization.py
    # {executorch release: those ExecuTorch fields, or {"install_failed": why}} with --executorch-versions
    executorch_releases: dict[str, Any] | None
    executorch_environment: str | None  # `python -m torch.utils.collect_env`
    # {series: {"with", "without", "subtests"}} of `python -m repro.harness.conformance.op_tests`
    executorch_patch_tests: dict[str, Any] | None
    # the runs above with the patched runtime backend (--executorch-source), or None
    executorch_by_path_patched: CommandRun | None
    executorch_stale_copies_patched: CommandRun | None
    executorch_precision_patched: CommandRun | None
    # attachments/executorch_llm_pipeline.py with the llm-unquantized and symbolic-sizes series applied, or None
    executorch_llm_pipeline_patched: CommandRun | None
    # attachments/executorch_openvino_4wo_layers.py with the openvino-4wo-all-layers series applied, or None
    executorch_openvino_4wo_layers_patched: CommandRun | None


class Summary(TypedDict):
    """Where each signal (``release_boundaries.SIGNALS``) is yes and no, and how many rows ended in each status."""

    boundaries: list[str]
    statuses: dict[str, int]


class Matrix(TypedDict):
    """What ``repro/matrix.py`` writes as ``matrix.json`` and every report builder reads."""

    index_note: str  # where the list of releases came from (the package index, or the built-in list)
    available: list[str]  # every release on the index, oldest first
    rows: list[MatrixRow]  # the releases run
    summary: Summary


def empty_row(requested: str, release: str) -> MatrixRow:
    """A row before anything ran: every run None (keys in the order matrix.json has always had them)."""
    return MatrixRow(requested=requested, release=release, status=None, detail="", seconds=None, plain=None,
                     snippet=None, import_lifetime=None, import_overloads=None, import_symbols=None,
                     executorch=None, executorch_by_path=None, executorch_channels_last=None,
                     executorch_environment=None, executorch_patch_tests=None, executorch_by_path_patched=None,
                     executorch_releases=None, executorch_empty_constants=None, executorch_semantics=None,
                     executorch_stale_copies=None, executorch_stale_copies_patched=None, executorch_precision=None,
                     executorch_precision_patched=None, constant_abs=None, constant_abs_cpp=None,
                     cpu_semantics=None, import_precision=None, cpu_stamp=None, cpu_stamp_c=None,
                     state_cache_update=None, compressed_matmul=None,
                     executorch_runtime_import=None,
                     pytorch_cia_materialization=None, executorch_portable_kernels=None,
                     executorch_cpu_stamp=None, executorch_llm_pipeline=None, executorch_openvino_4wo_layers=None,
                     executorch_llm_pipeline_patched=None, executorch_openvino_4wo_layers_patched=None)


def recorded(row: MatrixRow, field: str) -> Any:
    """What ``row`` recorded under ``field``: a field named at run time (a report's reproducer), or one the caller
    has checked is there (a report pastes only what ran). Nothing recorded is an error, not None."""
    value = row.get(field)
    if value is None:
        raise KeyError(f"OpenVINO {row['release']}: nothing recorded under {field}")
    return value


def own_output(run: CommandRun) -> str:
    """What a reproducer printed itself (its stdout), where it was recorded apart from its stderr (torch's and
    ExecuTorch's import chatter); else all it printed."""
    return run.get("stdout") or run["output"]
