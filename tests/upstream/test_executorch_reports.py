"""The ExecuTorch reports, rendered from ``--executorch`` rows: ExecuTorch's bug template, the reproducer and
its output per release, collect_env, the tracked patches inline, and install lines that resolve as printed."""

import json
import os
import re
import shlex

import pytest

from repro.harness.lowering import executorch_patches
from repro.reports import (
    executorch_channels_last,
    executorch_cpu_stamp,
    executorch_empty_constants,
    executorch_frees_blob,
    executorch_issue,
    executorch_llm_pipeline,
    executorch_precision,
    executorch_semantics,
    executorch_stale_copies,
)
from repro.reports import markdown as report_markdown
from repro.reports.markdown import code_block as md_block
from tests.support.helpers import run_cli
from tests.support.recorded_matrix import (
    EXECUTORCH_ROWS,
    IMPORT_RECORDED,
    executorch_matrix,
    executorch_releases_row,
    import_matrix,
)


def test_executorch_reports_name_the_releases_measured():
    sentence = executorch_issue.releases_measured([executorch_releases_row()], "executorch_by_path")
    assert sentence.startswith("ExecuTorch releases measured: 1.4.1, 1.5.1.")
    assert "- executorch 1.4.1, OpenVINO 2026.4.1: `BUG REPRODUCED` (exit 1)" in sentence


EXECUTORCH_REPORTS = [executorch_frees_blob.executorch_frees_blob,
                      executorch_channels_last.executorch_channels_last, executorch_semantics.executorch_semantics,
                      executorch_stale_copies.executorch_stale_copies, executorch_precision.executorch_precision,
                      executorch_cpu_stamp.executorch_cpu_stamp, executorch_llm_pipeline.executorch_llm_pipeline]
# Each report's reproducer and the field of the rows (and of EXECUTORCH_ROWS) its runs are in.
REPRODUCERS = {executorch_frees_blob.executorch_frees_blob:
                   (executorch_frees_blob.EXECUTORCH_REPRODUCER, "by_path"),
               executorch_channels_last.executorch_channels_last:
                   (executorch_channels_last.CHANNELS_LAST_REPRODUCER, "channels_last"),
               executorch_semantics.executorch_semantics: (executorch_semantics.REPRODUCER, "semantics"),
               executorch_stale_copies.executorch_stale_copies: (executorch_stale_copies.REPRODUCER,
                                                                 "stale_copies"),
               executorch_precision.executorch_precision: (executorch_precision.REPRODUCER, "precision"),
               executorch_cpu_stamp.executorch_cpu_stamp: (executorch_cpu_stamp.REPRODUCER, "cpu_stamp"),
               executorch_llm_pipeline.executorch_llm_pipeline:
                   (executorch_llm_pipeline.REPRODUCER, "llm_pipeline")}


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_follows_the_bug_template_and_names_nothing_of_this_project(render):
    report = render(executorch_matrix())
    assert report.startswith("# [OpenVINO] ")
    for heading in ("## 🐛 Describe the bug", "## To reproduce", "## Versions", "## Proposed fix"):
        assert heading in report
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b", report, re.IGNORECASE)


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_pastes_its_reproducer_and_its_output_on_both_releases(render):
    report = render(executorch_matrix())
    reproducer, field = REPRODUCERS[render]
    assert reproducer.read_text().rstrip() in report
    for release, runs in EXECUTORCH_ROWS.items():
        exit_code = 1 if "BUG" in runs[field] else 0
        assert f"OpenVINO {release} (exit {exit_code}):\n\n```\n{runs[field]}\n```" in report


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_environment_is_collect_env_trimmed_then_whole_collapsed(render):
    section = report_markdown_block(render(executorch_matrix()), "## Versions")
    versions = report_markdown.main_text(section)
    whole = section.split("<details>", 1)[1]
    assert "python -m torch.utils.collect_env, whole" in whole
    assert "[pip3] flake8==6.1.0" in whole, "ExecuTorch's template asks for all of it"
    assert "PyTorch version: 2.13.0+cpu" in versions
    assert "OS: Debian GNU/Linux 12 (bookworm) (x86_64)" in versions
    assert "Model name:                              AMD EPYC" in versions
    assert "CPU flags that decide OpenVINO's CPU precision: avx2 avx512f avx512_vnni avx512_bf16" in versions
    assert "[pip3] executorch==1.5.1" in versions
    assert "openvino==2026.4.1" in versions
    assert "nncf==3.1.0" in versions
    for left_out in ("flake8", "Vulnerability", "fpu"):
        assert left_out not in versions


