"""The checker as a model owner's script runs it (``openvino-pte-check model.pte || block_release``) on what a
hostile world hands it: files cut short or corrupted, special files, huge or deeply nested IRs, a full disk, a
closed pipe, an unencodable name, Ctrl-C, a bug of its own. Each case runs the command in a child process and
holds it to its contract: the exit code, one line on stderr naming the problem, never a traceback, and every file
as it was (hashes before and after)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bad_input import assert_one_line, digests
from tests.support.checker_fuzz import SAMPLES, flipped, truncated, with_blob
from tests.support.helpers import PROJECT, run_cli
from workaround.contract import differences
from workaround.contract.finding_kinds import FindingKind

STOCK, WORKAROUND = SAMPLES
CHECK = ("python", "-m", "workaround.check")
# The stock sample's layout (tests/data/stock_upstream_clone_sin.pte): a 1200-byte flatbuffer, its one segment
# (the OpenVINO blob, 2161 bytes) from byte 1280 to the end.
SEGMENT_BASE, SEGMENT_SIZE = 1280, 2161


def written(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def stock_with(changes: dict[int, bytes]) -> bytes:
    data = bytearray(STOCK.read_bytes())
    for at, new in changes.items():
        data[at:at + len(new)] = new
    return bytes(data)


def segment_size_beyond_the_file() -> bytes:
    data = STOCK.read_bytes()
    size = SEGMENT_SIZE.to_bytes(8, "little")
    at = data.index(size, 40)  # the DataSegment's size in the flatbuffer (the header's is at byte 32)
    return stock_with({at: (SEGMENT_SIZE + 1).to_bytes(8, "little")})


def dim_order_out_of_range() -> bytes:
    data = STOCK.read_bytes()
    at = data.index(bytes([2, 0, 0, 0, 0, 1]))  # a dim order vector: length 2, then [0, 1]
    return stock_with({at + 5: bytes([7])})


# (id, the file's bytes, the exit code, what the one stderr line says)
BAD_FILES = [
    ("empty", b"", "the identifier is 'nothing (the file is shorter)'"),
    ("seven_bytes", b"\x00ET12\x00\x00", "the identifier is 'nothing (the file is shorter)'"),
    ("text", b"hello, this is not a program\n", "not an ExecuTorch program: the identifier is 'o, t'"),
    ("stock_cut_inside_its_program", truncated(STOCK, 1100).data,
     "byte 16: the extended header claims a 1200-byte program in a 1100-byte file"),
    ("stock_cut_at_its_segment", truncated(STOCK, SEGMENT_BASE).data,
     f"claims {SEGMENT_SIZE} bytes of segments from byte {SEGMENT_BASE}: the file ends at {SEGMENT_BASE}"),
    ("stock_one_byte_short", truncated(STOCK, SEGMENT_BASE + SEGMENT_SIZE - 1).data,
     f"the file ends at {SEGMENT_BASE + SEGMENT_SIZE - 1}"),
    ("workaround_cut_84_bytes_short", truncated(WORKAROUND, 3100).data,
     "runs past the program's end (byte 3100)"),  # it has no extended header: the whole file is the program
    ("segment_base_beyond_the_file", stock_with({24: (9999).to_bytes(8, "little")}),
     "byte 24: the extended header puts segments at byte 9999, outside the 3441-byte file"),
    ("segment_size_beyond_the_file", segment_size_beyond_the_file(),
     f"segment 1 (delegate 0's data) claims {SEGMENT_SIZE + 1} bytes from byte {SEGMENT_BASE}"),
    ("backend_id_pointer_into_the_blob", flipped(STOCK, 366).data, "not a readable .pte: byte "),
    ("delegate_table_flipped", flipped(STOCK, 160).data, "not a readable .pte: byte "),
    ("dim_order_out_of_range", dim_order_out_of_range(),
     "has dim order [0, 7], which is not an order of its 2 dims"),
    # Flips of the workaround sample the runtime refuses at load_method (or aborts on), found by the fuzz:
    ("planned_beyond_its_buffer", flipped(WORKAROUND, 2594).data, "of planned memory 1, ends beyond its 64 bytes"),
    ("planned_in_no_memory", flipped(WORKAROUND, 2684).data,
     "value 0 is planned in memory 254: the method plans 1"),
    ("planned_buffer_of_a_terabyte", flipped(WORKAROUND, 2012).data,
     "planned buffer 1 claims 1095216660544 bytes"),
    ("unknown_scalar_type", flipped(WORKAROUND, 2554).data, "value 1 is a tensor of unknown scalar type 112"),
    ("negative_sizes", flipped(WORKAROUND, 2703).data, "value 0 is a tensor of negative sizes [-16777214, 3]"),
    ("unknown_instruction", flipped(WORKAROUND, 2231).data, "instruction 1 of a chain is of unknown kind 253"),
    ("device_not_a_name", flipped(WORKAROUND, 2068).data, "compiled for device '\\xbcPU', which is not a device"),
    ("method_name_not_text", flipped(WORKAROUND, 3176).data, "a method's name is not text"),
]


@pytest.mark.parametrize(("data", "says"), [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_an_inconsistent_file_is_unreadable_in_one_line_and_never_judged(tmp_path, data, says):
    path = written(tmp_path, "model.pte", data)
    before = digests(tmp_path, *SAMPLES)
    result = run_cli(*CHECK, path, timeout=120)
    line = assert_one_line(result, 2, says)
    assert line.startswith(f"{path}: not a readable .pte: ")
    assert result.stdout == ""
    assert digests(tmp_path, *SAMPLES) == before


@pytest.mark.parametrize(("make", "says"), [
    (lambda folder: folder / "missing.pte", "No such file or directory"),
    (lambda folder: folder, "not a regular file but a directory"),
    (lambda _: Path("/dev/zero"), "not a regular file but a character device"),
    (lambda folder: os.mkfifo(folder / "fifo.pte") or folder / "fifo.pte", "not a regular file but a FIFO"),
], ids=["missing", "directory", "dev_zero", "fifo"])
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path, make, says):
    """/dev/zero used to be read until memory ran out, a FIFO to block for ever."""
    path = make(tmp_path)
    started = time.monotonic()
    result = run_cli(*CHECK, path, timeout=60)
    assert time.monotonic() - started < 5, "refused before reading (the child's start-up included)"
    assert result.returncode == 2
    assert result.stderr.splitlines() == [f"{path}: not a readable .pte: {says}"]


@pytest.mark.parametrize(("position", "says"), [
    # A byte of the blob's compatibility stamp: OpenVINO 2026.4 refuses it as stamped for another CPU (so does the
    # runtime, 0x1), and the checker, importing the body with this host's stamp, says so; another release cannot
    # open the blob at all.
    (1359, ["imports a blob only on the CPU class it was stamped for", "cannot open delegate 0's compiled model"]),
    # A name in its IR: OpenVINO 2026.4.1 imports it (so does the runtime), its names are not text; another
    # release cannot open the blob at all.
    (1959, ["opens delegate 0's compiled model but its names are not text", "cannot open delegate 0's compiled"]),
])
def test_a_corrupted_blob_is_never_a_traceback(tmp_path, position, says):
    """Flips that OpenVINO's import, or the imported model's names, failed on with UnicodeDecodeError (a
    traceback, exit 1). The blob is reported as not opened, or as stamped for another CPU, and the metadata's
    finding stands (the blob is in a segment): affected."""
    result = run_cli(*CHECK, written(tmp_path, "model.pte", flipped(STOCK, position).data), timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert any(text in result.stdout for text in says), result.stdout


def avg_pool_ir(pads_begin: str) -> bytes:
    """A CPU blob's IR (unobfuscated: the checker reads that too) with an AvgPool whose pads_begin is given."""
    from tests.gate.test_exported_model import avg_pool_blob
    from workaround.checker.blob_model import ir_chunks

    ir = b"".join(ir_chunks(avg_pool_blob("ceil", [1, 1])))
    assert ir.count(b'pads_begin="1, 1"') == 1
    return ir.replace(b'pads_begin="1, 1"', f'pads_begin="{pads_begin}"'.encode())


