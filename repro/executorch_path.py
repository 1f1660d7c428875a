"""The pass-through bug the way ExecuTorch users meet it.

Each case of a small model catalogue goes through ``torch.export`` ->
``to_edge_transform_and_lower(..., partitioner=[...])`` -> ``.to_executorch()`` ->
``.pte`` -> the real ExecuTorch runtime (the pip wheel's pybindings, whose
OpenVINO delegate dlopens ``libopenvino_c`` from the installed openvino wheel).
Every output is compared with eager PyTorch; pure copies must match bit for bit,
computed outputs within the case's stated tolerance.

With ``--replay`` the OpenVINO blob inside each delegate is taken out of the
lowered program and run again in plain OpenVINO Python with the inputs the
delegate received, setting tensors in the runtime's order (inputs, then outputs)
and in the reverse order: the ExecuTorch symptom is the OpenVINO symptom when the
inputs-first replay gives exactly the runtime's values.

Usage::

    python repro/executorch_path.py [--partitioner stock] [--case NAME] [--replay]
                                    [--save-dir DIR] [--json]

Exit status: 0 every case correct, 1 a case wrong or failing to lower (bug
reproduced), 125 could not test (ExecuTorch, its OpenVINO backend or
libopenvino_c unavailable).
"""

import argparse
import contextlib
import ctypes
import json
import os
import platform
import sys
import traceback
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

import torch

EXIT_OK, EXIT_BUG, EXIT_UNTESTABLE = 0, 1, 125
SEED = 0
COMPUTE_ATOL = 1e-5  # elementwise ops run in f32 here; the bug shows as differences of ~1


class Untestable(RuntimeError):
    """ExecuTorch, its OpenVINO backend or OpenVINO's C library cannot be used here."""


def locate_openvino_c():
    """Point the runtime's dlopen at the wheel's libopenvino_c unless the caller already did."""
    if os.environ.get("OPENVINO_LIB_PATH"):
        return os.environ["OPENVINO_LIB_PATH"]
    try:
        import openvino
    except Exception as error:
        raise Untestable(f"cannot import openvino: {error}") from error
    libs = sorted((Path(openvino.__file__).parent / "libs").glob("libopenvino_c.so*"))
    if not libs:
        raise Untestable(f"no libopenvino_c.so* in the openvino wheel ({version('openvino')})")
    os.environ["OPENVINO_LIB_PATH"] = str(libs[0])
    return str(libs[0])



# --- The catalogue ------------------------------------------------------------------


def uniform(*shape, dtype=torch.float32, channels_last=False):
    """Seeded values in [0.5, 1.5): far from the zeros a stale buffer usually holds."""
    values = torch.rand(*shape, generator=torch.Generator().manual_seed(SEED)) + 0.5
    values = values.to(dtype)
    return values.to(memory_format=torch.channels_last) if channels_last else values


def integers(*shape):
    return torch.randint(1, 100, shape, generator=torch.Generator().manual_seed(SEED))


def booleans(*shape):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(SEED)) > 0.3


