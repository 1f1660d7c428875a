"""The plain OpenVINO reproducer shows, on the installed release, the symptoms that
release is known for (tests/support/release_behaviour.py) -- no more, no fewer.

A failure here means OpenVINO changed: the message says which symptom appeared or
disappeared, which is the signal to update the upstream report and to check whether
the workaround can be retired.
"""

import json
import os
from pathlib import Path

import pytest

from repro import plain_openvino as plain
from repro import plain_openvino_cpp as cpp
from tests.support.helpers import PROJECT, run_cli
from tests.support.release_behaviour import (
    C_API_IN_WHEEL_FROM,
    CPP_HEADERS_IN_WHEEL_FROM,
    TORCH_ALIAS_COPY_CONVERTS_FROM,
    expected_symptoms,
    installed_openvino,
)

REPRO = Path(plain.__file__)
RUN_KEYS = {"api", "device", "model", "order", "result_fed_by_parameter", "error", "symptoms", "max_abs_diff",
            "expected", "actual"}
REPORT_KEYS = {"environment", "seed", "sentinel", "runs", "skipped", "cpp_output", "bug_reproduced", "verdict",
               "exit_code"}
CASES = [(api, model, order) for api in ("python", "c") for model in plain.MODELS for order in plain.ORDERS]
CPP_CASES = [(model, order) for model in cpp.MODELS for order in plain.ORDERS]
VALUE_SYMPTOMS = ("stale_output", "wrong_downstream", "input_overwritten")


@pytest.fixture(scope="module")
def in_process():
    """Every run of the script's checks on the plain CPU device, made once in this process, and what was
    skipped; the other targets' runs are under the key ``"targets"``."""
    runs, skipped, _ = plain.collect(plain.ov.Core(), plain.APIS)
    keyed = {(r["api"], r["model"], r["order"]): r for r in runs if r["device"] == "CPU"}
    keyed["targets"] = {r["device"]: r for r in runs if r["device"] != "CPU"}
    return keyed, {s["part"]: s["reason"] for s in skipped}


def run_script(*args, extra_path=None):
    env = dict(os.environ)
    if extra_path is not None:  # stand-in packages shadow the real ones in the child interpreter
        env["PYTHONPATH"] = str(extra_path)
    return run_cli("python", *args, env=env)


def change_message(run, expected):
    seen = set(plain.symptoms_seen(run))
    return (f"OpenVINO {installed_openvino()} no longer behaves as the release table says for "
            f"{run['api']}/{run['model']}/{run['order']}: appeared {sorted(seen - expected) or 'nothing'}, "
            f"disappeared {sorted(expected - seen) or 'nothing'} (max |diff| {run['max_abs_diff']}). "
            "Re-measure, update tests/support/release_behaviour.py and the upstream report, and check whether the "
            "workaround can be retired.")


def run_of(in_process, api, model, order):
    runs, skipped = in_process
    if api == "c" and "c_api" in skipped:
        assert "does not ship the C API" in skipped["c_api"], skipped["c_api"]
        pytest.skip(skipped["c_api"])
    run = runs[(api, model, order)]
    assert run["error"] is None, run["error"]
    return run


@pytest.mark.parametrize(("api", "model", "order"), CASES, ids=["-".join(case) for case in CASES])
def test_symptoms_match_release_table(in_process, api, model, order):
    run = run_of(in_process, api, model, order)
    expected = expected_symptoms(model, order)
    assert set(plain.symptoms_seen(run)) == expected, change_message(run, expected)


@pytest.mark.parametrize("model", list(plain.MODELS))
def test_compiled_model_has_result_fed_by_parameter(in_process, model):
    assert run_of(in_process, "python", model, "inputs_first")["result_fed_by_parameter"]


def test_c_api_runs_exactly_where_the_wheel_ships_it(in_process):
    _, skipped = in_process
    assert ("c_api" not in skipped) == (installed_openvino() >= C_API_IN_WHEEL_FROM), skipped.get("c_api")


def cpp_run_of(in_process, model, order):
    runs, skipped = in_process
    if "cpp" in skipped:
        reason = skipped["cpp"]
        if installed_openvino() < CPP_HEADERS_IN_WHEEL_FROM:
            assert "wheels before 2024.3.0 ship none" in reason, reason
        else:
            assert "no C++ compiler" in reason, f"the C++ reproducer should build with this wheel: {reason}"
        pytest.skip(reason)
    run = runs[("cpp", model, order)]
    assert run["error"] is None, run["error"]
    return run


