"""The compatibility header OpenVINO 2026.4 writes at the start of every blob, read and rewritten torch-free
(``workaround/checker/compatibility_stamp.py``), on the tracked programs of both hosts."""

import pytest

from tests.support.helpers import PROJECT
from workaround.checker import compatibility_stamp
from workaround.checker.pte import reader

DATA = PROJECT / "tests" / "data"
BF16_HOST = "Intel AVX-512 with Intel DL Boost and bfloat16 support"


def blob_of(path):
    [delegate] = reader.delegates(path.read_bytes())
    return delegate.blob


@pytest.mark.parametrize(("program", "isa", "cpu_class"), [
    (DATA / "stock_upstream_clone_sin.pte", BF16_HOST, "avx512_bf16"),
    (DATA / "workaround_upstream_clone_sin.pte", BF16_HOST, "avx512_bf16"),
    (DATA / "avx2-host" / "upstream_clone_sin.stock.pte", "Intel AVX2", "avx2"),
    (DATA / "avx2-host" / "conv_channels_last_input.workaround.pte", "Intel AVX2", "avx2"),
], ids=lambda value: getattr(value, "name", None))
def test_a_tracked_blob_names_the_release_and_the_class_that_exported_it(program, isa, cpu_class):
    stamp = compatibility_stamp.read(blob_of(program))
    assert (stamp.version, stamp.release, stamp.isa, stamp.cpu_class) == (1, "2026.4.1", isa, cpu_class)
    assert stamp.text == f"meta=1.0;ov=2026.4.1;isa={isa}"


@pytest.mark.parametrize(("isa", "cpu_class"), [
    ("Intel AVX-512 with AVX512BW, AVX512VL, and AVX512DQ extensions", "avx512"),
    ("Intel AVX-512 with Intel DL Boost", "avx512"),
    ("Intel AVX-512 with Intel AMX", "avx512_bf16"),
    ("Intel AVX2 with Intel DL Boost", "avx2"),
    ("Intel SSE4.1", None),
])
def test_the_class_is_read_from_onednns_isa_name(isa, cpu_class):
    assert compatibility_stamp.Stamp(1, f"meta=1.0;ov=2026.4.1;isa={isa}", 0).cpu_class == cpu_class


def test_rewriting_the_text_keeps_the_ir_and_updates_the_length():
    blob = blob_of(DATA / "avx2-host" / "upstream_clone_sin.workaround.pte")
    old = compatibility_stamp.read(blob)
    new_text = f"meta=1.0;ov=2026.4.1;isa={BF16_HOST}"
    rewritten = compatibility_stamp.with_text(blob, new_text)
    stamp = compatibility_stamp.read(rewritten)
    assert (stamp.text, stamp.isa) == (new_text, BF16_HOST)
    assert rewritten[stamp.size:] == blob[old.size:]
    assert compatibility_stamp.with_text(rewritten, old.text) == blob


CUT_SHORT = b"RR_UPCVO" + (1).to_bytes(4, "little") + (255).to_bytes(8, "little") + b"meta"


@pytest.mark.parametrize("blob", [b"", b"RR_UPCVO", b"<?xml version", CUT_SHORT],
                         ids=["empty", "magic_only", "no_header", "length_beyond_the_blob"])
def test_a_blob_without_a_whole_header_has_no_stamp(blob):
    assert compatibility_stamp.read(blob) is None
    with pytest.raises(ValueError, match="no compatibility header"):
        compatibility_stamp.with_text(blob, "meta=1.0")