class Forward(torch.nn.Module):
    """A module whose forward is the case's function, so each case fits on one line."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *inputs):
        return self.function(*inputs)


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    function: object
    inputs: object  # () -> tuple of tensors
    exact_outputs: tuple = ()  # indices of outputs that are pure copies: compared with tolerance 0
    atol: float = COMPUTE_ATOL  # for the other outputs
    skip_dim_order: bool = False  # EdgeCompileConfig(_skip_dim_order=True): clone stays aten.clone

    def module(self):
        return Forward(self.function).eval()


def _copy_then_sin(copy):
    def function(x):
        y = copy(x)
        return y, torch.sin(y)

    return function


def _sin_and_its_copy(x):
    s = torch.sin(x)
    return s, s.clone()


def seeded(module_class, *args):
    """A layer with weights drawn from SEED, in eval mode."""
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        return module_class(*args).eval()


CL = torch.channels_last
CONV_ATOL = 1e-2  # OpenVINO runs convolutions in bf16 on this CPU (AMX); the layout bug gives ~1
CONV = seeded(torch.nn.Conv2d, 3, 3, 1)
CONV_F16 = seeded(torch.nn.Conv2d, 3, 3, 1).half()
CONV_3X3 = seeded(torch.nn.Conv2d, 3, 4, 3)


def image(dtype=torch.float32, channels_last=True):
    return uniform(1, 3, 4, 4, dtype=dtype, channels_last=channels_last)


CATALOGUE = [
    Case("upstream_clone_sin", "y = x.clone(); return y, sin(y)",
         _copy_then_sin(torch.clone), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("detach", "y = x.detach(); return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(torch.Tensor.detach), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("full_slice", "y = x[:, :]; return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(lambda x: x[:, :]), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("clone_clone", "y = x.clone().clone(); return y, sin(y)",
         _copy_then_sin(lambda x: x.clone().clone()), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("alias_copy", "y = aten.alias_copy(x); return y, sin(y)  (export adds a clone after it)",
         _copy_then_sin(torch.ops.aten.alias_copy), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("transpose_0_0", "y = x.transpose(0, 0); return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(lambda x: x.transpose(0, 0)), lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("dropout_eval", "y = dropout(x, training=False); return y, sin(y)  (edge: _clone_dim_order)",
         _copy_then_sin(lambda x: torch.nn.functional.dropout(x, training=False)), lambda: (uniform(2, 3),),
         exact_outputs=(0,)),
    Case("clone_only", "return x.clone()",
         torch.clone, lambda: (uniform(2, 3),), exact_outputs=(0,)),
    Case("two_inputs", "return x.clone(), z.clone(), x + z",
         lambda x, z: (x.clone(), z.clone(), x + z), lambda: (uniform(2, 3), uniform(2, 3) * 2),
         exact_outputs=(0, 1)),
    Case("clone_channels_last", "y = x.clone(memory_format=channels_last); return y, sin(y)",
         _copy_then_sin(lambda x: x.clone(memory_format=CL)), lambda: (uniform(1, 3, 4, 4),),
         exact_outputs=(0,)),
    Case("clone_channels_last_dim_order_off", "the same, lowered with dim order off",
         _copy_then_sin(lambda x: x.clone(memory_format=CL)), lambda: (uniform(1, 3, 4, 4),),
         exact_outputs=(0,), skip_dim_order=True),
    Case("clone_used_inside", "return sin(x.clone()) + 1  (the copy never leaves the partition)",
         lambda x: torch.sin(x.clone()) + 1, lambda: (uniform(2, 3),)),
    Case("intermediate_clone_returned", "s = sin(x); return s, s.clone()",
         _sin_and_its_copy, lambda: (uniform(2, 3),)),
    Case("float16_clone", "float16: y = x.clone(); return y, sin(y)",
         _copy_then_sin(torch.clone), lambda: (uniform(2, 3, dtype=torch.float16),),
         exact_outputs=(0,), atol=2e-3),
    Case("int64_clone", "int64: y = x.clone(); return y, y + 1",
         lambda x: (x.clone(), x.clone() + 1), lambda: (integers(2, 3),), exact_outputs=(0, 1)),
    Case("bool_clone", "bool: y = x.clone(); return y, logical_not(y)",
         lambda x: (x.clone(), torch.logical_not(x.clone())), lambda: (booleans(2, 3),),
         exact_outputs=(0, 1)),
    # atan2 is not in OpenVINO's partitioner support list, so ExecuTorch's portable kernel
    # runs it, after the delegate (it needs the delegate's sin), reading x's planned buffer.
    Case("input_read_after_delegate", "y = x.clone(); return y, atan2(x, sin(y))  (atan2 outside)",
         lambda x: (x.clone(), torch.atan2(x, torch.sin(x.clone()))), lambda: (uniform(2, 3),),
         exact_outputs=(0,)),
]
# The second bug: boundary tensors are handed to OpenVINO as if contiguous (dim-order guard).
DIM_ORDER_CASES = [
    Case("sin_channels_last_input", "sin(x) * 2, x channels-last (elementwise: layout does not matter)",
         lambda x: torch.sin(x) * 2, lambda: (image(),)),
    Case("channels_last_output", "(sin(x) * 2).to(memory_format=channels_last), x contiguous",
         lambda x: (torch.sin(x) * 2).to(memory_format=CL), lambda: (image(channels_last=False),)),
    Case("channels_last_output_dim_order_off", "the same, lowered with dim order off",
         lambda x: (torch.sin(x) * 2).to(memory_format=CL), lambda: (image(channels_last=False),),
         skip_dim_order=True),
    Case("conv_channels_last_input", "Conv2d(3, 3, 1)(x), x channels-last",
         CONV, lambda: (image(),), atol=CONV_ATOL),
    Case("conv_channels_last_input_float16", "float16 Conv2d(3, 3, 1)(x), x channels-last",
         CONV_F16, lambda: (image(torch.float16),), atol=CONV_ATOL),
    Case("conv_3x3_channels_last_input", "Conv2d(3, 4, 3)(x), x channels-last",
         CONV_3X3, lambda: (image(),), atol=CONV_ATOL),
    Case("conv_output_to_channels_last", "Conv2d(3, 3, 1)(x).to(memory_format=channels_last), x contiguous",
         lambda x: CONV(x).to(memory_format=CL), lambda: (image(channels_last=False),), atol=CONV_ATOL),
    Case("max_pool_channels_last_input", "max_pool2d(x, 2), x channels-last",
         lambda x: torch.nn.functional.max_pool2d(x, 2), lambda: (image(),)),
    Case("permute_channels_last_input", "x.permute(0, 2, 3, 1) + 1, x channels-last",
         lambda x: x.permute(0, 2, 3, 1) + 1, lambda: (image(),)),
    Case("reshape_channels_last_input", "x.reshape(1, 3, 16) * 2, x channels-last",
         lambda x: x.reshape(1, 3, 16) * 2, lambda: (image(),)),
    Case("sum_over_channels_channels_last_input", "x.sum(dim=1), x channels-last",
         lambda x: x.sum(dim=1), lambda: (image(),)),
    Case("abs_of_clone_channels_last_input", "abs(x.clone()), x channels-last (the clone stays channels-last)",
         lambda x: torch.abs(x.clone()), lambda: (image(),)),
    Case("cat_channels_last_inputs", "cat([x, y], dim=1) * 2, x and y channels-last",
         lambda x, y: torch.cat([x, y], 1) * 2, lambda: (image(), image() * 2)),
]
CATALOGUE += DIM_ORDER_CASES
CASES = {case.name: case for case in CATALOGUE}


# --- Lowering and running ---------------------------------------------------------------


def stock_partitioner():
    from executorch.backends.openvino.partitioner import OpenvinoPartitioner
    from executorch.exir.backend.backend_details import CompileSpec

    return OpenvinoPartitioner([CompileSpec("device", b"CPU")]), []


def workaround_partitioner():
    """The copy-safe partitioner and the pass that keeps boundary tensors in the default dim order."""
    root = str(Path(__file__).resolve().parent.parent)  # the project root, when run as a script
    if root not in sys.path:
        sys.path.insert(0, root)
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner, DefaultDimOrderForOpenvino

    return CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")]), [DefaultDimOrderForOpenvino()]


def no_partitioner():
    """ExecuTorch's own kernels only: what ExecuTorch can run without OpenVINO."""
    return None, []