@pytest.mark.parametrize(("model", "order"), CPP_CASES, ids=["-".join(case) for case in CPP_CASES])
def test_cpp_reproducer_shows_the_python_apis_symptoms(in_process, model, order):
    cpp_run = cpp_run_of(in_process, model, order)
    python_run = run_of(in_process, "python", model, order)
    assert cpp_run["symptoms"] == python_run["symptoms"], (cpp_run, python_run)


def test_cpp_build_is_cached(in_process):
    cpp_run_of(in_process, "param_result_only", "inputs_first")
    binary, cached = cpp.build()
    assert cached, "the fixture built it already; the second build should reuse the binary"
    assert binary.exists()


@pytest.mark.parametrize(("compiler", "reason"), [
    ("/nonexistent/c++", "the C++ build could not run"),
    ("false", "false failed to build openvino_stale_copies.cpp")])
def test_cpp_part_without_a_working_compiler_says_why_it_could_not_test(tmp_path, compiler, reason):
    if installed_openvino() < CPP_HEADERS_IN_WHEEL_FROM:
        pytest.skip("this wheel ships no C++ headers: the build stops before the compiler")
    result = run_cli("python", REPRO, "--api", "cpp", "--json",
                     env={**os.environ, "CXX": compiler, "XDG_CACHE_HOME": str(tmp_path)})
    report = json.loads(result.stdout)
    assert result.returncode == plain.EXIT_UNTESTABLE, result.stderr
    assert reason in report["verdict"]
    assert report["runs"] == []


def test_without_cpp_headers_the_cpp_part_cannot_test_and_says_so():
    if installed_openvino() >= CPP_HEADERS_IN_WHEEL_FROM:
        pytest.skip(f"OpenVINO {installed_openvino()} ships the C++ headers")
    result = run_script(str(REPRO.with_name("plain_openvino_cpp.py")))
    assert result.returncode == plain.EXIT_UNTESTABLE
    assert "no C++ headers" in result.stdout


@pytest.mark.parametrize("target", list(plain.OTHER_TARGETS))
def test_other_targets_give_the_cpu_devices_wrong_values(in_process, target):
    """AUTO:CPU, HETERO:CPU and an f32 precision hint reach the same plugin: the same wrong values."""
    run = in_process[0]["targets"][target]
    assert run["error"] is None, run["error"]
    cpu = run_of(in_process, "python", "param_result_and_sin", "inputs_first")
    assert {s: run["symptoms"][s] for s in VALUE_SYMPTOMS} == {s: cpu["symptoms"][s] for s in VALUE_SYMPTOMS}


def test_environment_names_the_cpu_plugins_precision_and_capabilities():
    env = plain.environment(plain.ov.Core())
    assert env["inference_precision_hint"] in ("f32", "bf16", "f16")
    assert "FP32" in env["optimization_capabilities"].split()
    if Path("/proc/cpuinfo").exists():
        assert "sse4_2" in env["cpu_flags"].split()


@pytest.mark.parametrize("name", list(plain.TORCH_COPIES))
def test_torch_copy_converts_to_result_fed_by_parameter(in_process, name):
    pytest.importorskip("torch")
    run = in_process[0][("python", name, "inputs_first")]
    if name == "torch:alias_copy" and installed_openvino() < TORCH_ALIAS_COPY_CONVERTS_FROM:
        assert "No conversion rule found for operations: aten.alias_copy.default" in run["error"], run["error"]
        return
    assert run["error"] is None, run["error"]
    assert run["result_fed_by_parameter"], f"{name} no longer compiles to a Parameter->Result pass-through"
    expected = expected_symptoms(name, "inputs_first")
    assert set(plain.symptoms_seen(run)) == expected, change_message(run, expected)


def test_script_exit_code_and_json_agree_with_in_process_checks(in_process):
    result = run_script(str(REPRO), "--json")
    report = json.loads(result.stdout)
    assert set(report) == REPORT_KEYS
    assert result.returncode == report["exit_code"] == plain.EXIT_BUG, result.stderr
    assert report["bug_reproduced"]
    assert report["verdict"].startswith("BUG REPRODUCED")
    for run in report["runs"]:
        assert set(run) == RUN_KEYS
        key = (run["api"], run["model"], run["order"]) if run["device"] == "CPU" else "targets"
        expected = in_process[0][key] if run["device"] == "CPU" else in_process[0][key][run["device"]]
        assert run["symptoms"] == expected["symptoms"]


def test_human_report_names_versions_cpu_and_verdict():
    result = run_script(str(REPRO))
    assert result.returncode == plain.EXIT_BUG, result.stderr
    for label in ("python:", "openvino:", "numpy:", "os:", "cpu:", "seed:", "expected", "actual"):
        assert label in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("BUG REPRODUCED")


