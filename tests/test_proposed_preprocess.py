"""The change proposed to ExecuTorch's backends/openvino/preprocess.py, applied as upstream would.

The diff (``repro/reports/proposed_preprocess.py``) is applied with ``git apply`` to a copy of the installed
file, the copy is imported, and its preprocess compiles the catalogue's channels-last cases for the
*stock* partitioner: every one equals eager PyTorch in the real runtime.
"""

import importlib.util
import subprocess

import pytest

from tests.helpers import skip_module_without_executorch_path
from tests.outcomes import assert_equals_eager

skip_module_without_executorch_path()

from executorch.backends.openvino.preprocess import OpenvinoBackend  # noqa: E402

from repro.harness import catalogue  # noqa: E402
from repro.harness.case_runs import run_case  # noqa: E402
from repro.harness.lowerings import STOCK  # noqa: E402
from repro.reports.proposed_preprocess import UPSTREAM_PATH, installed_preprocess, proposed_diff  # noqa: E402

pytestmark = pytest.mark.executorch
# With dim order off ExecuTorch cannot hold the channels-last output at all: nothing to propose there.
CASES = [case.name for case in catalogue.DIM_ORDER_CASES if not case.skip_dim_order]


def upstream_copy(folder):
    """``folder`` with a copy of the installed preprocess.py at its upstream path, and the diff beside it."""
    target = folder / UPSTREAM_PATH
    target.parent.mkdir(parents=True)
    target.write_text(installed_preprocess().read_text())
    (folder / "proposal.diff").write_text(proposed_diff())
    return folder


@pytest.fixture(scope="module")
def proposed_preprocess(tmp_path_factory):
    """OpenvinoBackend.preprocess replaced by the patched file's, for this module's tests."""
    folder = upstream_copy(tmp_path_factory.mktemp("executorch"))
    subprocess.run(["git", "apply", "proposal.diff"], cwd=folder, check=True, capture_output=True)
    spec = importlib.util.spec_from_file_location("proposed_openvino_preprocess", folder / UPSTREAM_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    current = OpenvinoBackend.preprocess.__func__
    OpenvinoBackend.preprocess = classmethod(module.OpenvinoBackend.preprocess.__func__)
    yield
    OpenvinoBackend.preprocess = classmethod(current)


def test_the_diff_applies_cleanly_to_the_installed_file(tmp_path):
    result = subprocess.run(["git", "apply", "--check", "proposal.diff"], cwd=upstream_copy(tmp_path),
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("case", CASES)
def test_stock_partitioner_with_the_proposed_preprocess_equals_eager(proposed_preprocess, runners, tmp_path, case):
    """Its own folder: the session's pte_dir holds the stock programs other tests check."""
    record = run_case(catalogue.CASES[case], STOCK, {"bytes": runners["bytes"]}, tmp_path)
    assert_equals_eager(record)
