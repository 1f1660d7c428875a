"""Every script says its exit codes in --help (and exits 0 there), by path and as a module; every tox env
says what it is for, and the per-release envs agree with the release facts in ``repro/releases.py``."""

import importlib.util
import re
import shutil

import pytest
from packaging.version import Version

from repro import plain_openvino, releases
from repro.harness.cli import ExitStatus
from tests.support.bad_input import assert_one_line
from tests.support.helpers import PROJECT, REPRO, run_cli

BISECT = "exit status (git-bisect convention): 0 correct, 1 bug reproduced, 2 usage error, 125 could not test"
# Each script's --help, as a user reads it, ends with its exit codes: the whole sentence is held here.
PLAIN = {
    "plain_openvino.py": BISECT, "plain_openvino_c.py": BISECT, "plain_openvino_cpp.py": BISECT,
    "matrix.py": "exit status: 0 the table was written, 2 usage error (checked before anything is installed "
                 "or written)",
    "attachments/openvino_cpu_stamp.py": "Exit status (git bisect run): 0 a blob stamped for another CPU imports "
                                         "(or the release stamps nothing), 1 it is refused, 2 usage error.",
    "attachments/openvino_compressed_matmul.py": "Exit status (git bisect run): 0 a 4-bit form with f32 "
                                                 "activations takes at most 0.60 of the 8-bit time, 1 both take "
                                                 "more (the cost reproduced), 2 usage error, 125 could not test.",
    "attachments/openvino_state_cache_update.py": "Exit status (git bisect run): 0 some form updates the cache in "
                                                  "place (within 1.5x of reading only), 1 every form copies it "
                                                  "(the cost reproduced), 2 usage error, 125 could not test.",
}
NEED_TORCH = {
    "executorch_path.py": f"{BISECT} (with the workaround or a candidate: 1 means some case is not equal to "
                          "eager)",
    "main_job.py": "exit status: 0 every reproducer ran (bug found or not), 2 usage error, 125 some reproducer "
                   "could not test",
    "attachments/executorch_frees_blob.py": "Exit status (git bisect run): 0 every run correct, 1 a run crashed "
                                            "or was wrong, 2 usage error, 125 could not test.",
    "attachments/executorch_channels_last.py": "Exit status (git bisect run): 0 both correct, 1 a result is "
                                               "wrong, 2 usage error, 125 could not test.",
    "attachments/executorch_empty_constants.py": "Exit status (git bisect run): 0 every run correct, 1 a run "
                                                 "failed or was wrong, 2 usage error, 125 could not test "
                                                 "(nothing exported).",
    "attachments/openvino_import_precision.py": "Exit status (git bisect run): 0 the import keeps f32, 1 it does "
                                                "not.",
    "attachments/executorch_stale_copies.py": "Exit status (git bisect run): 0 every run correct, 1 a run was "
                                              "wrong or failed, 2 usage error, 125 could not test.",
    "attachments/executorch_precision.py": "Exit status (git bisect run): 0 the delegate runs at f32 accuracy, 1 "
                                           "it does not (or the run failed), 2 usage error, 125 could not test "
                                           "(this CPU computes f32 by default, so it cannot show the bug).",
    "attachments/executorch_semantics.py": "Exit status (git bisect run): 0 every model equals eager, 1 one "
                                           "differs, 2 usage error, 125 could not test.",
    "attachments/pytorch_cia_materialization.py": "Exit status (git bisect run): 0 one materialization per "
                                                  "call, 1 more than one (the cost reproduced), 2 usage error, "
                                                  "125 could not test (torch's internals moved).",
    "attachments/executorch_runtime_import.py": "Exit status (git bisect run): 0 executorch.runtime does not "
                                                "load executorch.exir.program, 1 it does (the cost reproduced), "
                                                "2 usage error, 125 could not test.",
    "attachments/executorch_portable_kernels.py": "Exit status (git bisect run): 0 every op ran as PyTorch, 1 an "
                                                  "op is missing or differs, 2 usage error, 125 could not test "
                                                  "(nothing exported).",
    "attachments/executorch_cpu_stamp.py": "Exit status (git bisect run): 0 the program loads in both classes, "
                                           "1 it does not load in the other class, 2 usage error, 125 could not "
                                           "test.",
    "attachments/executorch_openvino_4wo_layers.py": (
        "Exit status (git bisect run): 0 the output layer is compressed to 4 bits, 1 it is left at 8 bits, 2 "
        "usage error, 125 could not test (the export failed, or the pipeline does not import)."),
    "attachments/executorch_lfm2_reset.py": "Exit status (git bisect run): 0 the second conversation computes as "
                                            "the first, 1 it does not, 2 usage error, 125 could not test (the "
                                            "export failed, or the pipeline does not import).",
    "attachments/executorch_llm_pipeline.py": "Exit status (git bisect run): 0 every export succeeds, 1 an export "
                                              "fails, 2 usage error, 125 could not test (the control export "
                                              "failed, or the pipeline does not import).",
    "model_tier.py": "exit status: 0 every workaround run equals eager, 1 some workaround run does not, 2 usage "
                     "error, 125 could not test (transformers or the ExecuTorch stack is missing)",
    "llm_tier.py": "exit status: 0 every workaround case equals its reference both ways, 1 some does not, 2 usage "
                   "error, 125 could not test (the ExecuTorch stack or NNCF is missing)",
}


