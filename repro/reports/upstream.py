"""The upstream issue bodies the matrix writes (``repro/matrix.py --reports DIR``), one module each:

- ``openvino-stale-copies.md`` (``openvino_stale_copies``): the CPU plugin never writes an output fed by a
  Parameter when outputs are set after inputs (OpenVINO's bug; the ExecuTorch symptom is its symptom);
- ``openvino-import-lifetime.md`` (``openvino_import_lifetime``): since 2026.4.0 ``ov_core_import_model``
  keeps reading the caller's buffer after it returns;
- ``openvino-import-precision.md`` (``openvino_import_precision``): an exported compiled model does not keep
  its INFERENCE_PRECISION_HINT, and the C API's import cannot be given one (bf16 on bf16-capable CPUs);
- ``openvino-cpu-stamp.md`` (``openvino_cpu_stamp``): since 2026.4.0 an exported blob imports only on the CPU
  class that exported it, though its model does not depend on the class (ahead-of-time export across CPUs);
- ``openvino-state-cache-update.md`` (``openvino_state_cache_update``): a cost, a fixed-size KV cache kept as a
  state is copied whole at every step on CPU, however its one-row update is written;
- ``openvino-compressed-matmul.md`` (``openvino_compressed_matmul``): a cost, the CPU plugin's 4-bit compressed
  MatMul reads its weights more slowly than its 8-bit one, so a 4-bit LLM decodes slower than its bytes say;
- ``executorch-openvino-4wo-layers.md`` (``executorch_openvino_4wo_layers``): a cost, export_llm's ``openvino_4wo``
  leaves the output layer at NNCF's 8-bit backup precision, where XNNPACK's ``8da4w`` compresses it to 4 bits;
- ``executorch-cpu-stamp.md`` (``executorch_cpu_stamp``): with OpenVINO 2026.4, every OpenVINO-delegated .pte
  loads only on the CPU class that exported it (0x1 elsewhere, with no reason logged);
- ``executorch-frees-blob.md`` (``executorch_frees_blob``): ExecuTorch's OpenVINO backend frees the blob
  right after that import, so programs loaded by path crash on OpenVINO 2026.4.x; with our one-line patch;
- ``executorch-channels-last.md`` (``executorch_channels_last``): the backend hands boundary tensors to
  OpenVINO with their sizes only, so channels-last ones give wrong values; with our two-step patch;
- ``executorch-stale-copies.md`` (``executorch_stale_copies``): a partition output that copies a partition
  input comes back stale; the runtime fix (``output-order``) and the partitioner's (``copy-exclusion``);
- ``executorch-precision.md`` (``executorch_precision``): the backend cannot run an f32 model in f32 on
  CPUs with AVX-512 BF16 or AMX (no compile spec reaches OpenVINO's precision); with our ``precision`` series;
- ``executorch-empty-constants.md`` (``executorch_empty_constants``): a comment for ExecuTorch PR #22788, a
  program whose only constants are 0-size (a KV cache that starts empty, once a delegate took the weights)
  fails to load by path;
- ``executorch-semantics.md`` (``executorch_semantics``): the partitioner delegates integer, float64 and
  reflection-padding ops OpenVINO's CPU plugin computes differently; with our ``semantics`` series;
- ``openvino-constant-abs.md`` (``openvino_constant_abs``): a comment for openvino#38166, the CPU plugin
  dropping a rank-1 Abs of constants (what PyTorch's reflection padding compiles to), first bad release;
- ``openvino-cpu-semantics.md`` (``openvino_cpu_semantics``): max/min over ∓inf, AvgPool's ceil divisor,
  trunc and i32 floor division, i32 comparisons, ReduceMax and Power through f32, an f16 round trip folded,
  each differing from PyTorch (citing the open issues of the same families);
- ``openvino-special-values.md`` (``openvino_special_values``): a comment for openvino#31196, what the
  conformance sweep recorded of NaN and infinities for the newest release of the matrix that has a record;
- ``pytorch-cia-materialization.md`` (``pytorch_cia_materialization``): for PyTorch, every
  ``run_decompositions`` materializes the C++ CIA op registry once per op namespace (what our lowering spends);
- ``executorch-runtime-import.md`` (``executorch_runtime_import``): ``import executorch.runtime`` imports all of
  ``executorch.exir`` (what each of our runtime children spends before its first program);
- ``executorch-llm-pipeline.md`` (``executorch_llm_pipeline``): ExecuTorch's LLM pipeline with the OpenVINO
  backend fails to export without weight compression (IndexError) and with dynamic shapes, its default (SymInt);
  with our ``llm-unquantized`` and ``symbolic-sizes`` series;
- ``executorch-portable-kernels.md`` (``executorch_portable_kernels``): the portable runtime has no kernel for
  ``sort``, ``avg_pool3d``, ``max_pool3d_with_indices`` (0x14), and its integer ``remainder``, ``ceil`` of
  integers, integer ``pow``, ``max_pool2d`` and ``sign`` with NaN compute otherwise than PyTorch.

Each renders the same way (``repro/reports/markdown.py``)
and states evidence only from the rows it was given, naming the releases that were and were not run.
"""

