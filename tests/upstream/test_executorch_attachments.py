"""The standalone reproducers the ExecuTorch reports paste (``repro/attachments/executorch_*.py``), run as their
readers run them, each held to what its report says of the installed release.
"""

import re

import pytest

from repro.harness.cpu import precision
from repro.reports import markdown as report_markdown
from tests.support.helpers import ATTACHMENTS, cpu_default_is_bf16, run_cli, skip_module_without_executorch_path
from tests.support.release_behaviour import (
    ABS_OF_CONSTANTS_DROPPED_FROM,
    STAMPED_FROM,
    installed_openvino,
    stock_use_after_free,
)

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch


def test_minimal_channels_last_reproducer_reproduces():
    """repro/attachments/executorch_channels_last.py, the reproducer in the ExecuTorch report (ExecuTorch's
    bug: every OpenVINO release that runs the ExecuTorch path shows it)."""
    result = run_cli("python", ATTACHMENTS / "executorch_channels_last.py")
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    contiguous, channels_last = (float(line.rsplit(" ", 1)[1]) for line in lines[1:3])
    assert contiguous < 1e-2
    assert channels_last > 0.1


def test_minimal_stale_copies_reproducer_shows_the_stale_copy_both_loads():
    """repro/attachments/executorch_stale_copies.py, the reproducer in the ExecuTorch stale-copies report: the
    copy and what is computed from it are wrong from bytes and by path (every release that runs the
    ExecuTorch path sets outputs after inputs, and none writes such an output then)."""
    result = run_cli("python", ATTACHMENTS / "executorch_stale_copies.py")
    lines = result.stdout.splitlines()
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert [line.split(":")[0] for line in lines[1:3]] == ["loaded from bytes", "loaded from path "]
    assert all("copy == x: False; sin == sin(x): False" in line for line in lines[1:3]), lines
    assert lines[-1] == "BUG REPRODUCED"


def test_minimal_precision_reproducer_shows_bf16_where_the_cpu_defaults_to_it():
    """repro/attachments/executorch_precision.py, the reproducer in the ExecuTorch precision report, run at the
    CPU's default (the gate's f32 cap taken away, as a user runs it): where that default is bf16 the f32 compile
    spec is lost and the matmul is bf16-far from float64; where it is f32 the reproducer cannot show the bug."""
    result = run_cli("python", ATTACHMENTS / "executorch_precision.py", env=precision.without_cap())
    if not cpu_default_is_bf16():
        assert result.returncode == 125, result.stdout + result.stderr[-2000:]
        return
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    error = float(result.stdout.split("max error against float64: ")[1].split()[0])
    assert error > 1e-2, result.stdout
    assert result.stdout.splitlines()[-1] == "BUG REPRODUCED: the delegate ran below f32"


def test_minimal_semantics_reproducer_shows_each_class_and_what_the_abs_report_states():
    """repro/attachments/executorch_semantics.py, the reproducer in the ExecuTorch semantics report: every model
    differs from eager on every release that runs the ExecuTorch path, reflection padding from the first release
    that drops the Abs of constants; its reflection line is what the OpenVINO Abs comment quotes."""
    result = run_cli("python", ATTACHMENTS / "executorch_semantics.py")
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines()[1:-1])
    reflection_wrong = installed_openvino() >= ABS_OF_CONSTANTS_DROPPED_FROM
    assert {what: verdict.split(":")[0] for what, verdict in lines.items()} == {
        "int64 x * x": "WRONG", "uint8 x + y": "WRONG", "int32 x // y": "WRONG", "float64 x * 2": "WRONG",
        "reflection pad (2, 1)": "WRONG" if reflection_wrong else "equal"}, result.stdout + result.stderr[-2000:]
    assert result.returncode == 1
    if reflection_wrong:
        quoted = "[3 4 0 1 2 3 4 0]` instead of `[2 1 0 1 2 3 4 3]"
        assert quoted in (report_markdown.TEMPLATES / "openvino_constant_abs.md").read_text()
        assert lines["reflection pad (2, 1)"].endswith("delegate [3.0, 4.0, 0.0, 1.0, 2.0, 3.0, 4.0, 0.0]")