# name -> () -> (partitioner or None, transform passes)
PARTITIONERS = {"stock": stock_partitioner, "workaround": workaround_partitioner, "none": no_partitioner}


def compile_config(case):
    from executorch.exir import EdgeCompileConfig

    return EdgeCompileConfig(_skip_dim_order=case.skip_dim_order)


def lower(case, lowering, config=None):
    """torch.export -> edge dialect (``config`` or the case's), lowered with (partitioner, transform passes)."""
    from executorch.exir import to_edge_transform_and_lower

    partitioner, passes = lowering
    exported = torch.export.export(case.module(), case.inputs())
    config = config or compile_config(case)
    with contextlib.redirect_stdout(sys.stderr):  # the partitioner prints every op it rejects
        return to_edge_transform_and_lower(exported, partitioner=[partitioner] if partitioner else None,
                                           transform_passes=passes, compile_config=config)


def check_runtime():
    """The runtime must have the OpenVINO delegate and a libopenvino_c to load (it reads
    OPENVINO_LIB_PATH when it first loads a delegate, so this runs before any program)."""
    locate_openvino_c()
    try:
        from executorch.runtime import Runtime
    except Exception as error:
        raise Untestable(f"cannot import executorch.runtime: {error}") from error
    try:
        ctypes.CDLL(os.environ["OPENVINO_LIB_PATH"])
    except OSError as error:
        raise Untestable(f"cannot load OPENVINO_LIB_PATH={os.environ['OPENVINO_LIB_PATH']}: {error}") from error
    names = Runtime.get().backend_registry.registered_backend_names
    if "OpenvinoBackend" not in names:
        raise Untestable(f"this ExecuTorch runtime has no OpenvinoBackend (it has {names})")