from pathlib import Path

from repro.reports.executorch_channels_last import executorch_channels_last
from repro.reports.executorch_cpu_stamp import executorch_cpu_stamp
from repro.reports.executorch_empty_constants import executorch_empty_constants
from repro.reports.executorch_frees_blob import executorch_frees_blob
from repro.reports.executorch_llm_pipeline import executorch_llm_pipeline
from repro.reports.executorch_openvino_4wo_layers import executorch_openvino_4wo_layers
from repro.reports.executorch_portable_kernels import executorch_portable_kernels
from repro.reports.executorch_precision import executorch_precision
from repro.reports.executorch_runtime_import import executorch_runtime_import
from repro.reports.executorch_semantics import executorch_semantics
from repro.reports.executorch_stale_copies import executorch_stale_copies
from repro.reports.matrix_row import Matrix
from repro.reports.openvino_compressed_matmul import openvino_compressed_matmul
from repro.reports.openvino_constant_abs import openvino_constant_abs
from repro.reports.openvino_cpu_semantics import openvino_cpu_semantics
from repro.reports.openvino_cpu_stamp import openvino_cpu_stamp
from repro.reports.openvino_import_lifetime import openvino_import_lifetime
from repro.reports.openvino_import_precision import openvino_import_precision
from repro.reports.openvino_special_values import openvino_special_values
from repro.reports.openvino_stale_copies import openvino_stale_copies
from repro.reports.openvino_state_cache_update import openvino_state_cache_update
from repro.reports.pytorch_cia_materialization import pytorch_cia_materialization

REPORTS = {"openvino-stale-copies.md": openvino_stale_copies,
           "openvino-import-lifetime.md": openvino_import_lifetime,
           "openvino-import-precision.md": openvino_import_precision,
           "openvino-state-cache-update.md": openvino_state_cache_update,
           "openvino-compressed-matmul.md": openvino_compressed_matmul,
           "executorch-openvino-4wo-layers.md": executorch_openvino_4wo_layers,
           "openvino-cpu-stamp.md": openvino_cpu_stamp,
           "executorch-frees-blob.md": executorch_frees_blob,
           "executorch-cpu-stamp.md": executorch_cpu_stamp,
           "executorch-stale-copies.md": executorch_stale_copies,
           "executorch-channels-last.md": executorch_channels_last,
           "executorch-empty-constants.md": executorch_empty_constants,
           "executorch-precision.md": executorch_precision,
           "executorch-semantics.md": executorch_semantics,
           "openvino-constant-abs.md": openvino_constant_abs,
           "openvino-cpu-semantics.md": openvino_cpu_semantics,
           "openvino-special-values.md": openvino_special_values,
           "pytorch-cia-materialization.md": pytorch_cia_materialization,
           "executorch-runtime-import.md": executorch_runtime_import,
           "executorch-portable-kernels.md": executorch_portable_kernels,
           "executorch-llm-pipeline.md": executorch_llm_pipeline}


def write_reports(matrix: Matrix, directory: Path) -> list[Path]:
    """Write every report into ``directory``; returns the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, render in REPORTS.items():
        (directory / name).write_text(render(matrix))
        written.append(directory / name)
    return written
