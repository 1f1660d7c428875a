"""``python -m repro.harness.lowering.executorch_patches`` given a folder it cannot make, run as users run it: one
line and exit 2, nothing made (an unwritable or dangling-symlink DIR was a traceback and exit 1)."""

import pytest

from tests.support.bad_input import assert_one_line, digests
from tests.support.helpers import run_cli

pytest.importorskip("executorch")


@pytest.mark.parametrize(("folder", "says"), [
    ("{tmp}", "exists: give a new folder (nothing is overwritten)"),
    ("{tmp}/dangling", "exists: give a new folder (nothing is overwritten)"),
    ("{tmp}/file/overlay", "is not a folder"),
], ids=["existing", "dangling_symlink", "under_a_file"])
def test_overlay_into_a_folder_it_cannot_make_is_one_line(tmp_path, folder, says):
    (tmp_path / "file").write_text("a file")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    before = digests(tmp_path)
    result = run_cli("python", "-m", "repro.harness.lowering.executorch_patches", "overlay",
                     folder.format(tmp=tmp_path), timeout=300)
    assert_one_line(result, 2, says)
    assert digests(tmp_path) == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["dangling", "file"]
