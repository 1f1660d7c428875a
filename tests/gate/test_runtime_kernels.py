"""A program the workaround emits always loads: every node it hands back to ExecuTorch has a kernel in the runtime
the program targets (``workaround.partitioner.rules.runtime_kernels``), or lowering is refused in one line.

Held here two ways: the kernel names the partitioner predicts are the operators ``to_executorch`` emits, and a
runtime named without a kernel makes the partitioner refuse. ``tests/upstream/test_guard_tables_load.py`` lowers
every op of the guard tables alone and loads it by path in the real runtime (a minute: outside the gate's budget).
"""

import pytest

from tests.support.helpers import skip_module_without_executorch_path, tagged

skip_module_without_executorch_path()
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from repro.harness.lowering.named import NONE  # noqa: E402
from repro.harness.lowering.to_edge import lower  # noqa: E402
from repro.harness.runtime.program_runner import RunStatus  # noqa: E402
from tests.support.helpers import ad_hoc_case  # noqa: E402
from workaround.partitioner.rules.exclusion import CannotHandBackError  # noqa: E402
from workaround.partitioner.rules.runtime_kernels import installed_operators, kernel_name  # noqa: E402

pytestmark = pytest.mark.executorch
INT32 = torch.int32


def many_kernels(x, y, n):
    """Ops whose out variants are named every way ExecuTorch names them: .out, .values, .dim_max, .Tensor_out,
    .Tensor_Scalar_out (a packet ExecuTorch's to_out_variant gives up on), dim-order copies."""
    values, _ = torch.sort(x)
    largest, _ = x.max(1)
    return values, largest, n**2, x == y, x.amax(1), x.cumsum(1), n.float(), x.clone()


def test_predicted_kernel_names_are_the_operators_a_program_calls():
    inputs = (torch.rand(2, 3), torch.rand(2, 3), torch.arange(3, dtype=INT32))
    edge = lower(ad_hoc_case(many_kernels, inputs), NONE)
    predicted = {name for node in edge.exported_program().graph.nodes if (name := kernel_name(node))}
    plan = edge.to_executorch().executorch_program.execution_plan[0]
    called = {f"{op.name}.{op.overload}" if op.overload else op.name for op in plan.operators}
    assert predicted == called


def test_a_handed_back_node_without_a_kernel_in_the_named_runtime_is_refused_in_one_line():
    equal = (lambda x, y: x == y, (torch.tensor([16777217], dtype=INT32), torch.tensor([16777216], dtype=INT32)))
    tagged(*equal)  # the installed runtime has aten::eq.Tensor_out
    without = installed_operators() - {"aten::eq.Tensor_out"}
    with pytest.raises(CannotHandBackError, match=r"no kernel aten::eq\.Tensor_out .*0x14") as refused:
        tagged(*equal, runtime_operators=without)
    assert "\n" not in str(refused.value)
    assert "comparisons go through float32" in str(refused.value), "it says why the node cannot stay in OpenVINO"


def test_runtime_operators_are_names_not_one_string():
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    with pytest.raises(TypeError, match="collection of operator names"):
        CopySafeOpenvinoPartitioner([CompileSpec("device", b"CPU")], runtime_operators="aten::eq.Tensor_out")


def test_a_max_pool_with_nan_kept_exact_in_the_delegate_needs_no_kernel_outside():
    """ExecuTorch's runtime has no max_pool3d_with_indices: with special_values="torch" the exact rewrite keeps it
    in OpenVINO, so the program loads."""
    program, _ = tagged(lambda x: F.max_pool3d(x, 2), (torch.rand(1, 1, 4, 4, 4),), special_values="torch")
    outside = [kernel_name(node) for node in program.graph_module.graph.nodes
               if node.op == "call_function" and "delegation_tag" not in node.meta and kernel_name(node)]
    assert outside == []


def test_an_embedding_bag_stays_delegated_and_equals_eager_both_loads(tmp_path, runners):
    """nn.EmbeddingBag(10, 3, mode="sum"), as the issue's model has it (a module in training mode: in eval mode it
    exports as _embedding_bag_forward_only, which no partitioner lowers). ExecuTorch's runtime has no
    _embedding_bag kernel; its indices and offsets are bounded by its table and its indices, so the workaround
    keeps it in OpenVINO, as the stock partitioner does."""
    from executorch.exir import to_edge_transform_and_lower
    from executorch.exir.backend.backend_details import CompileSpec

    from workaround import CopySafeOpenvinoPartitioner

    class Bag(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bag = torch.nn.EmbeddingBag(10, 3, mode="sum")
            torch.nn.init.constant_(self.bag.weight, 0.0)
            self.bag.weight.data += torch.arange(30.0).reshape(10, 3)

        def forward(self, indices, offsets):
            return self.bag(indices, offsets)

    inputs = (torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4]))
    exported = torch.export.export(Bag(), inputs)
    edge = to_edge_transform_and_lower(exported, partitioner=[CopySafeOpenvinoPartitioner([CompileSpec("device",
                                                                                                     b"CPU")])])
    assert [node for node in edge.exported_program().graph.nodes if "embedding_bag" in str(node.target)] == []
    path = tmp_path / "bag.pte"
    path.write_bytes(edge.to_executorch().buffer)
    expected = Bag()(*inputs)
    for runner in runners.values():  # the gate's own children, at its f32
        run = runner.run(path, inputs)
        assert run.status == RunStatus.OK, run.detail
        torch.testing.assert_close(run.outputs[0], expected.detach(), rtol=0, atol=1e-5)
