"""Programs past the flatbuffer's 2 GiB, held small: the budgets lowered, so a few MiB of weights play a 5 GB LLM.

The workaround keeps OpenVINO blobs inline (the only place ExecuTorch 1.5.1 keeps them alive by path), and a
flatbuffer stops at 2 GiB. Past ``INLINE_BUDGET`` of constants the partitioner leaves the largest in ExecuTorch's
constant segment, as delegate inputs (``workaround.partitioner.rules.large_constants``); what still would not fit
is refused before serializing, in one line (``ProgramTooLargeError``). At real size (2.25 GiB, a Llama at 1B's
width): ``tox -e large``.
"""

import pytest

from tests.support.helpers import ad_hoc_case, lower_save_run, skip_module_without_executorch_path, tagged

skip_module_without_executorch_path()

import torch  # noqa: E402

from repro.harness.lowering.named import LOWERINGS  # noqa: E402
from repro.harness.runtime.program_runner import ProgramRunner  # noqa: E402
from workaround.checker.pte import reader  # noqa: E402
from workaround.partitioner.hooks import inline_blobs  # noqa: E402
from workaround.partitioner.rules import large_constants  # noqa: E402

pytestmark = pytest.mark.executorch
MIB = 1 << 20


class EmbedThenProject(torch.nn.Module):
    """An LLM's shape in small: an embedding table (read by rows), float weights, and an int8 one dequantized."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.embedding = torch.nn.Embedding(1024, 512)  # 2 MiB, read by rows
        self.wide = torch.nn.Linear(512, 1024)  # 2 MiB
        self.narrow = torch.nn.Linear(1024, 512)  # 2 MiB
        self.register_buffer("compressed", torch.randint(-128, 127, (512, 2048), dtype=torch.int8))  # 1 MiB
        self.register_buffer("small", torch.randn(64, 64))  # 16 KiB: never worth leaving out

    def forward(self, tokens):
        hidden = self.narrow(torch.relu(self.wide(self.embedding(tokens))))
        return (hidden @ (self.compressed.float() * 0.01))[..., :64] @ self.small


TOKENS = (torch.tensor([[3, 700, 5, 1023]]),)


def lifted_names(program):
    """The state-dict names of the constants kept out of the blobs."""
    signature = program.graph_signature
    names = {**signature.inputs_to_parameters, **signature.inputs_to_buffers}
    return {names[node.name].removeprefix("function.") for node in program.graph.nodes
            if large_constants.LIFTED_BECAUSE in node.meta}


@pytest.mark.parametrize(("budget", "kept", "compressed", "expected"), [
    pytest.param(8 * MIB, 256 << 10, 8 * MIB, set(), id="under_the_budget_nothing_leaves"),
    pytest.param(6 * MIB, 5.5 * MIB, 6 * MIB, {"embedding.weight"}, id="tables_read_by_rows_leave_first"),
    pytest.param(6 * MIB, 2 * MIB, 6 * MIB, {"embedding.weight", "wide.weight", "narrow.weight"},
                 id="then_float_weights_largest_first_down_to_what_is_kept"),
    pytest.param(MIB, 256 << 10, 2 * MIB, {"embedding.weight", "wide.weight", "narrow.weight"},
                 id="int8_weights_stay_while_under_their_own_budget"),
    pytest.param(MIB, 256 << 10, 512 << 10, {"embedding.weight", "wide.weight", "narrow.weight", "compressed"},
                 id="int8_weights_leave_only_while_over_their_own_budget"),
])
def test_constants_leave_the_blob_cheapest_first_only_past_the_budget(monkeypatch, budget, kept, compressed,
                                                                     expected):
    monkeypatch.setattr(large_constants, "INLINE_BUDGET", budget)
    monkeypatch.setattr(large_constants, "KEPT_WHEN_LIFTING", kept)
    monkeypatch.setattr(large_constants, "COMPRESSED_BUDGET", compressed)
    program, _ = tagged(EmbedThenProject(), TOKENS)
    assert lifted_names(program) == expected
    for node in program.graph.nodes:
        if large_constants.LIFTED_BECAUSE in node.meta:
            assert large_constants.TAG not in node.meta, f"{node.name} is still tagged into a partition"


def test_a_program_past_the_budget_runs_by_path_equal_to_eager_with_its_weights_in_the_constant_segment(
        monkeypatch, tmp_path):
    monkeypatch.setattr(large_constants, "INLINE_BUDGET", 2 * MIB)
    monkeypatch.setattr(large_constants, "KEPT_WHEN_LIFTING", 256 << 10)
    case = ad_hoc_case(EmbedThenProject(), TOKENS, "embed_then_project")
    with ProgramRunner("path") as runner:
        program, run = lower_save_run(case, LOWERINGS["workaround"], runner, tmp_path)
    contents = reader.read(program.buffer)
    assert [delegate.in_segment for delegate in contents.delegates] == [False], "the blob must stay inline"
    # Left in the blob: the int8 weight (under COMPRESSED_BUDGET, which stays at 1.5 GiB) and the small one.
    assert sum(len(delegate.blob) for delegate in contents.delegates) < 1.5 * MIB, "float weights left in the blob"
    assert contents.constants.segment_bytes >= 6 * MIB, "the float weights should be in the constant segment"
    assert run.status == "ok", run.detail
    with torch.no_grad():
        expected = case.module()(*case.inputs())
    difference = float((run.outputs[0] - expected).abs().max() / expected.abs().max())
    assert difference <= 1e-5, f"max difference {difference:.2e} of max |eager| (f32 sums reordered: ~1e-6)"


def test_blobs_past_the_flatbuffer_limit_are_refused_in_one_line_before_serializing(monkeypatch, tmp_path):
    from repro.harness.lowering.to_edge import lower

    edge = lower(ad_hoc_case(EmbedThenProject(), TOKENS, "embed_then_project"), LOWERINGS["workaround"])
    size = inline_blobs.openvino_blob_bytes(edge)
    monkeypatch.setattr(inline_blobs, "INLINE_LIMIT", size - 1)
    with pytest.raises(inline_blobs.ProgramTooLargeError) as refused:
        edge.to_executorch()
    message = str(refused.value)
    assert "\n" not in message
    for part in (f"take {size} bytes", f"over the {size - 1} bytes", "2 GiB",
                 "python -m repro.harness.lowering.executorch_patches build"):
        assert part in message, f"the refusal should say {part!r}: {message}"
