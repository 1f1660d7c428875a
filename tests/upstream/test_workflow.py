"""CI as the README promises it: ``.ci/run`` runs exactly the README's test command, and the GitHub Actions
workflow (``.github/workflows/gate.yml``) runs every env ``tox list`` names by default (a new release env cannot be
forgotten there), the conformance sweep in its shards, and the C++ patch proofs on the ExecuTorch commit our
patches apply to. actionlint checks the workflow itself in ``tox -e lint``.
"""

import re
import shutil
from pathlib import Path

import pytest
import yaml

from repro.reports.executorch_issue import EXECUTORCH_MAIN
from tests.support.helpers import run_cli

PROJECT = Path(__file__).resolve().parents[2]
WORKFLOW = yaml.safe_load((PROJECT / ".github" / "workflows" / "gate.yml").read_text())
TOX = shutil.which("tox")
TOX_RUN = re.compile(r"\btox -e (\"\$\{\{ matrix\.env }}\"|[\w.-]+)")


def envs_run_by(job):
    """The tox envs a workflow job runs: those its steps name, a matrix's ``env`` values in place of the
    expression."""
    named = {match for step in job["steps"] for match in TOX_RUN.findall(step.get("run", ""))}
    if '"${{ matrix.env }}"' in named:
        named = (named - {'"${{ matrix.env }}"'}) | set(job["strategy"]["matrix"]["env"])
    return named


def steps_running(job_name):
    return [step["run"] for step in WORKFLOW["jobs"][job_name]["steps"] if "run" in step]


@pytest.mark.skipif(TOX is None, reason="tox is not on the PATH")
def test_the_workflow_runs_every_default_tox_env_once_and_the_conformance_sweep():
    default_envs = run_cli(TOX, "list", "-d", "--no-desc", timeout=120).stdout.split()
    runs = [env for job in WORKFLOW["jobs"].values() for env in envs_run_by(job)]
    assert sorted(runs) == sorted([*default_envs, "conformance"])


def test_the_conformance_sweep_runs_in_every_shard_once():
    shards = WORKFLOW["jobs"]["conformance"]["strategy"]["matrix"]["shard"]
    count = len(shards)
    assert sorted(shards) == [f"{k}/{count}" for k in range(1, count + 1)]
    assert steps_running("conformance")[-1] == 'tox -e conformance -- --shard "${{ matrix.shard }}"'


def test_the_upstream_job_proves_the_cpp_patches_on_the_commit_they_apply_to():
    [executorch] = [step for step in WORKFLOW["jobs"]["upstream"]["steps"]
                    if step.get("with", {}).get("repository") == "pytorch/executorch"]
    assert executorch["with"]["ref"] == EXECUTORCH_MAIN
    assert f'--executorch-source="$GITHUB_WORKSPACE/{executorch["with"]["path"]}"' in steps_running("upstream")[-1]


def test_ci_runs_exactly_the_readme_test_command():
    readme = (PROJECT / "README.md").read_text()
    [command] = re.findall(r"^(tox -e \S+)\s+# the tests", readme, re.M)
    ci_run = (PROJECT / ".ci" / "run").read_text().strip().splitlines()
    assert ci_run[-1] == f"python3 -m {command}"


def test_every_job_first_prints_its_runners_cpu_class():
    """Hosted runners differ in CPU class, and so do some of OpenVINO's values: a red run must say where it ran."""
    for name, job in WORKFLOW["jobs"].items():
        first = job["steps"][0]
        assert "/proc/cpuinfo" in first.get("run", ""), name
        assert "avx512_bf16" in first["run"], name