def execute(buffer, inputs):
    """Load the .pte bytes in the real runtime and run forward once on copies of ``inputs``."""
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(buffer)  # keep alive while the method is used
    method = program.load_method("forward")
    fed = [tensor.clone() for tensor in inputs]
    return list(method.execute(fed)), fed


def as_runtime_sees(tensor):
    """The tensor's bytes in memory order, read with its sizes only (what the delegate gets)."""
    dim_order = sorted(range(tensor.dim()), key=lambda d: -tensor.stride(d)) if tensor.dim() else []
    return tensor.permute(*dim_order).contiguous().reshape(tensor.shape).numpy()


def max_abs_diff(actual, expected):
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return float("inf")
    if actual.numel() == 0:
        return 0.0
    return float((actual.detach().double() - expected.detach().double()).abs().max())


def compare_outputs(case, actual, expected):
    rows = []
    for index, want in enumerate(expected):
        got = actual[index] if index < len(actual) else torch.empty(0)
        tolerance = 0.0 if index in case.exact_outputs else case.atol
        diff = max_abs_diff(got, want)
        rows.append({"index": index, "shape": list(want.shape), "dtype": str(want.dtype).removeprefix("torch."),
                     "tolerance": tolerance, "max_abs_diff": diff, "ok": diff <= tolerance})
    return rows


# --- Inspecting the lowered program ---------------------------------------------------


def op_name(node):
    return getattr(node.target, "__name__", str(node.target))


def is_delegate_call(node):
    return node.op == "call_function" and node.target is torch.ops.higher_order.executorch_call_delegate


def delegated_and_outside_ops(edge):
    """Op names inside OpenVINO delegates, and op names left to ExecuTorch's kernels."""
    graph_module = edge.exported_program().graph_module
    inside, outside = [], []
    for node in graph_module.graph.nodes:
        if is_delegate_call(node):
            lowered = getattr(graph_module, node.args[0].target)
            inside += [op_name(n) for n in lowered.original_module.graph.nodes if n.op == "call_function"]
        elif node.op == "call_function" and op_name(node) != "getitem":
            outside.append(op_name(node))
    return sorted(inside), sorted(outside)


class DelegateInputCapture(torch.fx.Interpreter):
    """Runs the lowered graph in Python and records what each delegate receives and returns."""

    def __init__(self, graph_module):
        super().__init__(graph_module)
        self.calls = []

    def call_function(self, target, args, kwargs):
        result = super().call_function(target, args, kwargs)
        if target is torch.ops.higher_order.executorch_call_delegate:
            self.calls.append((args[0], [a.clone() for a in args[1:]], [r.clone() for r in result]))
        return result


