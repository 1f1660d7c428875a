"""The ExecuTorch issue body: the OpenVINO backend frees the delegate's blob right after
``ov_core_import_model``, so a ``.pte`` loaded by path crashes on OpenVINO 2026.4.x; with the one-line
patch (``repro/patches/executorch/blob-lifetime``) and what the reproducer prints with it. Built from the
matrix's rows (``repro/matrix.py --executorch``, with ``--executorch-source`` for the patched run).
"""

from repro.harness import executorch_patches as patches
from repro.reports import executorch_issue as et
from repro.reports import markdown as md

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


def rebuild_lines():
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


def executorch_frees_blob(matrix):
    rows = matrix["rows"]
    fix, test = patches.patch_files(patches.BLOB_LIFETIME)
    return md.issue(
        "[OpenVINO] OpenvinoBackend::init frees the delegate blob that OpenVINO 2026.4 keeps reading: "
        ".pte loaded by path crashes",
        [("🐛 Describe the bug", f"""\
{IMPORT_THEN_FREE} passes `processed->data()` to `ov_core_import_model` and then calls
`processed->Free()`. A program loaded by path (`Runtime.load_program(path)`, the C++ `Module`) has the
delegate data in a segment that `Free()` unmaps. OpenVINO's C API has imported through an `ov::Tensor` over
the caller's memory since 2026.4.0 (`nm -D libopenvino_c.so.2641` lists `ov::Core::import_model(ov::Tensor
const&, ...)`), and the compiled model keeps reading constants (biases, eltwise operands) from it: the first
`execute` crashes with SIGSEGV, or computes on whatever the pages hold later. From Python bytes `Free()` is a
no-op, so it does not show there.

About the supported range (`openvino>=2025.1.0,<2026.0.0` in `pyproject.toml`, while CI sets up 2026.0 archives,
`.ci/scripts/setup-openvino.sh`): the crash needs 2026.4, which is what a bare `pip install openvino` installs
today. The fix does not depend on the OpenVINO release: ExecuTorch's own
contract allows `Free()` only "if the data is not needed after init()" ({FREE_CONTRACT}), and the Method
keeps `processed` in `BackendDelegate::segment_`, which "will outlive the backend" ({SEGMENT_OUTLIVES}).
Deleting the one `processed->Free();` line is enough; nothing else holds the buffer."""),
         ("To reproduce", f"""\
{et.reproduction(EXECUTORCH_REPRODUCER, rows, "executorch_by_path", et.NEWEST_OPENVINO)}

(With `openvino=={et.SUPPORTED_OPENVINO}` in the second line the import still copies, so every run is
correct.)"""),
         ("Versions", et.environment_section(rows, "executorch_by_path")),
         ("Proposed fix", f"""\
{et.patch_block(fix)}

and a test of the backend loading a program by path (there was none), which crashes without the fix:

{et.patch_block(test)}

Tested without a full build: the backend rebuilt from main with this patch against the installed 1.5.1 wheel
(it ships `include/` and `lib/libexecutorch.so`; the pybindings find `libexecutorch_backend_openvino.so`
through their RUNPATH, so one first on `LD_LIBRARY_PATH` replaces the wheel's):

{md.code_block(chr(10).join(rebuild_lines()), "sh")}

{et.outputs(rows, "executorch_by_path_patched", (et.NEWEST_OPENVINO,))}

Until a release has it, `ExecutorchBackendConfig(extract_delegate_segments=False)` keeps the blob inside the
flatbuffer, which the program keeps alive.

What keeping the blob costs in memory (steady after a run / peak): on releases whose import copies, the blob
itself stays resident (+64 MiB for a 64 MiB blob; with the mmap loader those are clean file pages the kernel
can drop), nothing more at peak; from 2026.4 it is what OpenVINO reads, and the total is lower than before.

{md.details("Resident memory, a 64 MiB blob loaded by path", MEMORY)}"""),
         ("Related threads (searched 2026-12-02)", md.bullets([
             "In the backend's first version (#8573, 2025-02) `init` wrapped the data in a `std::istringstream`, "
             "which copies; freeing was safe then, and stayed safe with the C API until OpenVINO 2026.4.",
             "The OpenVINO side (the C API keeps reading `content`) is reported to OpenVINO separately.",
             "None in ExecuTorch's tracker reports a crash loading an OpenVINO program by path."]))])
