"""The gate's processes lower with one materialization of torch's CIA registry per collection
(``repro/harness/lowering/cia_collection.py``, set up by the conftest): the same ops as torch's own collection,
while torch 2.13 still materializes once per namespace (when it stops, retire the module)."""

from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()
import torch  # noqa: E402
from torch._export import utils  # noqa: E402

from repro.harness.lowering import cia_collection  # noqa: E402
from tests.support.outcomes import UPSTREAM_CHANGED  # noqa: E402


def test_collecting_with_one_materialization_finds_the_ops_torch_finds():
    assert cia_collection.collect_materializing_once() == utils._collect_all_valid_cia_ops()


def test_torch_still_materializes_the_registry_once_per_namespace():
    namespaces = sum(isinstance(getattr(torch.ops, name), torch._ops._OpNamespace) for name in torch.ops._dir)
    assert cia_collection.torch_materializes_per_namespace() == namespaces - 1, \
        f"torch's collection no longer materializes once per namespace but aten: {UPSTREAM_CHANGED}"


class Small(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x @ x.T).softmax(-1)


def test_run_decompositions_in_a_gate_process_materializes_once_per_collection(monkeypatch):
    materialize, collect = utils._materialize_cpp_cia_ops, cia_collection._torch_collection
    counts = {"materializations": 0, "collections": 0}

    def counted(what, function):
        def call():
            counts[what] += 1
            return function()
        return call

    monkeypatch.setattr(utils, "_materialize_cpp_cia_ops", counted("materializations", materialize))
    monkeypatch.setattr(cia_collection, "_torch_collection", counted("collections", collect))
    torch.export.export(Small(), (torch.randn(4, 4),)).run_decompositions()
    assert counts["collections"] > 0
    assert counts["materializations"] == counts["collections"], counts

