"""The recorded release matrix (``tests/data/matrix-all-releases.json``: every release on the index from
2023.0.0, measured on 2026-11-30, runs trimmed to their symptoms) and the rows the report and runner tests
build on it: a failure row, a matrix of chosen releases, ExecuTorch rows shaped as ``repro/matrix_runs.py``
writes them."""

import json
from pathlib import Path

from repro import releases
from repro.reports import matrix_report
from repro.reports.matrix_row import RowStatus, empty_row

DATA = Path(__file__).parents[1] / "data"
RECORDED = json.loads((DATA / "matrix-all-releases.json").read_text())


def recorded_import(release):
    """The C program's recorded run on ``release`` (``import_lifetime`` of the recorded matrix)."""
    return next(row["import_lifetime"] for row in RECORDED["rows"] if row["release"] == release)


def recorded_rows(releases=None):
    return [row for row in RECORDED["rows"] if releases is None or row["release"] in releases]


def failure_row(status, detail, release="2024.5.0"):
    return {**empty_row(release, release), "status": RowStatus(status), "detail": detail, "seconds": 0.1}


def matrix_of(rows):
    return {"index_note": "recorded", "available": RECORDED["available"], "rows": rows,
            "summary": matrix_report.summarize(rows, RECORDED["available"])}


IMPORT_RECORDED = ["2024.0.0", "2025.2.0", "2026.3.1", "2026.4.0", "2026.4.1"]


def import_matrix(measured, executorch=None, by_path=None):
    rows = [{**recorded_rows({release})[0],
             "executorch": (executorch or {}).get(release), "executorch_by_path": (by_path or {}).get(release)}
            for release in measured]
    return {"index_note": "recorded", "available": releases.BUILTIN_RELEASES, "rows": rows,
            "summary": matrix_report.summarize(rows)}


def executorch_releases_row(release="2026.4.1"):
    crashed = {"exit_code": 1, "output": "blob in segment, loaded from path : exit -11\nBUG REPRODUCED"}
    wrong = {"exit_code": 1, "output": "channels-last frame: max |diff| to eager 1.22\nBUG REPRODUCED"}
    runs = {"executorch": {"counts": {"bytes": {"wrong": 3}}}, "executorch_by_path": crashed,
            "executorch_channels_last": wrong}
    return {**failure_row("bug", "", release), "executorch_releases": {
        "1.5.1": runs, "1.4.1": runs, "1.3.1": {"install_failed": "pip install failed: no torch 2.12"}}}


COLLECT_ENV = """Collecting environment information...
PyTorch version: 2.13.0+cpu
Is debug build: False
OS: Debian GNU/Linux 12 (bookworm) (x86_64)
GCC version: (Debian 12.2.0-14+deb12u1) 12.2.0
Python version: 3.11.7 (main, May  9 2026, 07:35:25) [GCC 12.2.0] (64-bit runtime)
Python platform: Linux-6.18.44-x86_64-with-glibc2.36
Is CUDA available: False
Vendor ID:                               AuthenticAMD
Model name:                              AMD EPYC
Flags:                                   fpu vme avx2 avx512f avx512_vnni avx512_bf16 xsaves
Vulnerability Srbds:                     Not affected
Versions of relevant libraries:
[pip3] executorch==1.5.1
[pip3] flake8==6.1.0
[pip3] numpy==2.4.6
[pip3] torch==2.13.0+cpu"""
# What the matrix recorded per release, shaped as repro/matrix_runs.py writes it.
LLM_PIPELINE_FAILS = ("no compression, static shapes : IndexError: list index out of range (raised at executorch/"
                      "examples/models/llama/export_llama_lib.py:1287, _to_edge_and_lower_llama_openvino)\n"
                      "BUG REPRODUCED: 2 of 2 exports fail")
