"""A buffer a partition mutates (an LLM's KV cache) stays inside the OpenVINO delegate as OpenVINO state
(``workaround.partitioner.delegate.state``): the delegate takes only the user's inputs, and call after call, by
path and from bytes, the program computes what eager computes with its buffers, starting again from their
initial values at each load. A buffer whose mutation is handed back stays in ExecuTorch, as before."""

import pytest

from tests.support.helpers import (
    ad_hoc_case,
    assert_calls_equal,
    lower_save_run,
    skip_module_without_executorch_path,
)

skip_module_without_executorch_path()

import torch  # noqa: E402

from repro.harness.lowering.named import LOWERINGS  # noqa: E402
from repro.harness.lowering.to_edge import lower  # noqa: E402

pytestmark = pytest.mark.executorch
CALLS = 4


class CacheAndCounter(torch.nn.Module):
    """A KV cache written one position a call, and a running total that starts where ``initial`` says."""

    def __init__(self, dtype: torch.dtype, initial: torch.Tensor, position_dtype: torch.dtype) -> None:
        super().__init__()
        self.position_dtype = position_dtype
        self.register_buffer("cache", torch.zeros(1, 2, 8, 4, dtype=dtype))
        self.register_buffer("total", initial.to(dtype, copy=True))

    def forward(self, value, position):
        self.cache[:, :, position] = value
        self.total.add_(value.sum())
        return self.cache.sum(dim=2) * 2 + self.total


INITIAL_VALUES = {"zeros": torch.zeros(4), "equal": torch.full((4,), 5.0), "distinct": torch.arange(4.0) - 1.5}


def calls(dtype, position_dtype):
    return [(torch.full((1, 2, 1, 4), float(step) + 0.25, dtype=dtype), torch.tensor([step], dtype=position_dtype))
            for step in range(CALLS)]


def eager_outputs(model_args, inputs):
    model = CacheAndCounter(*model_args)
    with torch.no_grad():
        return [model(*(tensor.clone() for tensor in call)) for call in inputs]


def lowered_and_saved(model_args, folder):
    inputs = calls(model_args[0], model_args[2])
    case = ad_hoc_case(CacheAndCounter(*model_args), inputs[0], "cache_and_counter")
    edge = lower(case, LOWERINGS["workaround"])
    path = folder / "cache_and_counter.pte"
    path.write_bytes(edge.to_executorch().buffer)
    return edge.exported_program(), path, inputs


def delegate_arguments(program):
    return [len(node.args) - 1 for node in program.graph.nodes
            if node.op == "call_function" and "executorch_call_delegate" in str(node.target)]


@pytest.mark.parametrize("initial", list(INITIAL_VALUES))
def test_a_mutated_buffer_stays_inside_the_delegate_and_equals_eager_call_after_call(runners, tmp_path, initial):
    model_args = (torch.float32, INITIAL_VALUES[initial], torch.int32)
    program, path, inputs = lowered_and_saved(model_args, tmp_path)
    assert dict(program.graph_signature.buffers_to_mutate) == {}, "a buffer still crosses the boundary"
    assert delegate_arguments(program) == [2], "the delegate takes more than the value and the position"
    expected = [[output] for output in eager_outputs(model_args, inputs)]
    assert_calls_equal(runners, path, inputs, expected, tolerance=0)


def test_each_load_starts_again_from_the_buffers_initial_values(runners, tmp_path):
    model_args = (torch.float32, INITIAL_VALUES["distinct"], torch.int32)
    _, path, inputs = lowered_and_saved(model_args, tmp_path)
    first_call = eager_outputs(model_args, inputs[:1])[0]
    for load, runner in runners.items():
        for _ in range(2):  # each run_calls loads the program and its method again
            run = runner.run_calls(path, inputs[:2])
            assert run.outputs is not None, f"{load}: {run.status} {run.detail}"
            assert torch.equal(run.outputs[0][0], first_call), load