def replay_blob(blob, inputs, expected_outputs, inputs_first):
    """Import the delegate's blob in OpenVINO Python and infer with zeroed output buffers."""
    import numpy as np
    import openvino as ov

    compiled = ov.Core().import_model(blob, "CPU")
    request = compiled.create_infer_request()
    fed = [as_runtime_sees(tensor).copy() for tensor in inputs]
    outs = [np.zeros(tuple(out.shape), dtype=out.numpy().dtype) for out in expected_outputs]
    calls = [(request.set_input_tensor, i, b) for i, b in enumerate(fed)]
    out_calls = [(request.set_output_tensor, i, b) for i, b in enumerate(outs)]
    for setter, index, buffer in (calls + out_calls if inputs_first else out_calls + calls):
        setter(index, ov.Tensor(buffer, shared_memory=True))
    request.infer()
    return outs


def capture_delegate_calls(edge, case):
    """Before ``to_executorch`` (which rewrites the edge graph in place): each delegate's blob,
    inputs and eager outputs, and which program outputs are which delegate's outputs."""
    graph_module = edge.exported_program().module()
    capture = DelegateInputCapture(graph_module)
    capture.run(*case.inputs())
    delegate_nodes = [n for n in graph_module.graph.nodes if is_delegate_call(n)]
    output_node = next(n for n in graph_module.graph.nodes if n.op == "output")
    calls = []
    for (lowered, inputs, outputs), node in zip(capture.calls, delegate_nodes, strict=True):
        program_outputs = {arg.args[1]: index for index, arg in enumerate(output_node.args[0])
                           if arg.op == "call_function" and op_name(arg) == "getitem" and arg.args[0] is node}
        calls.append((bytes(lowered.processed_bytes), inputs, outputs, program_outputs))
    return calls


def replay(calls, case, runtime_outputs):
    """Replay every delegate; compare with the runtime where a program output is a delegate output."""
    import numpy as np

    agrees, control_correct = [], []
    for blob, inputs, outputs, program_outputs in calls:
        runtime_order = replay_blob(blob, inputs, outputs, inputs_first=True)
        control = replay_blob(blob, inputs, outputs, inputs_first=False)
        control_correct.append(all(np.allclose(c, as_runtime_sees(o), atol=case.atol)
                                   for c, o in zip(control, outputs, strict=True)))
        for delegate_index, program_index in program_outputs.items():
            got = as_runtime_sees(runtime_outputs[program_index])
            agrees.append(bool(np.array_equal(runtime_order[delegate_index], got)))
    return {"delegates_replayed": len(calls), "agrees_with_runtime": all(agrees) if agrees else None,
            "outputs_compared": len(agrees), "control_order_correct": all(control_correct)}


# --- One case, the whole run, the report ----------------------------------------------------


def run_case(case, partitioner_name="stock", save_dir=None, with_replay=False, config=None):
    """Lower, run and compare one case; failures become part of the record, never an exception."""
    record = {"case": case.name, "what": case.what, "partitioner": partitioner_name,
              "skip_dim_order": case.skip_dim_order, "lowering_error": None, "runtime_error": None,
              "delegates": None, "delegated_ops": None, "ops_outside": None, "outputs": None,
              "inputs_intact": None, "replay": None, "pte": None}
    inputs = case.inputs()
    expected = case.module()(*[t.clone() for t in inputs])
    expected = list(expected) if isinstance(expected, tuple | list) else [expected]
    try:
        edge = lower(case, PARTITIONERS[partitioner_name](), config)
        inside, outside = delegated_and_outside_ops(edge)
        calls = capture_delegate_calls(edge, case) if with_replay else None
        program = edge.to_executorch()
    except Exception as error:
        # The workaround refuses what it cannot make correct: not the bug.
        outcome = "refused" if type(error).__name__ in ("UnsafeCopyError", "DimOrderError") else "lowering_failed"
        record.update(outcome=outcome, lowering_error=f"{type(error).__name__}: {error}".strip(),
                      traceback=traceback.format_exc())
        return record
    record.update(delegates=len(program.executorch_program.execution_plan[0].delegates),
                  delegated_ops=inside, ops_outside=outside)
    if save_dir:
        path = Path(save_dir) / f"{case.name}.{partitioner_name}.pte"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(program.buffer)
        record["pte"] = str(path)
    try:
        actual, fed = execute(program.buffer, inputs)
    except Exception as error:
        record.update(outcome="runtime_failed", runtime_error=f"{type(error).__name__}: {error}",
                      traceback=traceback.format_exc())
        return record
    record["outputs"] = compare_outputs(case, actual, expected)
    record["inputs_intact"] = all(torch.equal(a, b) for a, b in zip(fed, inputs, strict=True))
    record["outcome"] = "correct" if all(row["ok"] for row in record["outputs"]) else "wrong"
    if with_replay and record["delegates"]:
        record["replay"] = replay(calls, case, actual)
    return record