def scripts():
    yield from PLAIN.items()
    for script, exit_codes in NEED_TORCH.items():
        yield pytest.param(script, exit_codes, marks=pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                                                                        reason="needs torch to import"))


@pytest.mark.parametrize(("script", "exit_codes"), list(scripts()))
def test_every_script_states_its_exit_codes_in_help(script, exit_codes):
    result = run_cli("python", REPRO / script, "--help", cwd="/", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert exit_codes in " ".join(result.stdout.split()), result.stdout


@pytest.mark.parametrize("module", ["plain_openvino", "matrix", "plain_openvino_c", "plain_openvino_cpp"])
def test_the_scripts_run_as_modules_too(module):
    """``python -m repro.NAME`` (what tox runs) parses the same options as ``python repro/NAME.py``."""
    result = run_cli("python", "-m", f"repro.{module}", "--help", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2 usage error" in " ".join(result.stdout.split()), result.stdout


def test_only_the_by_path_bootstrap_touches_sys_path():
    """Scripts run by path import the project's packages through ``repro/_as_script.py`` alone."""
    touching = sorted(str(path.relative_to(PROJECT)) for folder in ("repro", "benchmarks", "workaround", "tests")
                      for path in (PROJECT / folder).rglob("*.py")
                      if "sys.path.insert" in path.read_text() and path.name != "test_command_line.py")
    assert touching == ["repro/_as_script.py"]


def test_the_checker_states_its_exit_codes_in_help():
    result = run_cli("python", "-m", "workaround.check", "--help", timeout=300)
    if result.returncode and "No module named" in result.stderr:
        pytest.skip(f"the checker needs flatbuffers, openvino and numpy: {result.stderr.strip().splitlines()[-1]}")
    assert result.returncode == 0, result.stderr[-2000:]
    assert ("exit status: 0 clean (or no OpenVINO delegate), 1 affected, 2 not a readable .pte (or nothing could "
            "be checked: this OpenVINO cannot open its blobs) or a usage error, 3 the checker failed (not a "
            "verdict), 130 interrupted, 141 its output's reader went away") in " ".join(result.stdout.split())


def test_the_checker_says_in_help_what_a_blob_cannot_show():
    """Each difference of the registry a shipped blob cannot show is named in --help, with why."""
    from workaround.checker.check_command import NOT_VISIBLE

    result = run_cli("python", "-m", "workaround.check", "--help", timeout=300)
    if result.returncode and "No module named" in result.stderr:
        pytest.skip(f"the checker needs flatbuffers, openvino and numpy: {result.stderr.strip().splitlines()[-1]}")
    shown = " ".join(result.stdout.split())
    assert "not visible in a shipped blob" in shown
    assert all(d.name.replace("_", " ") in shown and " ".join(d.unseen.split()) in shown for d in NOT_VISIBLE)


def test_the_restamp_command_states_its_exit_codes_in_help():
    result = run_cli("python", "-m", "workaround.restamp_command", "--help", timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert ("exit status: 0 written (or nothing to rewrite: no blob is stamped), 1 refused (a stamp it cannot "
            "vouch for; nothing written), 2 usage error or not a program (nothing written), 3 the command itself "
            "failed") in " ".join(result.stdout.split())


TOX = shutil.which("tox")
DESCRIPTIONS = {"ov2026.4": "the partitioner gate on one OpenVINO release",
                "upstream": "the evidence we send upstream",
                "repro": "reproduce the bugs on OpenVINO 2026.4.1",
                "matrix": "run the reproducers over every OpenVINO release on the index",
                "bench": "run the benchmarks (run time, export, matrix, dim-order guard, by-path loading",
                "lint": "ruff over the whole tree"}


@pytest.mark.skipif(TOX is None, reason="tox is not on the PATH")
def test_every_tox_env_has_its_own_description_and_no_stray_env_exists():
    """A description starting with 'word:' is read as a factor condition (it once made a 'benchmarks' env)."""
    shown = run_cli(TOX, "config", "-k", "description", "-e", ",".join(DESCRIPTIONS), timeout=120).stdout
    found = dict(re.findall(r"\[testenv:([^\]]+)\]\ndescription = (.*)", shown))
    assert set(found) == set(DESCRIPTIONS)
    for env, start in DESCRIPTIONS.items():
        assert found[env].startswith(start), (env, found[env])
    listed = run_cli(TOX, "list", "--no-desc", timeout=120).stdout.split()
    assert {"repro", "matrix", "bench", "upstream", "lint", "ov2023.1", "ov2026.4"} <= set(listed)
    assert "benchmarks" not in listed


def tox_values(key, envs):
    """{env: value of ``key``} as tox resolves it for each env."""
    shown = run_cli(TOX, "config", "-k", key, "-e", ",".join(envs), timeout=120).stdout
    return {env: value.strip() for env, value in re.findall(rf"\[testenv:([^\]]+)\]\n{key} =(.*?)(?=\n\[|\Z)",
                                                            shown, re.S)}


@pytest.mark.skipif(TOX is None, reason="tox is not on the PATH")
def test_the_per_release_envs_are_the_ones_the_release_facts_name():
    """One env per series from releases.TOX_FROM, pinning its newest patch; numpy<2 where the wheel needs it; the
    ExecuTorch stack from EXECUTORCH_INSTALLS_FROM on, declared unavailable before."""
    expected = releases.tox_envs()
    listed = [env for env in run_cli(TOX, "list", "--no-desc", timeout=120).stdout.split() if env.startswith("ov")]
    assert listed == [*expected, *releases.executorch_tox_envs()]
    deps, groups = tox_values("deps", expected), tox_values("dependency_groups", expected)
    unavailable = tox_values("set_env", expected)
    for env, release in expected.items():
        assert f"openvino=={release}" in deps[env].split(), (env, deps[env])
        assert ("numpy<2" in deps[env]) == (Version(release) < releases.NUMPY_2_FROM), (env, deps[env])
        installs = Version(release) >= releases.EXECUTORCH_INSTALLS_FROM
        assert ("executorch" in groups[env].split()) == installs, (env, groups[env])
        assert ("EXECUTORCH_UNAVAILABLE" in unavailable[env]) == (not installs), (env, unavailable[env])


@pytest.mark.skipif(TOX is None, reason="tox is not on the PATH")
def test_the_executorch_axis_envs_pin_their_release_or_fail_with_the_measured_reason():
    envs = releases.executorch_tox_envs()
    deps, groups = tox_values("deps", envs), tox_values("dependency_groups", envs)
    unrunnable = {f"ov{releases.EXECUTORCH_SERIES}-{factor}": reason
                  for factor, (_, reason) in releases.EXECUTORCH_UNRUNNABLE.items()}
    openvino = releases.tox_envs()[f"ov{releases.EXECUTORCH_SERIES}"]
    for env, release in envs.items():
        if env in unrunnable:
            assert deps[env] == groups[env] == "", "an unrunnable release installs nothing"
            result = run_cli(TOX, "-e", env, "-q", timeout=300)
            assert result.returncode == 1
            assert result.stderr.strip().splitlines()[0] == unrunnable[env]
            continue
        assert deps[env].split() == [f"executorch=={release}", f"openvino=={openvino}"], (env, deps[env])
        assert "executorch-stack" in groups[env].split(), (env, groups[env])
        assert "executorch" not in groups[env].split(), "the headline's executorch pin must not come along"


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch to import")
def test_an_unknown_model_of_the_model_tier_is_one_line_and_exit_2():
    result = run_cli("python", REPRO / "model_tier.py", "--models", "bert_with_attention_mask,nosuch", timeout=300)
    assert result.returncode == 2
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("model_tier.py: error: --models: unknown nosuch (known: bert_with_attention_mask, ")


def test_the_plain_reproducer_prints_no_third_party_warnings():
    result = run_cli("python", REPRO / "plain_openvino.py")
    assert result.returncode in (0, 1, 125), result.stderr[-2000:]
    assert "Warning" not in result.stderr


def test_the_standalone_reproducer_exits_with_the_projects_statuses():
    """plain_openvino.py imports nothing from the project (it is pasted into upstream issues), so it spells its
    exit statuses out: they must stay the ones every other CLI takes from ``ExitStatus``."""
    assert (plain_openvino.EXIT_OK, plain_openvino.EXIT_BUG, plain_openvino.EXIT_UNTESTABLE) == \
        (ExitStatus.CORRECT, ExitStatus.BUG, ExitStatus.UNTESTABLE)


@pytest.mark.parametrize(("arguments", "says"), [
    (["--cases", "0"], "argument --cases: must be at least 1, got 0"),
    (["--repeats", "-1"], "argument --repeats: must be at least 1, got -1"),
    (["--cases", "10000"], "--cases: the catalogue has"),
], ids=["no_cases", "negative_repeats", "more_cases_than_the_catalogue"])
def test_the_cia_collection_benchmark_refuses_bad_counts_in_one_line(arguments, says):
    if importlib.util.find_spec("torch") is None:
        pytest.skip("the benchmark lowers with torch")
    assert_one_line(run_cli("python", "-m", "benchmarks.cia_collection_cost", *arguments, timeout=300), 2, says)


@pytest.mark.parametrize(("arguments", "says"), [
    (["--layers", "0"], "argument --layers: must be at least 1, got 0"),
    (["--context", "32"], "--context: must be above the short program's 32, got 32"),
    (["--prefill", "4096"], "--prefill: must fit the context (2048), got 4096"),
    (["--precision", "bf16"], "argument --precision: invalid choice: 'bf16'"),
    (["--compressions", "4wo,2wo"], "--compressions: each one of none,8wo,4wo, got ['2wo']"),
    (["--compressions", ","], "--compressions: each one of none,8wo,4wo, got none"),
    (["--keep", "/proc/kept"], "--keep: cannot write into /proc/kept"),
], ids=["no_layers", "context_no_longer_than_the_short_one", "prefill_past_the_context", "unknown_precision",
        "unknown_compression", "no_compression", "unwritable_keep_folder"])
def test_the_real_width_llm_benchmark_refuses_bad_sizes_in_one_line_before_exporting(arguments, says):
    assert_one_line(run_cli("python", "-m", "benchmarks.llm_real_width", *arguments, timeout=300), 2, says)


def test_the_real_width_llm_benchmark_overwrites_no_program_kept_at_other_sizes(tmp_path):
    """A program folder an earlier --keep run filled at other sizes is refused before any export, untouched."""
    kept = tmp_path / "decode.4wo.workaround"
    kept.mkdir()
    (kept / "benchmark-export.json").write_text('{"asked": {"n_layers": 1}, "seconds": 1.0}')
    (kept / "program.pte").write_bytes(b"kept")
    done = run_cli("python", "-m", "benchmarks.llm_real_width", "--keep", str(tmp_path), "--compressions", "4wo",
                   timeout=300)
    assert_one_line(done, 2, f"--keep: {kept} holds another export (other sizes)")
    assert (kept / "program.pte").read_bytes() == b"kept"


def result_of(layers, timings, export_seconds):
    """A real-width benchmark result as ``measure`` prints it, reduced to what the record reads."""
    return {"model": {"n_layers": layers}, "host": {"cpu_class": "avx2", "precision": "f32"},
            "timings": {name: {"median_ms": ms} for name, ms in timings.items()}, "export_seconds": export_seconds,
            "ratios": {}}


def test_the_real_width_record_adds_other_widths_at_the_same_sizes_and_keeps_other_depths_apart():
    """--record keeps one entry per class, precision and depth; its ratios are computed from every timing kept, so
    two runs of one width each still give the goals across their groups; a run at another depth is an entry of
    its own beside it, and one at other sizes of the same depth starts that entry afresh."""
    from benchmarks.llm_real_width import recorded

    four = result_of(16, {"decode 4wo: workaround": 42.0, "decode 4wo: xnnpack": 35.0},
                     {"export decode 4wo: workaround": 130.0})
    eight = result_of(16, {"decode 8wo: workaround": 50.0, "decode 8wo: stock": 100.0},
                      {"export decode 8wo: workaround": 150.0})
    records = recorded(eight, recorded(four, {}))
    (run,) = records.values()
    assert set(run["timings"]) == {"decode 4wo: workaround", "decode 4wo: xnnpack", "decode 8wo: workaround",
                                   "decode 8wo: stock"}
    assert run["ratios"]["decode 4wo: workaround / decode 4wo: xnnpack"] == {"ratio": 1.2, "at most": 1.0,
                                                                             "met": False}
    assert run["ratios"]["decode 8wo: workaround / decode 8wo: stock"]["met"]
    assert len(run["runs"]) == 2
    beside = recorded(result_of(4, {"decode 4wo: workaround": 20.0}, {}), records)
    assert list(beside) == ["avx2, f32, 16 layers", "avx2, f32, 4 layers"]
    assert beside["avx2, f32, 16 layers"] == run
    assert set(beside["avx2, f32, 4 layers"]["timings"]) == {"decode 4wo: workaround"}
    longer = result_of(16, {"decode 4wo: workaround": 60.0}, {})
    longer["model"]["context"] = 4096
    (afresh,) = recorded(longer, records).values()
    assert set(afresh["timings"]) == {"decode 4wo: workaround"}
    assert len(afresh["runs"]) == 1
