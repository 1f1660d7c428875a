"""``install()``, ``uninstall()`` and ``copy_safe_openvino()`` leave the process as they say: the block restores
exactly what was installed before it, the compile specs ``install()`` was given included, nested or interleaved
with ``install()`` calls. (That the installed rules fix unchanged scripts is held end to end in
``test_workaround_end_to_end``.)"""

import pytest

from tests.support.helpers import skip_module_without_executorch_path

skip_module_without_executorch_path()

from executorch.exir.backend.compile_spec_schema import CompileSpec  # noqa: E402

from workaround import copy_safe_openvino, install, is_installed, uninstall  # noqa: E402
from workaround.partitioner.copy_safe_partitioner import installed_compile_specs, installed_patches  # noqa: E402

pytestmark = pytest.mark.executorch
QUANTIZING = CompileSpec("DYNAMIC_QUANTIZATION_GROUP_SIZE", b"32")
EXACT = CompileSpec("DYNAMIC_QUANTIZATION_GROUP_SIZE", b"0")


@pytest.fixture(autouse=True)
def stock_before_and_after():
    uninstall()
    yield
    uninstall()


def state():
    return [patch.applied() for patch in installed_patches()], installed_compile_specs()


def test_a_block_inside_an_install_keeps_its_compile_specs_and_gives_them_back():
    install(compile_specs=[QUANTIZING])
    before = state()
    with copy_safe_openvino():
        assert installed_compile_specs() == (QUANTIZING,)
    assert state() == before
    assert is_installed()


def test_nested_blocks_restore_each_level():
    with copy_safe_openvino(compile_specs=[QUANTIZING]):
        outer = state()
        with copy_safe_openvino(compile_specs=[EXACT]):
            assert installed_compile_specs() == (EXACT,)
        assert state() == outer
    assert not is_installed()
    assert installed_compile_specs() == ()
    assert not any(state()[0])


def test_an_install_inside_a_block_is_undone_with_the_block():
    with copy_safe_openvino():
        install(compile_specs=[QUANTIZING])
    assert not is_installed()
    assert installed_compile_specs() == ()


def test_a_block_left_by_an_exception_restores_too():
    install(compile_specs=[EXACT])
    before = state()
    with pytest.raises(RuntimeError), copy_safe_openvino(compile_specs=[QUANTIZING]):
        raise RuntimeError("the export script failed")
    assert state() == before


def test_uninstall_forgets_the_compile_specs_and_restores_every_patch():
    install(compile_specs=[QUANTIZING])
    uninstall()
    assert state() == ([False] * len(installed_patches()), ())