@pytest.mark.parametrize(("ir", "says"), [
    (lambda: avg_pool_ir("1, x"), "pads_begin='1, x', not numbers"),
    (lambda: b'<?xml version="1.0"?>\n<net name="deep">' + b"<a>" * 1_000_000 + b"</net>",
     "nests deeper than 256"),
    (lambda: b'<?xml version="1.0"?>\n<net name="cut"><layers><layer id="0" type="Const">', "never ends"),
    (lambda: b'<?xml version="1.0"?>\n<net name="bad"><layers></net>', "does not parse (mismatched tag"),
], ids=["non_numeric_pads", "nested_a_million_deep", "never_ends", "does_not_parse"])
def test_a_blob_whose_ir_is_corrupted_is_unreadable_naming_it(tmp_path, ir, says):
    result = run_cli(*CHECK, written(tmp_path, "model.pte", with_blob(b"weights" + ir())), timeout=120)
    assert "OpenVINO delegate 0: " in assert_one_line(result, 2, says)


# Runs a command and prints its exit code and peak memory: a child's peak counts what it had before its exec,
# so the command is started from this small process, not from the test's (pytest with torch: ~500 MB).
MEASURED = ("import resource, subprocess, sys\n"
            "code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)"
            ".returncode\n"
            "print(code, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)\n")