EXECUTORCH_ROWS = {
    "2025.4.1": {"by_path": "executorch 1.5.1, OpenVINO 2025.4.1, torch 2.13.0+cpu\nOK: every run equals eager",
                 "channels_last": "channels-last frame: max |diff| to eager 2.06\nBUG REPRODUCED",
                 "semantics": "int64 x * x: WRONG: eager [10000000000], delegate [1410065408]\nBUG REPRODUCED",
                 "stale_copies": "loaded from bytes: copy == x: False; sin == sin(x): False; x intact: True\n"
                                 "BUG REPRODUCED",
                 "precision": "compile specs ask for INFERENCE_PRECISION_HINT=f32; max error against float64: "
                              "0.097 (f32 leaves < 0.0001)\nBUG REPRODUCED: the delegate ran below f32",
                 "cpu_stamp": "exported here              loaded from bytes in a process capped at AVX2 : "
                              "max |diff| 5.96e-08\nOK: the program loads on both classes",
                 "llm_pipeline": LLM_PIPELINE_FAILS},
    "2026.4.1": {"by_path": "blob in segment, loaded from path : exit -11\nBUG REPRODUCED",
                 "channels_last": "channels-last frame: max |diff| to eager 2.07\nBUG REPRODUCED",
                 "semantics": "uint8 x + y: WRONG: eager [4], delegate [255]\nBUG REPRODUCED",
                 "stale_copies": "loaded from path : copy == x: False; sin == sin(x): False; x intact: True\n"
                                 "BUG REPRODUCED",
                 "precision": "compile specs ask for INFERENCE_PRECISION_HINT=f32; max error against float64: 0.1 "
                              "(f32 leaves < 0.0001)\nBUG REPRODUCED: the delegate ran below f32",
                 "cpu_stamp": "exported here              loaded from bytes in a process capped at AVX2 : "
                              "fails: Failed to load method forward, error: 0x:1\nBUG REPRODUCED: the program "
                              "loads only on the CPU class that exported it",
                 "llm_pipeline": LLM_PIPELINE_FAILS},
}
DIM_ORDER_RECORD = {"case": "conv_channels_last_input", "what": "Conv2d(3, 3, 1)(x), x channels-last",
                    "group": "dim order", "outcome": "wrong",
                    "runs": {"bytes": {"outcome": "wrong", "outputs": [{"max_abs_diff": 1.31}]}}}
COPY_RECORD = {**DIM_ORDER_RECORD, "case": "clone_only", "what": "return x.clone()", "group": "copies"}
PATCH_TESTS = {"copy-exclusion": {"with": {"test_copy_of_input_as_output": "passed"},
                                  "without": {"test_copy_of_input_as_output": "failed"}},
               "channels-last": {"with": {"test_channels_last_input": "passed"},
                                 "without": {"test_channels_last_input": "failed"}},
               "semantics": {"with": {"test_int64_square": "passed"}, "without": {"test_int64_square": "failed"}},
               "symbolic-sizes": {"with": {"test_cache_written_at_a_position_read_from_an_input": "passed"},
                                  "without": {"test_cache_written_at_a_position_read_from_an_input": "failed"}},
               "import-reason": {"with": {"test_a_model_that_does_not_import_logs_openvinos_reason": "passed"},
                                 "without": {"test_a_model_that_does_not_import_logs_openvinos_reason": "failed"}}}


def executorch_matrix(patched_by_path=True):
    rows = []
    for release, runs in EXECUTORCH_ROWS.items():
        rows.append({**failure_row("bug", "", release), "import_lifetime": recorded_import(release),
                     "executorch": {"counts": {}, "cases": [DIM_ORDER_RECORD, COPY_RECORD]},
                     "executorch_by_path": {"exit_code": 1 if "BUG" in runs["by_path"] else 0,
                                            "output": runs["by_path"]},
                     "executorch_channels_last": {"exit_code": 1, "output": runs["channels_last"]},
                     "executorch_semantics": {"exit_code": 1, "output": runs["semantics"]},
                     "executorch_stale_copies": {"exit_code": 1, "output": runs["stale_copies"]},
                     "executorch_stale_copies_patched": {"exit_code": 0, "output": "OK: every run equals eager"}
                     if patched_by_path else None,
                     "executorch_precision": {"exit_code": 1, "output": runs["precision"]},
                     "executorch_cpu_stamp": {"exit_code": 1 if "BUG" in runs["cpu_stamp"] else 0,
                                              "output": runs["cpu_stamp"]},
                     "executorch_llm_pipeline": {"exit_code": 1, "output": runs["llm_pipeline"]},
                     "executorch_llm_pipeline_patched": {"exit_code": 0, "output": "OK: every export succeeds"}
                     if patched_by_path else None,
                     "executorch_precision_patched": {"exit_code": 0, "output": "OK: the delegate ran at f32"}
                     if patched_by_path else None,
                     "executorch_environment": COLLECT_ENV, "executorch_patch_tests": PATCH_TESTS,
                     "executorch_by_path_patched": {"exit_code": 0, "output": "OK: every run equals eager"}
                     if patched_by_path else None})
    return {"index_note": "recorded", "available": releases.BUILTIN_RELEASES, "rows": rows,
            "summary": matrix_report.summarize(rows)}