def test_minimal_executorch_reproducer_matches_the_release_table():
    """repro/attachments/executorch_frees_blob.py, the reproducer in the ExecuTorch report: by path it crashes
    from 2026.4.0; from bytes, and with the blob inline, it is correct."""
    result = run_cli("python", ATTACHMENTS / "executorch_frees_blob.py")
    lines = result.stdout.splitlines()
    assert lines[1].startswith("blob in segment, loaded from bytes: max |diff|"), result.stdout
    assert lines[3].startswith("blob in inline , loaded from path : max |diff|"), result.stdout
    if stock_use_after_free():
        assert lines[2] == "blob in segment, loaded from path : exit -11", result.stdout
        assert result.returncode == 1
    else:
        assert lines[2].startswith("blob in segment, loaded from path : max |diff|"), result.stdout
        assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("name", ["executorch_frees_blob.py", "executorch_channels_last.py"])
def test_executorch_reproducer_without_nncf_says_it_could_not_test(name):
    """ExecuTorch's OpenVINO partitioner imports nncf; without it the reproducer exits 125 with one line, not a
    traceback (nncf is made unimportable in the child, as if it were not installed)."""
    path = ATTACHMENTS / name
    code = (f"import runpy, sys; sys.modules['nncf'] = None; sys.argv = [{str(path)!r}]; "
            f"runpy.run_path({str(path)!r}, run_name='__main__')")
    result = run_cli("python", "-c", code)
    assert result.returncode == 125, result.stdout + result.stderr[-2000:]
    assert result.stdout.startswith("COULD NOT TEST: "), result.stdout
    assert "Traceback" not in result.stderr


def report_pasting(report_module, render, output):
    """The report ``render`` makes of a matrix whose newest row ran its reproducer (``report_module.FIELD``,
    exit 1) and printed ``output``: checked to paste the reproducer and that output verbatim."""
    from tests.support.recorded_matrix import executorch_matrix

    matrix = executorch_matrix()
    matrix["rows"][-1][report_module.FIELD] = {"exit_code": 1, "output": output, "stdout": output}
    report = render(matrix)
    assert report_module.REPRODUCER.read_text().rstrip() in report
    assert output.strip() in report
    return report


def test_portable_kernels_reproducer_shows_each_missing_kernel_and_each_kernel_computing_otherwise():
    """repro/attachments/executorch_portable_kernels.py, the reproducer of the ExecuTorch portable-kernels report,
    run as a maintainer runs it; the report pastes it and this very output. An ExecuTorch release that adds a
    kernel or fixes one changes a line here: retire the partitioner's refusal for it
    (workaround/partitioner/rules/portable_hand_back.py, or the runtime's registry does it by itself) and the
    report's line."""
    from repro.reports import executorch_portable_kernels as report_module

    result = run_cli("python", ATTACHMENTS / "executorch_portable_kernels.py")
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    lines = dict(line.split(": ", 1) for line in result.stdout.splitlines()[1:-1])
    for missing in ("sort (int64)", "avg_pool3d", "max_pool3d"):
        assert lines[missing] == "fails: RuntimeError: Failed to load method forward, error: 0x:14", lines
    assert lines["remainder (int32, signs differ)"] == "WRONG: [9, -1] (PyTorch: [-1, 1])"
    assert lines["ceil (int32 above 2**24)"] == "WRONG: [16777216, 3] (PyTorch: [16777217, 3])"
    assert lines["sign (NaN)"].startswith("WRONG: [nan, ")
    assert lines["log_softmax (float64)"].endswith("failed with error 0x12")
    assert result.stdout.splitlines()[-1] == "BUG REPRODUCED: 9 of 9 missing or computed otherwise"
    report = report_pasting(report_module, report_module.executorch_portable_kernels, result.stdout)
    assert re.findall(r"^## (.*)", report, re.M) == ["🐛 Describe the bug", "To reproduce", "Versions",
                                                     "Related threads (searched 2026-12-04)"]


