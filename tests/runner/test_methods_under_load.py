"""A stateful LLM program of the workaround's (LFM2-class: a convolution state and KV caches, all inside the
delegate) under the loads a server puts on it (``repro.harness.runtime.methods_under_load``): methods used
interleaved and from four threads each keep their own state, and 300 loads by path give their memory back.
(``executorch.runtime``'s ``Program`` caches its methods: two methods are two programs loaded, as two sessions
hold them.)"""

import subprocess
import sys

import pytest

from tests.support.helpers import PROJECT, skip_module_without_executorch_path

skip_module_without_executorch_path()

import torch  # noqa: E402

from repro.harness.llm.pipeline import LlmCase  # noqa: E402
from repro.harness.llm.runs import EQUAL_WITHIN, exported, max_relative_difference  # noqa: E402

pytestmark = pytest.mark.executorch
RELOADS = 300
# Resident memory a load may leave behind, after the first third of the loads (allocators settle): measured -0.5
# KiB a load for the workaround's Llama program, 0.0 for XNNPACK's (600 loads each, 2026-12-07).
GROWTH_PER_LOAD_KIB = 4


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lfm2")
    record = exported(LlmCase.from_name("lfm2_350m-kv-static-none"), "workaround", folder)
    assert record.error is None, record.error
    assert record.buffers_outside == 0, "the states left the delegate: this test would not test them"
    return folder


def under_load(folder, way, count):
    """The child's record of ``way`` over ``count`` methods or loads, and the reference's outputs."""
    calls = folder / "reference.pt"
    subprocess.run([sys.executable, "-m", "repro.harness.runtime.methods_under_load", str(folder / "program.pte"),
                    str(calls), way, str(count)], check=True, cwd=PROJECT, capture_output=True, timeout=600)
    return torch.load(f"{calls}.out"), torch.load(calls)["outputs"]


@pytest.mark.parametrize(("way", "methods"), [("interleaved", 2), ("threads", 4)])
def test_each_method_keeps_its_own_state(program, way, methods):
    record, reference = under_load(program, way, methods)
    assert max_relative_difference([[output] for output in record["alone"][0]], reference) <= EQUAL_WITHIN
    for method, (together, alone) in enumerate(zip(record["together"], record["alone"], strict=True)):
        assert all(torch.equal(mine, its) for mine, its in zip(together, alone, strict=True)), \
            f"method {method}: run {way} beside others, it differs from itself run alone"


def test_hundreds_of_loads_give_their_memory_back_and_compute_the_same(program):
    record, reference = under_load(program, "reloads", RELOADS)
    first, last = record["together"]
    assert max_relative_difference([[output] for output in first], reference) <= EQUAL_WITHIN
    assert all(map(torch.equal, first, last)), "the last load computes otherwise than the first"
    resident = record["rss_kib"]
    settled = len(resident) // 3
    growth = (resident[-1] - resident[settled]) / (len(resident) - settled)
    assert growth <= GROWTH_PER_LOAD_KIB, f"{growth:.1f} KiB a load stays resident ({resident[settled]} -> " \
                                         f"{resident[-1]} KiB over {len(resident) - settled} loads)"