def report_markdown_block(report, heading):
    return report[report.index(heading):].split("\n## ", 1)[0]


@pytest.mark.parametrize(("render", "patches"), [
    (executorch_frees_blob.executorch_frees_blob,
     executorch_patches.patch_files(executorch_patches.BLOB_LIFETIME)),
    (executorch_channels_last.executorch_channels_last,
     executorch_patches.patch_files(executorch_patches.CHANNELS_LAST)),
    (executorch_semantics.executorch_semantics, executorch_patches.patch_files(executorch_patches.SEMANTICS)),
    (executorch_precision.executorch_precision, executorch_patches.patch_files(executorch_patches.PRECISION)),
    (executorch_cpu_stamp.executorch_cpu_stamp, executorch_patches.patch_files(executorch_patches.IMPORT_REASON)),
    (executorch_llm_pipeline.executorch_llm_pipeline,
     executorch_patches.python_series([executorch_patches.LLM_UNQUANTIZED, executorch_patches.SYMBOLIC_SIZES]))])
def test_executorch_report_carries_its_tracked_patches_inline(render, patches):
    fix = report_markdown_block(render(executorch_matrix()), "## Proposed fix")
    for patch in patches:
        diff = patch.read_text().split("\n---\n", 1)[1]
        assert diff.split("\n", 1)[1] in fix, f"{patch.name} is not inline as tracked"
        assert executorch_issue.patch_text(patch) in fix


def test_frees_blob_report_addresses_the_pin_and_cites_the_free_contract():
    report = executorch_frees_blob.executorch_frees_blob(executorch_matrix())
    assert "openvino>=2025.1.0,<2026.0.0" in report
    assert '"if the data is not needed after init()"' in report
    assert "runtime/backend/interface.h#L69-L70" in report
    assert "runtime/executor/method.cpp#L118-L120" in report
    backend = "backends/openvino/runtime/OpenvinoBackend.cpp"
    assert f"blob/{executorch_issue.EXECUTORCH_MAIN}/{backend}#L162-L175" in report


def test_frees_blob_report_shows_the_patched_run_or_says_it_was_not_run():
    report = executorch_frees_blob.executorch_frees_blob(executorch_matrix())
    fix = report_markdown_block(report, "## Proposed fix")
    assert "OpenVINO 2026.4.1 (exit 0):\n\n```\nOK: every run equals eager\n```" in fix
    assert md_block("\n".join(executorch_frees_blob.rebuild_lines()), "sh") in fix
    unpatched = executorch_frees_blob.executorch_frees_blob(executorch_matrix(patched_by_path=False))
    assert "OpenVINO 2026.4.1: not run in this matrix." in report_markdown_block(unpatched, "## Proposed fix")


def test_channels_last_report_has_the_dim_order_cases_and_the_op_test_results():
    report = executorch_channels_last.executorch_channels_last(executorch_matrix())
    assert "| Conv2d(3, 3, 1)(x), x channels-last | wrong | 1.31 |" in report
    assert "return x.clone()" not in report, "only the dim-order cases"
    assert "| `test_channels_last_input` | passed | failed |" in report
    assert "OpenvinoBackend::create_ov_tensor" in report


def test_semantics_report_states_the_cpu_facts_from_openvinos_docs_and_has_the_op_test_results():
    report = executorch_semantics.executorch_semantics(executorch_matrix())
    bug = report_markdown_block(report, "## 🐛 Describe the bug")
    assert f"[CPU device documentation]({executorch_semantics.CPU_DOCS})" in bug
    for fact in ("computed in 32 bits", "saturates", "float64 is computed in float32", "openvino#38166"):
        assert fact in bug
    assert "| `test_int64_square` | passed | failed |" in report


def test_llm_pipeline_report_cites_each_failing_line_and_shows_the_series_run_or_says_it_was_not_run():
    report = executorch_llm_pipeline.executorch_llm_pipeline(executorch_matrix())
    main = f"blob/{executorch_issue.EXECUTORCH_MAIN}"
    for line in ("examples/models/llama/export_llama_lib.py#L1218",
                 "examples/models/llama/export_llama_lib.py#L1241-L1243",
                 "backends/openvino/partitioner.py#L76-L93", "examples/models/llama/attention.py#L129-L131"):
        assert f"{main}/{line}" in report
    fix = report_markdown_block(report, "## Proposed fix")
    assert "OpenVINO 2026.4.1 (exit 0):\n\n```\nOK: every export succeeds\n```" in fix
    assert "| `test_cache_written_at_a_position_read_from_an_input` | passed | failed |" in fix
    unpatched = executorch_llm_pipeline.executorch_llm_pipeline(executorch_matrix(patched_by_path=False))
    assert "OpenVINO 2026.4.1: not run in this matrix." in report_markdown_block(unpatched, "## Proposed fix")


