"""The ExecuTorch issue body: the OpenVINO backend frees the delegate's blob right after
``ov_core_import_model``, so a ``.pte`` loaded by path crashes on OpenVINO 2026.4.x; with the one-line
patch (``repro/patches/executorch/blob-lifetime``) and what the reproducer prints with it. Built from the
matrix's rows (``repro/matrix.py --executorch``, with ``--executorch-source`` for the patched run).
"""

from repro.harness.lowering import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md
from repro.reports.matrix_row import Matrix

EXECUTORCH_REPRODUCER = md.attachment("executorch_frees_blob.py")
BACKEND = "backends/openvino/runtime/OpenvinoBackend.cpp"
# Where the lines are (ExecuTorch main, et.EXECUTORCH_MAIN), by function so that a moved line is findable.
IMPORT_THEN_FREE = f"[`OpenvinoBackend::init`]({et.SOURCE_URL}/{BACKEND}#L162-L175)"
FREE_CONTRACT = f"[`runtime/backend/interface.h`]({et.SOURCE_URL}/runtime/backend/interface.h#L69-L70)"
SEGMENT_OUTLIVES = f"[`runtime/executor/method.cpp`]({et.SOURCE_URL}/runtime/executor/method.cpp#L118-L120)"
REBUILT_LIBRARY = "build-openvino"  # inside the checkout
# benchmarks/blob_memory.py, 2026-12-02, executorch 1.5.1: Linear(4096, 4096) (a 64 MiB blob) loaded by path
# with the C++ Module, FileDataLoader and MmapDataLoader alike; VmRSS after a run / VmHWM, median of 3.
MEMORY = md.table(
    ["runtime (program)", "OpenVINO 2026.3.1", "OpenVINO 2026.4.1"],
    [["stock", "163 / 226 MiB", "crash (SIGSEGV)"],
     ["with this patch", "227 / 227 MiB", "132 / 132 MiB"],
     ["stock (blob inline: `extract_delegate_segments=False`)", "227 / 227 MiB", "132 / 132 MiB"]])

# tests/large (``test_the_stock_program_equals_eager_by_path_with_the_blob_lifetime_runtime``), 2026-12-07,
# machine B (AVX-512 BF16, run at f32), executorch 1.5.1, OpenVINO 2026.4.1: the 2.25 GiB model of
# repro/harness/models/large_program.py, its program 2,416,234,258 bytes; VmHWM of the process that loads and runs
# it.
LARGE_MODEL = "nine `Linear(8192, 8192)` with biases in float32 (2.25 GiB of weights, a 2.4 GB `.pte`)"
LARGE_RUNS = md.table(
    ["runtime", "by path", "peak resident"],
    [["1.5.1 as shipped", "crash (SIGSEGV: the biases, read in place from the freed blob)", "-"],
     ["with this patch", "equal to eager (1.1e-5 of values of order 1)", "5.1 GB"]])

NOT_NAMED_DATA = ("A compiled OpenVINO blob carries its weights; OpenVINO's weightless blobs need the "
                  "weights' file at import (`WEIGHTS_PATH`), which `ov_core_import_model` does not take. "
                  "Searched 2026-12-07: no thread about OpenVINO programs past 2 GiB (#1968, #9152 and #9002 "
                  "are XNNPACK's).")


def rebuild_lines() -> list[str]:
    """Shell lines that rebuild the backend from a checkout with the patch, against the installed wheel, and
    run the reproducer with it (what the matrix's patched row ran)."""
    wheel = "$ET"
    command = patches.build_command("g++", wheel, BACKEND, f"{REBUILT_LIBRARY}/{patches.BACKEND_LIBRARY}")
    return ["# in an ExecuTorch checkout with the patch applied (git am), the reproducer copied into it,",
            "# in the environment above",
            "ET=$(python -c 'import executorch; print(list(executorch.__path__)[0])')",
            f"mkdir -p {REBUILT_LIBRARY}",
            " ".join(command),
            f"LD_LIBRARY_PATH=$PWD/{REBUILT_LIBRARY} python {EXECUTORCH_REPRODUCER.name}"]


def executorch_frees_blob(matrix: Matrix) -> str:
    rows = matrix["rows"]
    fix, test = patches.patch_files(patches.BLOB_LIFETIME)
    return md.render(
        "executorch_frees_blob",
        import_then_free=IMPORT_THEN_FREE,
        free_contract=FREE_CONTRACT,
        segment_outlives=SEGMENT_OUTLIVES,
        reproduction=et.reproduction(EXECUTORCH_REPRODUCER, rows, "executorch_by_path", et.NEWEST_OPENVINO),
        supported_openvino=et.SUPPORTED_OPENVINO,
        versions=et.environment_section(rows, "executorch_by_path"),
        fix=et.patch_block(fix),
        fix_test=et.patch_block(test),
        rebuild=md.code_block("\n".join(rebuild_lines()), "sh"),
        patched_run=et.outputs(rows, "executorch_by_path_patched", (et.NEWEST_OPENVINO,)),
        memory=md.details("Resident memory, a 64 MiB blob loaded by path", MEMORY),
        large_runs=md.details(f"By path at 2.4 GB: {LARGE_MODEL}", LARGE_RUNS + "\n\n" + NOT_NAMED_DATA))