def test_an_ir_byte_that_is_not_utf8_is_read_as_openvino_reads_it(tmp_path):
    """OpenVINO's XML reader takes such a byte without a word (the runtime loads a blob whose IR has one:
    1,484 of the fuzz's flips), so the checker reads on rather than calling the file unreadable."""
    ir = avg_pool_ir("1, 1").replace(b'pads_begin="1, 1"', b'pads_begin="1, 1" name="\xff"', 1)
    result = run_cli(*CHECK, written(tmp_path, "model.pte", with_blob(b"weights" + ir)), timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    assert differences.described(FindingKind.AVG_POOL_CEIL_WINDOW_DIVISOR) in result.stdout, "the IR was read"


def peak_memory_of(command: list[str]) -> tuple[int, int]:
    """(exit code, peak resident memory in bytes) of a command."""
    code, peak = run_cli("python", "-c", MEASURED, *command, timeout=300).stdout.split()
    return int(code), int(peak)


def big_ir(megabytes: int) -> bytes:
    layer = ('<layer id="{0}" name="c{0}" type="Const" version="opset1"><data element_type="f32" shape="1" '
             'offset="0" size="4"/><rt_info><attribute name="fused_names" version="0" '
             'value="c{0}/aten.neg.default/Neg"/></rt_info><output><port id="0" precision="FP32"><dim>1</dim>'
             '</port></output></layer>\n')
    count = megabytes * 1_000_000 // len(layer.format(0))
    return (b'<?xml version="1.0"?>\n<net name="big" version="11">\n<layers>\n'
            + "".join(layer.format(index) for index in range(count)).encode() + b"</layers>\n<edges/>\n</net>\n")


def test_a_40_mb_ir_is_read_in_bounded_memory(tmp_path):
    """The whole tree parsed at once took 1.5 GB for a 40 MB IR; streamed, the checker's peak stays under 300 MB
    (docs/measurements.md: 168 MB for 47 MB)."""
    path = written(tmp_path, "big.pte", with_blob(b"weights" + big_ir(40)))
    code, peak = peak_memory_of([sys.executable, "-m", "workaround.check", str(path)])
    assert code == 1, "checked: the blob in a segment is its finding"
    assert peak < 300 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_a_full_disk_is_one_line_and_no_verdict():
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "workaround.check", str(STOCK)], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd=PROJECT, timeout=120, check=False)
    assert result.returncode == 3
    assert result.stderr.splitlines() == ["openvino-pte-check: cannot write the report: No space left on device"]


def test_a_closed_pipe_is_silent_and_exits_141():
    """``openvino-pte-check model.pte | head -c 10``: the reader went away; nothing to tell it."""
    child = subprocess.Popen([sys.executable, "-m", "workaround.check", str(STOCK)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=PROJECT)
    child.stdout.close()
    assert child.wait(timeout=120) == 141
    assert child.stderr.read() == b""


def test_a_name_no_encoding_can_show_is_escaped(tmp_path):
    path = tmp_path / os.fsdecode(b"mod\xe8le.pte")
    path.write_bytes(STOCK.read_bytes())
    result = run_cli(*CHECK, path, env={**os.environ, "PYTHONIOENCODING": "utf-8"}, timeout=120)
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.splitlines()[-1].startswith(f"{tmp_path}/mod\\udce8le.pte: 1 OpenVINO delegate(s), ")


# The checker on argv[1], exec'd (same process) with SIGINT's default disposition, which an exec keeps.
AT_A_TERMINAL = ("import os, signal, sys\n"
                 "signal.signal(signal.SIGINT, signal.SIG_DFL)\n"
                 "os.execv(sys.executable, [sys.executable, '-m', 'workaround.check', sys.argv[1]])\n")


def has_open_or_mapped(pid, path):
    """Whether process ``pid`` has ``path`` open or mapped: the checker maps a program and closes its descriptor
    at once (``workaround.checker.pte.file``), so a poll of the descriptors alone can miss it. A descriptor or a
    process gone while it is looked at is not the file open."""
    try:
        return (any(line.endswith(f" {path}") for line in Path(f"/proc/{pid}/maps").read_text().splitlines())
                or any(os.path.realpath(link) == str(path) for link in Path(f"/proc/{pid}/fd").iterdir()))
    except FileNotFoundError:
        return False


def interrupted_check(path):
    """(exit code, stdout, stderr) of the checker on ``path``, sent Ctrl-C as soon as it has the file open. The
    child gets SIGINT's default disposition, as at a terminal: a run started in the background (``cmd &``) ignores
    SIGINT, children inherit that, and Python then installs no handler (the test failed so, every check ending
    with its verdict)."""
    child = subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, str(path)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, cwd=PROJECT)
    deadline = time.monotonic() + 60
    while not has_open_or_mapped(child.pid, path):
        assert time.monotonic() < deadline, "the checker never opened the file"
        if child.poll() is not None:  # it mapped and read the file between two looks: its verdict, not a Ctrl-C
            out, err = child.communicate(timeout=60)
            return child.returncode, out, err
        time.sleep(0.01)
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    return child.returncode, out, err