EMPTY_CONSTANTS_OUTPUT = "\n".join([
    "executorch 1.5.1, torch 2.13.0+cpu", "OnlyAnEmptyConstant, none partitioner, loaded from bytes: max |diff| 0",
    "OnlyAnEmptyConstant, none partitioner, loaded from path : [tensor_parser_portable.cpp:189] "
    "getTensorDataPtr() failed: 0x23", "BUG REPRODUCED"])


def test_empty_constants_is_a_comment_for_the_open_pull_request_not_a_new_issue():
    matrix = executorch_matrix()
    for row in matrix["rows"]:
        row["executorch_empty_constants"] = {"exit_code": 1, "output": EMPTY_CONSTANTS_OUTPUT}
        row["executorch_releases"] = {"1.5.1": {"executorch_empty_constants": row["executorch_empty_constants"]}}
    report = executorch_empty_constants.executorch_empty_constants(matrix)
    assert report.startswith("# Comment for pytorch/executorch#22788: ")
    for heading in ("## What we add", "## To reproduce", "## Versions"):
        assert heading in report
    for claim in ("**Delegation produces it.**", "**By path only.**", "**A check for files already shipped**",
                  "**A user-side fix until a release has the PR**",
                  "Does the PR fix these reproducers? Not tested"):
        assert claim in report
    assert "Proposed fix" not in report, "the PR has the fix"
    assert "Describe the bug" not in report, "not an issue template"
    assert not re.search(r"workaround|repro/|catalogue|this project|\bgate\b", report, re.IGNORECASE)
    assert executorch_empty_constants.EMPTY_CONSTANTS_REPRODUCER.read_text().rstrip() in report
    assert f"OpenVINO 2026.4.1 (exit 1):\n\n```\n{EMPTY_CONSTANTS_OUTPUT}\n```" in report
    assert "ExecuTorch releases measured: 1.5.1." in report
    main = f"blob/{executorch_issue.EXECUTORCH_MAIN}"
    for line in ("runtime/executor/program.cpp#L433", "extension/data_loader/mmap_data_loader.cpp#L187-L188",
                 "extension/data_loader/file_data_loader.cpp#L165-L166"):
        assert f"{main}/{line}" in report


@pytest.mark.parametrize("render", EXECUTORCH_REPORTS)
def test_executorch_report_says_what_was_not_run(render):
    report = render(import_matrix(IMPORT_RECORDED))
    assert "OpenVINO 2026.4.1: not run in this matrix." in report
    assert "exit -11" not in report, "nothing measured is pasted by hand"


# Where an index in a printed line is not reachable (download.pytorch.org is not, here: torch's CPU wheel comes
# from the machine's own pip configuration), pip should not retry it for minutes.
NO_RETRIES = {**os.environ, "PIP_RETRIES": "0"}


@pytest.mark.parametrize("openvino", [executorch_issue.SUPPORTED_OPENVINO, executorch_issue.NEWEST_OPENVINO])
def test_executorch_install_lines_resolve_as_printed(tmp_path, openvino):
    """Each printed line, run by pip as a dry run into an empty environment: torch is the CPU build of the pinned
    release, and nothing pulls in CUDA."""
    resolved = {}
    for number, line in enumerate(executorch_issue.install_lines(openvino)):
        assert line.startswith("pip install ")
        report = tmp_path / f"{number}.json"
        result = run_cli("python", "-m", *shlex.split(line), "--dry-run", "--ignore-installed", "--quiet",
                         "--report", report, env=NO_RETRIES, timeout=900)
        assert result.returncode == 0, result.stderr[-3000:]
        resolved.update({item["metadata"]["name"].lower(): item["metadata"]["version"]
                         for item in json.loads(report.read_text())["install"]})
    pins = executorch_issue.pins()
    assert resolved["torch"].split("+")[0] == pins["torch"]
    assert resolved["executorch"] == pins["executorch"]
    assert (resolved["openvino"], resolved["nncf"]) == (openvino, pins["nncf"])
    assert not [name for name in resolved if name.startswith("nvidia")], resolved
