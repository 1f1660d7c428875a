"""OpenVINO CPU plugin: an output fed directly by an input is never written
when the output tensor is set after the input tensor.

What this script shows
    A compiled model whose Result is fed straight by a Parameter (what OpenVINO's
    PyTorch frontend makes of ``x.clone()``, ``x.detach()``, ``x[:, :]`` ...) is run
    with user-owned buffers, setting tensors the way ExecuTorch's OpenVINO runtime
    does: every ``set_input_tensor``, then every ``set_output_tensor``, then
    ``infer()``.  Output buffers are pre-filled with a sentinel (-7).  Four
    symptoms are checked separately:

    * ``stale_output``      the copy of ``x`` still holds the sentinel;
    * ``wrong_downstream``  ``sin(x)`` is computed from the sentinel, not from ``x``;
    * ``input_overwritten`` the caller's ``x`` buffer now holds the sentinel;
    * ``input_slot_is_output_buffer``  before ``infer()``, ``get_input_tensor(0)``
      returns output 0's buffer: the request keeps one slot for the Parameter and
      the Result it feeds, and the last ``set_*_tensor`` wins (the cause).

    The reverse order (outputs first) is run as a control.  The same calls are made
    through the C API (``plain_openvino_c.py``, used when it is beside this file;
    wheels ship ``libopenvino_c`` from 2024.3.0), in C++ (``attachments/openvino_stale_copies.cpp``,
    built by ``plain_openvino_cpp.py`` against the wheel's headers, also from
    2024.3.0), through ``AUTO:CPU`` and ``HETERO:CPU`` and with an f32 precision
    hint (they reproduce the same), and, when torch is importable, on models
    converted from torch copy ops.

How to run
    pip install openvino numpy        # numpy<2 for OpenVINO 2023.x - 2024.1
    python plain_openvino.py          # human-readable report
    python plain_openvino.py --json   # one JSON object
    python plain_openvino.py --api cpp  # only the C++ reproducer (needs a C++ compiler)

Exit status (as ``git bisect run`` expects)
    0 behaves correctly, 1 bug reproduced, 125 could not test.

JSON keys (stable)
    environment  {python, openvino, numpy, torch, os, cpu, cpu_flags,
                 optimization_capabilities, inference_precision_hint}
    seed, sentinel
    runs         list of {api (python, c, cpp), device, model, order, result_fed_by_parameter,
                 error, symptoms: {stale_output, wrong_downstream, input_overwritten,
                 input_slot_is_output_buffer}, max_abs_diff: {copy, downstream, input},
                 expected, actual}
                 (wrong_downstream / downstream are null for models without one)
    skipped      list of {part, reason}
    cpp_output   the C++ program's output verbatim, or null where it did not run
    bug_reproduced, verdict, exit_code
"""

from __future__ import annotations  # the types name numpy and openvino, which may have failed to import

import argparse
import importlib
import importlib.metadata
import json
import platform
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    import numpy as np
    import openvino as ov

    if not hasattr(ov, "Core"):  # 2023.0 keeps the whole API under openvino.runtime
        ov = importlib.import_module("openvino.runtime")
    try:
        ops = importlib.import_module("openvino.opset8")
    except ImportError:  # before 2025.0 the opsets live under openvino.runtime only
        ops = importlib.import_module("openvino.runtime.opset8")
    IMPORT_ERROR = None
except Exception:  # any failure to import is "could not test", with the full traceback
    IMPORT_ERROR = traceback.format_exc()

EXIT_OK, EXIT_BUG, EXIT_UNTESTABLE = 0, 1, 125
# Sets the tensors of a compiled model in the given order and infers: (compiled model, [(port kind, index,
# buffer)], output 0's buffer) -> whether input 0 was output 0's buffer before infer().
Runner = Callable[["ov.CompiledModel", list[tuple[str, int, "np.ndarray"]], "np.ndarray"], bool]
APIS = ("python", "c", "cpp")
SEED, SENTINEL, SHAPE = 0, -7.0, (2, 3)
# Sin in bf16 (the CPU plugin's default precision on CPUs with bf16) errs by ~4e-3; the bug by ~1.
DOWNSTREAM_TOLERANCE = 0.05
ORDERS = ("inputs_first", "outputs_first")  # ExecuTorch's order, then the control
# Other ways of reaching the CPU plugin, run with param_result_and_sin in ExecuTorch's order:
# {label: (device, compile config)}. They reproduce the same.
OTHER_TARGETS = {"AUTO:CPU": ("AUTO:CPU", {}), "HETERO:CPU": ("HETERO:CPU", {}),
                 "CPU, f32 hint": ("CPU", {"INFERENCE_PRECISION_HINT": "f32"})}