def test_ctrl_c_is_one_line_and_exit_130(tmp_path):
    """On an idle machine the check of a 20 MB IR can end before the signal lands (a verdict, exit 1, seen in a
    fresh-clone CI run): then it is tried on a larger one. A verdict is never wrong here; a traceback is."""
    for megabytes in (20, 80, 200):
        code, out, err = interrupted_check(written(tmp_path, f"big{megabytes}.pte",
                                                   with_blob(b"weights" + big_ir(megabytes))))
        assert "Traceback" not in err, err
        if code == 130:
            assert (out, err.splitlines()) == ("", ["openvino-pte-check: interrupted"])
            return
        assert code in (0, 1, 2), (code, err)
    pytest.fail("the checker finished every check before Ctrl-C landed: it was never interrupted")


@pytest.mark.parametrize(("arguments", "says"), [
    ([], "the following arguments are required: pte"),
    ([STOCK, "--frobnicate"], "unrecognized arguments: --frobnicate"),
    ([STOCK, STOCK], "unrecognized arguments: "),
    ([STOCK, "--runtime-operators", "/nonexistent/ops.txt"], "/nonexistent/ops.txt: not a text file of operator"),
    ([STOCK, "--runtime-operators", "/dev/null"], "/dev/null: not a text file of operator names (not a regular"),
    ([STOCK, "--runtime-operators", "{bad}"], "'aten sort' is not an operator name (namespace::name.overload)"),
    ([STOCK, "--runtime-operators", "{empty}"], "names no operator"),
])
def test_a_usage_error_is_one_line_and_exit_2(tmp_path, arguments, says):
    files = {"{bad}": written(tmp_path, "bad.txt", b"aten::add.out\naten sort\n"),
             "{empty}": written(tmp_path, "empty.txt", b"# nothing\n\n")}
    result = run_cli(*CHECK, *[files.get(argument, argument) for argument in arguments], timeout=120)
    assert assert_one_line(result, 2, says).startswith("openvino-pte-check: error: ")


@pytest.mark.executorch
def test_an_operator_the_named_runtime_lacks_is_a_finding(tmp_path, samples_made_here):
    """The workaround's sample makes its copy with ExecuTorch's _clone_dim_order kernel: a runtime without it
    cannot load the program; one with it can (the sample lowered here, whose blob this host opens)."""
    from workaround.checker.pte import reader

    workaround = samples_made_here[1]
    assert reader.read(workaround.read_bytes()).operators == ["dim_order_ops::_clone_dim_order.out"]
    without = written(tmp_path, "without.txt", b"# a runtime without the copy\naten::add.out\n")
    result = run_cli(*CHECK, workaround, "--runtime-operators", without, "--json", timeout=120)
    assert result.returncode == 1, result.stderr
    assert '"operator_missing"' in result.stdout
    assert "dim_order_ops::_clone_dim_order.out" in result.stdout
    with_it = written(tmp_path, "with.txt", b"aten::add.out\ndim_order_ops::_clone_dim_order.out  # the copy\n")
    assert run_cli(*CHECK, workaround, "--runtime-operators", with_it, timeout=120).returncode == 0


# The checker with a bug: reading the program fails in a way nobody foresaw.
WITH_A_BUG = ("import sys\n"
              "from workaround.checker import check_command, program_check\n"
              "def broken(program):\n"
              "    raise ZeroDivisionError('a bug')\n"
              "program_check.openvino_delegates = broken\n"
              "sys.exit(check_command.main(sys.argv[1:]))\n")


@pytest.mark.parametrize("traceback_asked", [False, True])
def test_a_bug_in_the_checker_is_no_verdict_and_its_traceback_only_on_request(traceback_asked):
    result = run_cli("python", "-c", WITH_A_BUG, STOCK, *(["--traceback"] if traceback_asked else []), timeout=120)
    assert result.returncode == 3
    lines = result.stderr.splitlines()
    assert lines[-1] == ("openvino-pte-check: could not check: the checker failed (ZeroDivisionError: a bug); "
                         "this is a bug in the checker, not a verdict: rerun with --traceback and report it")
    assert ("Traceback (most recent call last):" in lines) == traceback_asked
    assert len(lines) == 1 or traceback_asked