def test_c_script_alone_reports_only_c_runs(in_process):
    if "c_api" in in_process[1]:
        pytest.skip(in_process[1]["c_api"])
    result = run_script(str(REPRO.with_name("plain_openvino_c.py")), "--json")
    report = json.loads(result.stdout)
    assert result.returncode == plain.EXIT_BUG, result.stderr
    assert {run["api"] for run in report["runs"]} == {"c"}


def c_part_exit():
    """What the C part alone exits with here: the bug, or could not test where the wheel ships no C API."""
    return plain.EXIT_BUG if installed_openvino() >= C_API_IN_WHEEL_FROM else plain.EXIT_UNTESTABLE


@pytest.mark.parametrize(("script", "arguments", "exit_code"), [
    ("plain_openvino_c.py", ["--json"], c_part_exit()),
    ("plain_openvino.py", ["--api", "fortran"], 2),
], ids=["c_part_alone", "usage_error"])
def test_torch_is_imported_only_for_the_models_converted_from_torch(script, arguments, exit_code):
    """The C and C++ parts and a usage error never need torch, so they do not wait the seconds its import takes:
    the C part alone and a usage error, each run by path as a maintainer runs the reproducer, then asked which
    modules it loaded (the C++ part starts from the same module as the C part)."""
    path = str(REPRO.with_name(script))
    code = (f"import runpy, sys; sys.argv = [{path!r}, *{arguments!r}]; sys.path[0] = {str(REPRO.parent)!r}\n"
            f"try:\n    runpy.run_path({path!r}, run_name='__main__')\n"
            "finally:\n    print('torch imported' if 'torch' in sys.modules else 'torch not imported', "
            "file=sys.stderr)")
    result = run_script("-c", code)
    assert result.stderr.rstrip().endswith("torch not imported"), result.stderr[-2000:]
    assert result.returncode == exit_code, result.stderr[-2000:]


@pytest.fixture
def broken_package(tmp_path):
    """A stand-in package that fails to import, shadowing the real one."""

    def make(name):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('simulated broken {name} install')\n")
        return tmp_path

    return make


@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_broken_openvino_install_exits_125_with_reason(broken_package, as_json):
    result = run_script(str(REPRO), *(["--json"] if as_json else []), extra_path=broken_package("openvino"))
    assert result.returncode == plain.EXIT_UNTESTABLE
    output = result.stdout if as_json else result.stderr
    assert "COULD NOT TEST" in output
    assert "simulated broken openvino install" in output
    if as_json:
        assert json.loads(result.stdout)["exit_code"] == plain.EXIT_UNTESTABLE


def test_without_torch_the_torch_part_is_skipped_not_an_error(broken_package):
    result = run_script(str(REPRO), "--json", extra_path=broken_package("torch"))
    report = json.loads(result.stdout)
    assert result.returncode == plain.EXIT_BUG, result.stderr
    assert any(skip["part"] == "torch" for skip in report["skipped"])
    assert not any(run["model"].startswith("torch:") for run in report["runs"])


def _run(symptoms=None, error=None):
    return {"api": "python", "model": "m", "order": "inputs_first", "symptoms": symptoms, "error": error}


@pytest.mark.parametrize(("runs", "exit_code"), [
    ([_run({"stale_output": False})], plain.EXIT_OK),
    ([_run({"stale_output": True}), _run(error="Traceback ...")], plain.EXIT_BUG),
    ([_run({"stale_output": False}), _run(error="Traceback ...")], plain.EXIT_UNTESTABLE),
], ids=["all_correct", "bug_wins_over_failure", "failure_without_bug_is_untested"])
def test_verdict_exit_code(runs, exit_code):
    assert plain.verdict(runs)[0] == exit_code


def test_the_import_precision_reproducer_shows_the_importer_decides():
    """repro/attachments/openvino_import_precision.py: compiled f32, exported, imported with nothing runs at the
    importing process's default: bf16 (exit 1) at this CPU's default where it has bf16, f32 (exit 0) under the
    gate's cap."""
    from repro.harness.cpu import precision

    capped = run_cli("python", PROJECT / "repro" / "attachments" / "openvino_import_precision.py")
    assert capped.returncode == 0, capped.stdout + capped.stderr[-2000:]
    assert "exported, imported with nothing: max error" in capped.stdout
    default = run_cli("python", PROJECT / "repro" / "attachments" / "openvino_import_precision.py",
                      env=precision.without_cap())
    bf16_here = "runs at bf16" in default.stdout
    assert default.returncode == (1 if bf16_here else 0), default.stdout
    assert precision.default_is_f32(), "the gate's cap is in force here"
