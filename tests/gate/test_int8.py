"""INT8 models quantized with ExecuTorch's documented flow (``OpenVINOQuantizer``), lowered stock and with the
workaround, loaded from bytes and by path, each held to plain OpenVINO's result for the same quantized graph
(``repro.harness.models.int8``: the fake-quant eager model differs from any real INT8 run by the CPU's
rounding)."""

import functools

import numpy as np
import pytest

from tests.support.helpers import ad_hoc_case, skip_module_without_executorch_path
from tests.support.outcomes import UPSTREAM_CHANGED

skip_module_without_executorch_path()
pytestmark = pytest.mark.executorch

from repro.harness.lowering import to_edge  # noqa: E402
from repro.harness.lowering.named import STOCK, WORKAROUND  # noqa: E402
from repro.harness.models import int8  # noqa: E402

# What the stock partitioner does with each (measured with executorch 1.5.1, OpenVINO 2026.4.1): the copy is
# stale and the input it shares is overwritten, so the convolutions read it too; the channels-last input is read
# as contiguous; the MLP has neither.
STOCK_WRONG = {"int8_cnn_returning_input_copy": True, "int8_channels_last_cnn": True, "int8_mlp": False}


@functools.cache
def model(name):
    module, inputs = int8.quantized(name)
    return module, inputs, int8.openvino_reference(module, inputs)


@functools.cache
def program(name, lowered_with, folder):
    module, inputs, _ = model(name)
    case = ad_hoc_case(module.forward, inputs, name)  # not the module itself: exported models refuse eval()
    path = folder / f"{name}.{lowered_with.name}.pte"
    path.write_bytes(to_edge.lower(case, lowered_with).to_executorch().buffer)
    return path


def differences(run, reference):
    assert run.status == "ok", run
    return [float(np.abs(actual.contiguous().numpy() - expected).max())
            for actual, expected in zip(run.outputs, reference, strict=True)]


@pytest.mark.parametrize("load", ["bytes", "path"])
@pytest.mark.parametrize("name", list(int8.MODELS))
def test_workaround_equals_plain_openvino_on_the_same_int8_graph(runners, pte_dir, name, load):
    _, inputs, reference = model(name)
    run = runners[load].run(program(name, WORKAROUND, pte_dir), [tensor.clone() for tensor in inputs])
    assert max(differences(run, reference)) <= int8.REFERENCE_ATOL, differences(run, reference)


@pytest.mark.parametrize("name", list(int8.MODELS))
def test_stock_partitioner_is_wrong_where_the_release_table_says(runners, pte_dir, name):
    _, inputs, reference = model(name)
    run = runners["bytes"].run(program(name, STOCK, pte_dir), [tensor.clone() for tensor in inputs])
    wrong = max(differences(run, reference)) > int8.REFERENCE_ATOL
    assert wrong == STOCK_WRONG[name], f"{name}: {differences(run, reference)}. {UPSTREAM_CHANGED}"
