"""``openvino-pte-restamp`` rewrites an inline blob where it was: no dead copy, whatever the blob's size.

The stamp's text differs in length between CPU classes, so a restamped inline blob grows or shrinks. Appending the
grown blob and leaving the old one unread (what the restamper did first) left a dead copy as large as the blob, up
to 2 GiB in a program of that size. Now what follows the blob moves and every offset crossing the move follows it
(``workaround.checker.restamping``): the file changes by the text's change, rounded to the program's alignment.
The tracked programs (one inline blob each) are rewritten torch-free for every class; a program with two inline
blobs, the first moving the second, is rewritten there and back and run in the real runtime against eager.
"""

import pytest

from tests.support.helpers import TRACKED_PROGRAMS, ad_hoc_case, stamp_of
from workaround.checker import compatibility_stamp, restamping
from workaround.checker.pte import program_schema, reader

INLINE_PROGRAMS = [path for path in TRACKED_PROGRAMS if not reader.read(path.read_bytes()).delegates[0].in_segment]
ALIGNMENT = restamping.INLINE_ALIGNMENT  # the tracked programs' data is aligned to 16, as program.fbs asks


def for_class(cpu_class):
    return lambda stamp: compatibility_stamp.text_for_class(cpu_class, stamp)


@pytest.mark.parametrize("cpu_class", compatibility_stamp.ISA_OF_CLASS)
@pytest.mark.parametrize("path", INLINE_PROGRAMS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_an_inline_blob_is_rewritten_where_it_was_leaving_no_copy_of_the_old_one(path, cpu_class):
    original = path.read_bytes()
    [old_blob] = [delegate.blob for delegate in reader.read(original).delegates]
    rewritten, [change] = restamping.restamp(original, for_class(cpu_class))
    [new_blob] = [delegate.blob for delegate in reader.read(rewritten).delegates]
    assert compatibility_stamp.read(new_blob).text == change.new
    grown, longer = len(rewritten) - len(original), len(change.new) - len(change.old)
    assert grown % ALIGNMENT == 0, (grown, longer)
    assert abs(grown) < abs(longer) + ALIGNMENT, (grown, longer)
    if change.new != change.old:
        assert old_blob not in rewritten, "the old blob is still in the file, unread"


@pytest.mark.parametrize("path", INLINE_PROGRAMS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_program_restamped_there_and_back_is_its_own_bytes_again(path):
    original = path.read_bytes()
    own = stamp_of(path).cpu_class
    for there in set(compatibility_stamp.ISA_OF_CLASS) - {own}:
        back, _ = restamping.restamp(restamping.restamp(original, for_class(there))[0], for_class(own))
        assert back == original, f"there ({there}) and back, {len(back) - len(original)} bytes longer"


def test_a_program_with_fields_the_schema_does_not_name_is_refused_rather_than_moved_blind(monkeypatch):
    """An offset the walk does not know of would not follow the move: a newer schema's field, simulated here by
    forgetting one the tracked programs hold (a delegate's compile specs)."""
    path = next(path for path in INLINE_PROGRAMS if stamp_of(path).cpu_class == "avx2")
    monkeypatch.setitem(program_schema.TABLES, "BackendDelegate", ("str", "BackendDelegateDataReference"))
    with pytest.raises(restamping.CannotRestamp, match=r"fields ExecuTorch 1\.5\.1's schema does not name"):
        restamping.restamp(path.read_bytes(), for_class("avx512_bf16"))


def test_the_restamp_command_refuses_such_a_program_in_one_line_and_writes_nothing(monkeypatch, tmp_path):
    from workaround.checker.restamp_command import EXIT_REFUSED, restamp_file

    path = next(path for path in INLINE_PROGRAMS if stamp_of(path).cpu_class == "avx2")
    monkeypatch.setitem(program_schema.TABLES, "BackendDelegate", ("str", "BackendDelegateDataReference"))
    report = restamp_file(path, tmp_path / "out.pte", "avx512_bf16", force=False)
    assert report.code == EXIT_REFUSED
    [line] = report.problems
    assert line.startswith(f"openvino-pte-restamp: {path}: refused: the program has fields"), line
    assert line.endswith("; nothing written")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.executorch
@pytest.mark.parametrize("load", ["bytes", "path"])
def test_two_inline_blobs_restamped_there_and_back_run_equal_to_eager(runners, tmp_path, load):
    """The first blob's move shifts the second, its delegate's table and every offset into them; a float64 step
    in the middle is handed back, so the workaround lowers two OpenVINO delegates."""
    import torch

    from repro.harness.cases.runs import eager_outputs, load_outcome, tensor_dim_order
    from repro.harness.lowering.named import as_lowering
    from repro.harness.lowering.to_edge import lower

    case = ad_hoc_case(lambda x: (x.sin().double() * 3).float().cos(), (torch.randn(4, 8),), "two_blobs")
    original = lower(case, as_lowering("workaround")).to_executorch().buffer
    delegates = reader.read(original).delegates
    assert [delegate.in_segment for delegate in delegates] == [False, False]
    own = compatibility_stamp.read(delegates[0].blob).cpu_class
    program = original
    for there in (*(set(compatibility_stamp.ISA_OF_CLASS) - {own}), own):
        program, changes = restamping.restamp(program, for_class(there))
        assert len(changes) == 2
    assert program == original
    path = tmp_path / "two_blobs.pte"
    path.write_bytes(program)
    inputs = case.inputs()
    expected = eager_outputs(case, inputs)
    found = load_outcome(case, runners[load].run(path, inputs), inputs, expected,
                         [tensor_dim_order(tensor) for tensor in expected])
    assert found["outcome"] == "correct", found
