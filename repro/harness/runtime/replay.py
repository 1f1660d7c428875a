"""Replaying a delegate's OpenVINO blob in plain OpenVINO Python, in both call orders.

The lowered graph is interpreted in Python before ``to_executorch`` to record what each
delegate receives; the blob is then imported with ``openvino.Core().import_model`` and run
with those inputs, setting tensors in the runtime's order (inputs, then outputs) and in the
reverse order. When the inputs-first replay gives exactly the runtime's values, the
ExecuTorch symptom is the OpenVINO symptom.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch

from repro.harness.cases.program_contents import is_delegate_call, op_name
from repro.harness.cases.record import Replay
from repro.harness.models.catalogue import Case

# (a delegate's blob, its inputs, its eager outputs, {its output index: the program output it is}).
DelegateCall = tuple[bytes, list[torch.Tensor], list[torch.Tensor], dict[int, int]]


def as_runtime_sees(tensor: torch.Tensor) -> np.ndarray:
    """The tensor's bytes in memory order, read with its sizes only (what the delegate gets)."""
    dim_order = sorted(range(tensor.dim()), key=lambda d: -tensor.stride(d)) if tensor.dim() else []
    return tensor.permute(*dim_order).contiguous().reshape(tensor.shape).numpy()


class DelegateInputCapture(torch.fx.Interpreter):
    """Runs the lowered graph in Python and records what each delegate receives and returns."""

    def __init__(self, graph_module: torch.fx.GraphModule) -> None:
        super().__init__(graph_module)
        # (the lowered module, its inputs, its outputs) of each delegate call, in order
        self.calls: list[tuple[Any, list[torch.Tensor], list[torch.Tensor]]] = []

    def call_function(self, target: Any, args: Any, kwargs: Any) -> Any:
        result = super().call_function(target, args, kwargs)
        if target is torch.ops.higher_order.executorch_call_delegate:
            self.calls.append((args[0], [a.clone() for a in args[1:]], [r.clone() for r in result]))
        return result


def replay_blob(blob: bytes, inputs: Sequence[torch.Tensor], expected_outputs: Sequence[torch.Tensor],
                inputs_first: bool) -> list[np.ndarray]:
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


def capture_delegate_calls(edge: Any, case: Case) -> list[DelegateCall]:
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


def replay(calls: Sequence[DelegateCall], case: Case, runtime_outputs: Sequence[torch.Tensor]) -> Replay:
    """Replay every delegate; compare with the runtime where a program output is a delegate output."""
    import numpy as np

    agrees, control_correct = [], []
    for blob, inputs, outputs, program_outputs in calls:
        runtime_order = replay_blob(blob, inputs, outputs, inputs_first=True)
        control = replay_blob(blob, inputs, outputs, inputs_first=False)
        control_correct.append(all(np.allclose(c, as_runtime_sees(o), atol=case.atol, equal_nan=True)
                                   for c, o in zip(control, outputs, strict=True)))
        for delegate_index, program_index in program_outputs.items():
            got, replayed = as_runtime_sees(runtime_outputs[program_index]), runtime_order[delegate_index]
            agrees.append(bool(np.array_equal(replayed, got, equal_nan=replayed.dtype.kind == "f")))
    return {"delegates_replayed": len(calls), "agrees_with_runtime": all(agrees) if agrees else None,
            "outputs_compared": len(agrees), "control_order_correct": all(control_correct)}