def summarize(records, partitioner):
    """(exit code, verdict): wrong values or failed lowering is the bug; a runtime failure alone is untested."""
    bad = [r["case"] for r in records if r["outcome"] in ("wrong", "lowering_failed")]
    failed = [r["case"] for r in records if r["outcome"] == "runtime_failed"]
    if bad:
        return EXIT_BUG, (f"BUG REPRODUCED: {len(bad)} of {len(records)} cases wrong or failing to lower "
                          f"with the {partitioner} partitioner: {', '.join(bad)}")
    if failed:
        return EXIT_UNTESTABLE, f"COULD NOT TEST: the runtime failed on {', '.join(failed)}"
    refused = [r["case"] for r in records if r["outcome"] == "refused"]
    verdict = f"OK: {len(records) - len(refused)} of {len(records)} cases equal eager PyTorch ({partitioner})"
    return EXIT_OK, verdict + (f"; refused at export with a clear error: {', '.join(refused)}" if refused else "")


def environment():
    versions = {name: version(name) for name in ("openvino", "executorch", "torch", "numpy")}
    return {"python": platform.python_version(), **versions, "os": platform.platform(),
            "openvino_lib_path": os.environ.get("OPENVINO_LIB_PATH")}


def print_table(report):
    for key, value in report["environment"].items():
        print(f"{key:>17}: {value}")
    print(f"\n{'case':36} {'outcome':16} {'deleg.':>6}  {'max |diff| per output':30} ops outside")
    for record in report["cases"]:
        diffs = " ".join(f"{row['max_abs_diff']:.3g}" + ("" if row["ok"] else "!")
                         for row in record["outputs"] or [])
        detail = record["lowering_error"] or record["runtime_error"] or ", ".join(record["ops_outside"] or [])
        print(f"{record['case']:36} {record['outcome']:16} {record['delegates'] or 0:>6}  {diffs:30} "
              f"{detail.splitlines()[0][:100] if detail else ''}")
        if record["replay"]:
            replay = record["replay"]
            same = {True: "same values as the runtime", False: "DIFFERENT values from the runtime",
                    None: "no program output comes straight from a delegate"}[replay["agrees_with_runtime"]]
            control = "correct" if replay["control_order_correct"] else "wrong"
            print(f"{'':36} replayed in plain OpenVINO: inputs first -> {same}; outputs first -> {control}")
    print("\n" + report["verdict"])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitioner", choices=sorted(PARTITIONERS), default="stock")
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="run only this case (repeatable)")
    parser.add_argument("--replay", action="store_true", help="replay each delegate's blob in plain OpenVINO")
    parser.add_argument("--save-dir", type=Path, help="write each case's .pte file here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    try:
        check_runtime()
    except Untestable as error:
        print(f"COULD NOT TEST: {error}", file=sys.stderr)
        if args.json:
            print(json.dumps({"exit_code": EXIT_UNTESTABLE, "verdict": f"COULD NOT TEST: {error}"}))
        return EXIT_UNTESTABLE
    cases = [CASES[name] for name in args.case] if args.case else CATALOGUE
    records = [run_case(case, args.partitioner, args.save_dir, args.replay) for case in cases]
    exit_code, verdict = summarize(records, args.partitioner)
    report = {"environment": environment(), "seed": SEED, "partitioner": args.partitioner, "cases": records,
              "verdict": verdict, "exit_code": exit_code}
    print(json.dumps(report, indent=1)) if args.json else print_table(report)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