@pytest.mark.parametrize(("dtype", "position_dtype"), [
    pytest.param(torch.float32, torch.int64, id="written_at_an_int64_position_it_cannot_bound"),
    pytest.param(torch.float16, torch.int32, id="in_float16_which_openvino_rounds_otherwise"),
])
def test_a_buffer_whose_mutation_is_handed_back_stays_in_executorch(runners, tmp_path, dtype, position_dtype):
    """OpenVINO would compute an int64 index in 32 bits, and float16 arithmetic through float32: such a write is
    handed back, and its buffer with it. (Initial zeros: ExecuTorch serializes a mutated buffer's shape only.)"""
    model_args = (dtype, INITIAL_VALUES["zeros"], position_dtype)
    inputs = calls(dtype, position_dtype)
    case = ad_hoc_case(CacheAndCounter(*model_args), inputs[0], "cache_written_outside")
    program, _ = lower_save_run(case, LOWERINGS["workaround"], runners["path"], tmp_path)
    assert "function.cache" in program.exported_program().graph_signature.buffers_to_mutate.values()
    path = next(tmp_path.glob("cache_written_outside.*.pte"))
    expected = [[output] for output in eager_outputs(model_args, inputs)]
    assert_calls_equal(runners, path, inputs, expected, tolerance=0)


class LongCache(torch.nn.Module):
    """A 2048-token cache of zeros, 4 MiB: a KV cache's shape at one layer of a 1B model's context."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("cache", torch.zeros(1, 8, 2048, 64))

    def forward(self, value, position):
        self.cache[:, :, position] = value
        return self.cache.sum(dim=(2, 3))


def test_a_cache_that_starts_at_zero_costs_nothing_in_the_blob(tmp_path):
    """An initializer, even one broadcast zero, is folded by OpenVINO into a constant of the cache's size."""
    inputs = (torch.ones(1, 8, 1, 64), torch.tensor([5], dtype=torch.int32))
    edge = lower(ad_hoc_case(LongCache(), inputs, "long_cache"), LOWERINGS["workaround"])
    assert dict(edge.exported_program().graph_signature.buffers_to_mutate) == {}
    assert len(edge.to_executorch().buffer) < (1 << 20), "the cache's zeros are in the program"


def two_methods_sharing_buffers(shared):
    """(the program's two methods, prefill and decode, lowered; the serialization config that does or does not
    share their mutable buffers)."""
    from executorch.exir import ExecutorchBackendConfig, to_edge_transform_and_lower
    from executorch.exir.backend.compile_spec_schema import CompileSpec
    from executorch.exir.passes import MemoryPlanningPass

    from workaround import CopySafeOpenvinoPartitioner

    model_args = (torch.float32, INITIAL_VALUES["zeros"], torch.int32)
    inputs = calls(torch.float32, torch.int32)[0]
    methods = {name: torch.export.export(CacheAndCounter(*model_args), inputs) for name in ("prefill", "decode")}
    edge = to_edge_transform_and_lower(methods, partitioner=[CopySafeOpenvinoPartitioner(
        [CompileSpec("device", b"CPU")])])
    return edge, ExecutorchBackendConfig(memory_planning_pass=MemoryPlanningPass(
        alloc_mutable_buffers=True, share_mutable_buffers=shared))


def test_methods_that_share_a_cache_owned_by_a_delegate_are_refused_in_one_line():
    """Each method's delegate would keep its own copy of the cache the methods are meant to share."""
    from workaround.partitioner.delegate.state import SharedStateError

    edge, config = two_methods_sharing_buffers(shared=True)
    with pytest.raises(SharedStateError) as refused:
        edge.to_executorch(config)
    assert "\n" not in str(refused.value)
    assert "keep cache, total as their own state" in str(refused.value)


def test_methods_with_their_own_caches_serialize():
    edge, config = two_methods_sharing_buffers(shared=False)
    assert edge.to_executorch(config).buffer
