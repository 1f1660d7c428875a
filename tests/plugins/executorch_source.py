"""``--executorch-source DIR`` (or $EXECUTORCH_SOURCE): the ExecuTorch checkout the gate builds the OpenVINO
runtime backend from, for the tests of our C++ patch. A pytest plugin (``pytest_plugins`` in the conftest).
"""

import pytest


def pytest_addoption(parser):
    parser.addoption("--executorch-source", metavar="DIR", default=None,
                     help="a checkout of pytorch/executorch (or set EXECUTORCH_SOURCE), given as "
                          "--executorch-source=DIR (pytest reads a separate DIR as a test path and the "
                          "checkout's pytest.ini as its configuration): the tests then build "
                          "ExecuTorch's OpenVINO runtime backend with and without our C++ patch and runs both")


def pytest_configure(config):
    """A folder that is not an ExecuTorch checkout is a one-line usage error before any test runs."""
    from repro.harness.lowering import executorch_patches

    try:
        config.executorch_source = executorch_patches.source_tree(config.getoption("--executorch-source"))
    except executorch_patches.PatchFailed as error:
        raise pytest.UsageError(str(error)) from None


@pytest.fixture(scope="session")
def executorch_source(request):
    """The ExecuTorch checkout to build the runtime backend from; skips, saying how to give one, without."""
    from repro.harness.lowering import executorch_patches

    if request.config.executorch_source is None:
        pytest.skip("needs an ExecuTorch checkout to build the runtime backend from: git clone "
                    "https://github.com/pytorch/executorch and run with --executorch-source DIR "
                    f"(or {executorch_patches.SOURCE_VARIABLE}=DIR)")
    return request.config.executorch_source