# --- The models -------------------------------------------------------------------


def param_result_and_sin(input_shape: tuple[int, ...] = SHAPE) -> ov.Model:
    """x -> Result, and x -> Sin -> Result: x has a consumer besides the Result."""
    x = ops.parameter(list(input_shape), np.float32, name="x")
    return ov.Model([ops.result(x), ops.result(ops.sin(x))], [x], "param_result_and_sin")


def param_result_only() -> ov.Model:
    """x -> Result and nothing else."""
    x = ops.parameter(list(SHAPE), np.float32, name="x")
    return ov.Model([ops.result(x)], [x], "param_result_only")


MODELS = {
    "param_result_and_sin": param_result_and_sin,
    "param_result_only": param_result_only,
    "param_result_and_sin_dynamic": lambda: param_result_and_sin((-1, SHAPE[1])),
}


# --- Running one model in one order ---------------------------------------------


def make_buffers(output_count: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The input drawn from SEED; every output pre-filled with the sentinel."""
    x = np.random.default_rng(SEED).uniform(0.5, 1.5, SHAPE).astype(np.float32)
    outputs = [np.full(SHAPE, SENTINEL, np.float32) for _ in range(output_count)]
    return x, outputs


def call_sequence(x: np.ndarray, outputs: list[np.ndarray],
                  order: str) -> list[tuple[str, int, np.ndarray]]:
    """The set_*_tensor calls in ``order``, as (port kind, index, buffer)."""
    inputs = [("input", 0, x)]
    outs = [("output", index, buffer) for index, buffer in enumerate(outputs)]
    return inputs + outs if order == "inputs_first" else outs + inputs


def run_python_api(compiled: ov.CompiledModel, calls: list[tuple[str, int, np.ndarray]],
                   output_0: np.ndarray) -> bool:
    """Wrap the caller's buffers without copying, set them in the given order, infer. Returns whether,
    before ``infer()``, the request's input 0 was output 0's buffer."""
    request = compiled.create_infer_request()
    for kind, index, buffer in calls:
        setter = request.set_input_tensor if kind == "input" else request.set_output_tensor
        setter(index, ov.Tensor(buffer, shared_memory=True))
    slot_shared = request.get_input_tensor(0).data.ctypes.data == output_0.ctypes.data
    request.infer()
    return slot_shared


def check_symptoms(x_before: np.ndarray, x_after: np.ndarray, outputs: list[np.ndarray],
                   slot_shared: bool) -> dict[str, Any]:
    """Compare output 0 with x, output 1 (if any) with sin(x), and x with itself."""
    def diff(actual: np.ndarray, expected: np.ndarray) -> float:
        return float(np.max(np.abs(actual.astype(np.float64) - expected)))

    copy_diff, input_diff = diff(outputs[0], x_before), diff(x_after, x_before)
    downstream_diff = diff(outputs[1], np.sin(x_before.astype(np.float64))) if len(outputs) > 1 else None
    return {
        "symptoms": {
            "stale_output": copy_diff != 0.0,
            "wrong_downstream": None if downstream_diff is None else downstream_diff > DOWNSTREAM_TOLERANCE,
            "input_overwritten": input_diff != 0.0,
            "input_slot_is_output_buffer": slot_shared,
        },
        "max_abs_diff": {"copy": copy_diff, "downstream": downstream_diff, "input": input_diff},
        "expected": x_before[0].tolist(),
        "actual": outputs[0][0].tolist(),
    }


def result_fed_by_parameter(compiled: ov.CompiledModel) -> bool | None:
    """True if the graph the plugin executes has a Result whose input is a Parameter."""
    try:
        results = compiled.get_runtime_model().get_results()
    except RuntimeError:  # HETERO before 2023.1 cannot show the model it runs: unknown
        return None
    return any(r.input_value(0).get_node().get_type_name() == "Parameter" for r in results)


def run_row(api: str, name: str, order: str, device: str = "CPU", *, error: str | None = None,
            result_fed_by_parameter: bool | None = None, symptoms: dict[str, bool] | None = None,
            max_abs_diff: float | None = None, expected: list[float] | None = None,
            actual: list[float] | None = None) -> dict[str, Any]:
    """One run as the report and its JSON show it, whichever API made it."""
    return {"api": api, "device": device, "model": name, "order": order, "error": error,
            "result_fed_by_parameter": result_fed_by_parameter, "symptoms": symptoms,
            "max_abs_diff": max_abs_diff, "expected": expected, "actual": actual}


def run_case(api: str, name: str, compiled: ov.CompiledModel, order: str, runner: Runner = run_python_api, *,
             device: str = "CPU") -> dict[str, Any]:
    x, outputs = make_buffers(len(compiled.outputs))
    x_before = x.copy()
    slot_shared = runner(compiled, call_sequence(x, outputs, order), outputs[0])
    return run_row(api, name, order, device, result_fed_by_parameter=result_fed_by_parameter(compiled),
                   **check_symptoms(x_before, x, outputs, slot_shared))


def error_run(api: str, name: str, order: str, device: str = "CPU",
              error: str | None = None) -> dict[str, Any]:
    return run_row(api, name, order, device, error=error or traceback.format_exc())


# --- The same bug from torch copy ops (optional) ---------------------------------

# {name: copy(torch, x)}
TORCH_COPIES: dict[str, Callable[[ModuleType, Any], Any]] = {
    "torch:clone": lambda torch, x: x.clone(),
    "torch:detach": lambda torch, x: x.detach(),
    "torch:full_slice": lambda torch, x: x[:, :],
    "torch:clone_clone": lambda torch, x: x.clone().clone(),
    "torch:alias_copy": lambda torch, x: torch.ops.aten.alias_copy(x),
}


def import_torch() -> ModuleType | None:
    """torch, or None where it cannot be imported. Imported only for these models, so ``--help``, a usage error
    and the C and C++ parts do not wait the seconds torch takes to import."""
    try:
        return importlib.import_module("torch")
    except Exception:
        return None


def convert_torch_copy(torch: ModuleType, copy: Callable[[ModuleType, Any], Any]) -> ov.Model:
    """torch.export a module returning ``(copy(x), sin(copy(x)))``, as ExecuTorch sees it."""

    class CopyThenSin(torch.nn.Module):
        def forward(self, x: Any) -> tuple[Any, Any]:
            y = copy(torch, x)
            return y, torch.sin(y)

    with warnings.catch_warnings():  # torch.export's own deprecation notice, printed on every export
        warnings.filterwarnings("ignore", message=r"`isinstance\(treespec, LeafSpec\)` is deprecated")
        return ov.convert_model(torch.export.export(CopyThenSin(), (torch.ones(SHAPE),)))


# --- Environment, report and verdict ---------------------------------------------


ISA_FLAGS = re.compile(r"^(sse4_2|avx|avx2|fma|avx512\w*|amx\w*|avx_vnni\w*)$")


def cpu_flags() -> str | None:
    """The vector-ISA flags the kernel reports (what the CPU plugin picks its kernels and precision by)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    return " ".join(flag for flag in flags if ISA_FLAGS.match(flag))


def precision_name(element_type: ov.Type) -> str:
    """'f32' from an element type, on every release (2023.0's Type has no to_string)."""
    return element_type.get_type_name() if hasattr(element_type, "get_type_name") else str(element_type)


def distribution() -> str | None:
    """The Linux distribution's name (``/etc/os-release``), what a bug template's "Operating System" asks
    for; None elsewhere."""
    try:
        return platform.freedesktop_os_release().get("PRETTY_NAME")
    except OSError:
        return None


def installed_version(name: str) -> str | None:
    """The version pip installed, read without importing it (torch is imported only when its models run)."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment(core: ov.Core) -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "openvino": ov.get_version(),
        "numpy": np.__version__,
        "torch": installed_version("torch"),
        "os": platform.platform(),
        "distribution": distribution(),
        "cpu": core.get_property("CPU", "FULL_DEVICE_NAME"),
        "cpu_flags": cpu_flags(),
        "optimization_capabilities": " ".join(core.get_property("CPU", "OPTIMIZATION_CAPABILITIES")),
        "inference_precision_hint": precision_name(core.get_property("CPU", "INFERENCE_PRECISION_HINT")),
    }


def load_part(name: str) -> ModuleType | None:
    """A part of this reproducer beside this file (``plain_openvino_c.py``, ``plain_openvino_cpp.py``), or None
    where it was not copied along."""
    module = f"{__package__}.{name}" if __package__ else name
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        return None


def runners(apis: Sequence[str], skipped: list[dict[str, str]]) -> dict[str, Runner]:
    """{api name: runner} for the in-process APIs requested; what cannot run goes to ``skipped``."""
    chosen = {"python": run_python_api} if "python" in apis else {}
    c_part = load_part("plain_openvino_c") if "c" in apis else None
    if "c" in apis and c_part is None:
        skipped.append({"part": "c_api", "reason": "plain_openvino_c.py not found beside this script"})
    elif c_part is not None:
        try:
            chosen["c"] = c_part.c_api_runner(c_part.load_library())
        except Exception as error:
            skipped.append({"part": "c_api", "reason": f"{type(error).__name__}: {error}"})
    return chosen


def cpp_runs(skipped: list[dict[str, str]]) -> tuple[list[dict[str, Any]], str | None]:
    """(rows, raw output) of the C++ reproducer; a build it cannot make is skipped, a failed run is rows."""
    cpp_part = load_part("plain_openvino_cpp")
    if cpp_part is None:
        skipped.append({"part": "cpp", "reason": "plain_openvino_cpp.py not found beside this script"})
        return [], None
    try:
        lines, output = cpp_part.run()
        return [run_row("cpp", line.pop("model"), line.pop("order"), **line) for line in lines], output
    except cpp_part.CppUnavailable as error:
        skipped.append({"part": "cpp", "reason": str(error)})
    except Exception as error:
        failed = [error_run("cpp", name, order, error=str(error)) for name in cpp_part.MODELS for order in ORDERS]
        return failed, None
    return [], None


def collect(core: ov.Core,
            apis: Sequence[str]) -> tuple[list[dict[str, Any]], list[dict[str, str]], str | None]:
    """Every model x order x API; a failing run becomes a row with its traceback. Returns (runs, skipped,
    the C++ program's output)."""
    runs, skipped = [], []
    compiled = {name: core.compile_model(build(), "CPU") for name, build in MODELS.items()}
    for api, runner in runners(apis, skipped).items():
        for name in MODELS:
            for order in ORDERS:
                try:
                    runs.append(run_case(api, name, compiled[name], order, runner))
                except Exception:
                    runs.append(error_run(api, name, order))
    cpp_rows, cpp_output = cpp_runs(skipped) if "cpp" in apis else ([], None)
    runs += cpp_rows
    if "python" not in apis:
        return runs, skipped, cpp_output
    for label, (device, config) in OTHER_TARGETS.items():
        try:
            target = core.compile_model(param_result_and_sin(), device, config)
            runs.append(run_case("python", "param_result_and_sin", target, "inputs_first", device=label))
        except Exception:
            runs.append(error_run("python", "param_result_and_sin", "inputs_first", device=label))
    torch = import_torch()
    if torch is None:
        skipped.append({"part": "torch", "reason": "torch is not importable"})
        return runs, skipped, cpp_output
    for name, copy in TORCH_COPIES.items():
        try:
            runs.append(run_case("python", name, core.compile_model(convert_torch_copy(torch, copy), "CPU"),
                                 "inputs_first"))
        except Exception:
            runs.append(error_run("python", name, "inputs_first"))
    return runs, skipped, cpp_output


def symptoms_seen(run: dict[str, Any]) -> list[str]:
    return [name for name, seen in (run["symptoms"] or {}).items() if seen]


def verdict(runs: list[dict[str, Any]]) -> tuple[int, str]:
    """(exit code, one line): any symptom is the bug; no symptom but a failed run is untested."""
    buggy, failed = [r for r in runs if symptoms_seen(r)], [r for r in runs if r["error"]]
    if buggy:
        where = ", ".join(sorted({f"{r['api']}/{r['order']}" for r in buggy}))
        return EXIT_BUG, (f"BUG REPRODUCED: {len(buggy)} of {len(runs)} runs show a symptom ({where}): "
                          "an output fed directly by an input is not written.")
    if failed:
        return EXIT_UNTESTABLE, f"COULD NOT TEST: {len(failed)} of {len(runs)} runs failed, none showed the bug."
    return EXIT_OK, "OK: every output was written and every input left intact, in both orders."


def print_report(report: dict[str, Any]) -> None:
    width = max(map(len, report["environment"]))
    for key, value in report["environment"].items():
        print(f"{key:>{width}}: {value}")
    print(f"     seed: {report['seed']}   sentinel in output buffers: {report['sentinel']}\n")
    for run in report["runs"]:
        head = f"[{run['api']:6}] {run['device']:13} {run['model']:30} {run['order']:13}"
        if run["error"]:
            print(f"{head} ERROR\n{run['error']}")
            continue
        diffs = ", ".join(f"{k}={v:.3g}" for k, v in run["max_abs_diff"].items() if v is not None)
        print(f"{head} {', '.join(symptoms_seen(run)) or 'correct'}")
        if run["expected"] is not None:
            print(f"{'':67}expected {np.round(run['expected'], 4)}   (row 0 of the copy of x)")
        print(f"{'':67}actual   {np.round(run['actual'], 4)}   max |diff|: {diffs}")
    for skip in report["skipped"]:
        print(f"skipped {skip['part']}: {skip['reason']}")
    print("\n" + report["verdict"])


def untestable(reason: str, as_json: bool) -> int:
    print(json.dumps({"exit_code": EXIT_UNTESTABLE, "verdict": "COULD NOT TEST: " + reason})
          if as_json else "COULD NOT TEST: " + reason, file=sys.stdout if as_json else sys.stderr)
    return EXIT_UNTESTABLE


def main(argv: list[str] | None = None, only_api: str | None = None) -> int:
    """``only_api``: the API of the script that calls this one (plain_openvino_c.py, plain_openvino_cpp.py);
    another --api is a usage error there, not silently overridden."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="exit status (git-bisect convention): 0 correct, 1 bug reproduced, "
                                            "2 usage error, 125 could not test")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--api", choices=("all", *APIS), default="all",
                        help="which OpenVINO API to drive (default: every one this wheel and machine allow)")
    args = parser.parse_args(argv)
    if only_api is not None:
        if args.api not in ("all", only_api):
            parser.error(f"--api {args.api}: this script drives the {only_api} API only (plain_openvino.py drives "
                         "any)")
        args.api = only_api
    if IMPORT_ERROR:
        return untestable("cannot import OpenVINO's Python API or numpy\n" + IMPORT_ERROR, args.json)
    core = ov.Core()
    if "CPU" not in core.available_devices:
        return untestable(f"no CPU device; available: {core.available_devices}", args.json)
    try:
        runs, skipped, cpp_output = collect(core, APIS if args.api == "all" else (args.api,))
    except Exception:
        return untestable("OpenVINO failed before any check ran\n" + traceback.format_exc(), args.json)
    exit_code, text = verdict(runs)
    if not runs:
        exit_code, text = EXIT_UNTESTABLE, "COULD NOT TEST: " + "; ".join(s["reason"] for s in skipped)
    report = {"environment": environment(core), "seed": SEED, "sentinel": SENTINEL, "runs": runs,
              "skipped": skipped, "cpp_output": cpp_output, "bug_reproduced": exit_code == EXIT_BUG,
              "verdict": text, "exit_code": exit_code}
    print(json.dumps(report, indent=1)) if args.json else print_report(report)
    return report["exit_code"]


if __name__ == "__main__":
    sys.exit(main())