def test_portable_kernels_reproducer_goes_on_past_a_program_that_aborts_its_child(tmp_path):
    """The portable-kernels reproducer runs every program in one child; a kernel that aborts it is that program's
    row (its last error line, else its exit status), and the programs after it still run, in a new child. Here the
    child is a stand-in that aborts in the second of three folders and writes an output in the others."""
    import runpy

    reproducer = runpy.run_path(str(ATTACHMENTS / "executorch_portable_kernels.py"))
    run_all = reproducer["run_all"]
    run_all.__globals__["RUN"] = (
        "import os, sys\n"
        "for folder in sys.argv[1:]:\n"
        "    print(folder, flush=True)\n"
        "    if folder.endswith('aborts'):\n"
        "        os.abort()\n"
        "    open(os.path.join(folder, 'ran'), 'w').close()\n")
    folders = [tmp_path / name for name in ("first", "aborts", "last")]
    for folder in folders:
        folder.mkdir()
    assert run_all(str(folder) for folder in folders) == {str(folders[1]): "exit -6"}
    assert [(folder / "ran").exists() for folder in folders] == [True, False, True]


def test_llm_pipeline_reproducer_fails_uncompressed_and_dynamic_and_exports_the_control(tmp_path):
    """repro/attachments/executorch_llm_pipeline.py, the reproducer of the ExecuTorch LLM-pipeline report, run as a
    maintainer runs it (three ``export_llm`` processes); the report pastes it and this very output. A release that
    fixes either failure changes its line to "exported": retire the report, and the workaround's side of it
    (``workaround/partitioner/hooks/llm_pipeline.py``'s empty-quantizer marker, or
    ``workaround/partitioner/rules/symbolic_sizes.py``). It leaves
    nothing where it runs (Hydra writes an outputs/ folder into the working directory)."""
    from repro.reports import executorch_llm_pipeline as report_module

    result = run_cli("python", ATTACHMENTS / "executorch_llm_pipeline.py", cwd=tmp_path, timeout=900)
    assert result.returncode == 1, result.stdout + result.stderr[-2000:]
    assert not list(tmp_path.iterdir())
    lines = {what.strip(): outcome for what, outcome in
             (line.split(": ", 1) for line in result.stdout.splitlines()[1:-1])}
    uncompressed, dynamic = lines["no compression, static shapes"], lines["openvino_8wo, dynamic shapes"]
    assert uncompressed.startswith("IndexError: list index out of range (raised at executorch/examples/models/"
                                   "llama/export_llama_lib.py:"), uncompressed
    assert uncompressed.endswith(", _to_edge_and_lower_llama_openvino)"), uncompressed
    assert dynamic.startswith("AttributeError: 'SymInt' object has no attribute 'type' (raised at openvino/"
                              "frontend/pytorch/torchdynamo/compile.py:"), dynamic
    assert lines["openvino_8wo, static shapes"] == "exported"
    assert result.stdout.splitlines()[-1] == "BUG REPRODUCED: 2 of 2 exports fail"
    report_pasting(report_module, report_module.executorch_llm_pipeline, result.stdout)


def test_minimal_cpu_stamp_reproducer_loads_only_as_the_class_that_exported_it():
    """repro/attachments/executorch_cpu_stamp.py, the reproducer in the ExecuTorch stamp report: from OpenVINO
    2026.4.0 the program exported here fails to load in a process one CPU class lower (0x1), from bytes and by
    path, while the one exported there loads; before, both load everywhere."""
    result = run_cli("python", ATTACHMENTS / "executorch_cpu_stamp.py")
    lines = result.stdout.splitlines()
    rows = [line for line in lines if " loaded from " in line]
    assert len(rows) == 6, result.stdout + result.stderr[-2000:]
    refused = [row for row in rows if "error: 0x:1" in row]
    if installed_openvino() >= STAMPED_FROM:
        assert result.returncode == 1, result.stdout
        assert [row.split(" in a process ")[0].split()[-1] for row in refused] == ["bytes", "path"]
        assert all(row.startswith("exported here") and "capped at" in row for row in refused)
    else:
        assert (result.returncode, refused) == (0, []), result.stdout
