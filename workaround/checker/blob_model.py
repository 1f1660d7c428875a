"""The model an OpenVINO CPU blob carries, read as layers: what the runtime graph does not show.

``import_model`` gives the runtime graph: layer types and precisions, no attributes and no constants. The
blob itself holds more: the CPU plugin's export writes its transformed model as IR XML, with every layer's
attributes (an AvgPool's rounding and padding) and each layer's ``fused_names`` (the original ops folded
into it: an ``Abs`` folded into a constant keeps its name there). The XML is obfuscated with a repeating XOR
key (OpenVINO's ``src/plugins/intel_cpu/src/utils/codec_xor.cpp``); every IR starts with the same known
text, so the key is recovered from the blob itself rather than written here, and a release that changes it
(or stops obfuscating) is still read. A blob whose XML cannot be found gives no layers: the classes only the
XML shows are then not checked.

The XML is decoded a chunk at a time and fed to the standard library's pull parser (``XMLPullParser``, what
``iterparse`` is built on), keeping nothing of an element once it has ended and refusing to nest deeper than
``MAX_DEPTH``: memory stays a small multiple of the blob whatever the XML holds (docs/measurements.md: the
whole tree parsed at once took 1.5 GB for a 40 MB IR, and a deeply nested one ran out of memory). No DTD can
reach the parser (the text must begin with ``IR_START``, the root element's start, after which XML allows no
DOCTYPE), so there is no entity to expand; ``defusedxml`` would guard against nothing more. XML that is found
but does not parse is ``MalformedProgram``: the blob is corrupted.

Torch-free and import-free: it reads bytes, so it works where this OpenVINO cannot import the blob.
"""

import codecs
from collections.abc import Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, ParseError, XMLPullParser

import numpy as np

from workaround.checker.pte.verifier import MalformedProgram

IR_START = b'<?xml version="1.0"?>\n<net '  # how every IR the CPU plugin exports begins
IR_END = b"</net>"
LONGEST_KEY = len(IR_START) // 2  # a key is recovered from two periods of known text
MAX_DEPTH = 256  # an IR nests ~10 deep, each body of a Loop or TensorIterator ~5 more
FEED = 1 << 16  # bytes given to the parser between reads of its events: what one read can build is bounded


@dataclass(frozen=True)
class Layer:
    type: str  # the IR layer type: "AvgPool", "Const", ...
    name: str
    data: dict[str, str]  # the layer's attributes
    fused_names: tuple[str, ...]  # the ops folded into it, as the PyTorch frontend named them


def key_and_start(blob: np.ndarray) -> tuple[np.ndarray, int] | None:
    """(key, offset) of the IR in ``blob``: the first offset where the bytes XOR a repeating key of some
    period give IR_START, the shortest period first (an unobfuscated IR is period 1, key 0)."""
    known = np.frombuffer(IR_START, np.uint8)
    span = blob.size - len(known)
    if span <= 0:
        return None
    for period in range(1, LONGEST_KEY + 1):
        # A byte and the one a period later were XORed with the same key byte, so their XOR is the known text's.
        candidates = np.flatnonzero((blob[:span] ^ blob[period:span + period]) == (known[0] ^ known[period]))
        for offset in range(1, len(known) - period):
            candidates = candidates[(blob[candidates + offset] ^ blob[candidates + offset + period])
                                    == (known[offset] ^ known[offset + period])]
        if candidates.size:
            start = int(candidates[0])
            return blob[start:start + period] ^ known[:period], start
    return None


def last_key_and_start(blob: np.ndarray, block: int = 1 << 22) -> tuple[np.ndarray, int] | None:
    """``key_and_start`` searched from the end a block at a time (blocks overlap by the known text): the CPU
    plugin writes the IR after the weights, so a 64 MiB blob is read in milliseconds, and the search's temporary
    arrays stay a few times ``block`` whatever the blob's size; any other layout is still found."""
    overlap = len(IR_START) + LONGEST_KEY
    for end in range(blob.size, 0, -block):
        begin = max(0, end - block)
        if (found := key_and_start(blob[begin:end + overlap])) is not None:
            return found[0], begin + found[1]
    return None


def ir_chunks(blob: bytes, chunk: int = 1 << 20) -> Iterator[bytes]:
    """The IR XML inside a CPU blob, decoded a chunk at a time up to its closing tag (the weights may follow
    it); nothing where no IR is found."""
    data = np.frombuffer(blob, np.uint8)
    found = last_key_and_start(data)
    if found is None:
        return
    key, start = found
    chunk = max(chunk - chunk % key.size, key.size)  # each chunk starts at the key's first byte
    repeated_key = np.tile(key, chunk // key.size)
    tail = b""  # the end of the last chunk, where a closing tag split between chunks begins
    for begin in range(start, data.size, chunk):
        encoded = data[begin:begin + chunk]
        decoded = (encoded ^ repeated_key[:encoded.size]).tobytes()
        if (end := (tail + decoded).find(IR_END)) >= 0:
            yield decoded[:end - len(tail) + len(IR_END)]
            return
        yield decoded
        tail = decoded[-len(IR_END):]
    raise MalformedProgram("the model IR in an OpenVINO blob never ends (no </net>)")


@dataclass(frozen=True)
class RuntimeOption:
    """A runtime option the model carries (the IR's ``rt_info/runtime_options``): the importing plugin applies
    it, where a compile option is gone once the blob is exported (``DYNAMIC_QUANTIZATION_GROUP_SIZE``, ...)."""
    name: str
    value: str


RUNTIME_OPTIONS = "runtime_options"  # the IR element holding them, one child element each


@dataclass
class _OpenLayer:
    type: str
    name: str
    data: dict[str, str] = field(default_factory=dict)
    fused: list[str] = field(default_factory=list)

    def layer(self) -> Layer:
        return Layer(self.type, self.name, self.data,
                     tuple(name.strip() for value in self.fused for name in value.split(",") if name.strip()))


def layers(blob: bytes) -> Iterator[Layer]:
    """Every layer of the model a CPU blob carries (``ir``'s layers)."""
    return (item for item in ir(blob) if isinstance(item, Layer))


def ir(blob: bytes) -> Iterator[Layer | RuntimeOption]:
    """Every layer and runtime option of the model a CPU blob carries, as the stream of its IR reaches it; none
    where no IR is found. MalformedProgram where the IR does not parse or nests deeper than MAX_DEPTH."""
    parser = XMLPullParser(events=("start", "end"))
    # Bytes that are not UTF-8 are read as U+FFFD, as OpenVINO's own XML reader (pugixml) reads them without a
    # word (measured: the runtime loads a blob whose IR has one, so the checker must not call it corrupted).
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    open_elements: list[Element] = []
    open_layers: list[_OpenLayer] = []
    try:
        for piece in (chunk[at:at + FEED] for chunk in ir_chunks(blob) for at in range(0, len(chunk), FEED)):
            parser.feed(decoder.decode(piece))
            for event, element in parser.read_events():
                if event == "start":
                    open_elements.append(element)
                    if len(open_elements) > MAX_DEPTH:
                        raise MalformedProgram(f"the model IR in an OpenVINO blob nests deeper than {MAX_DEPTH}")
                    started(element, open_elements, open_layers)
                    continue
                open_elements.pop()
                if element.tag == "layer":
                    yield open_layers.pop().layer()
                elif open_elements and open_elements[-1].tag == RUNTIME_OPTIONS:
                    yield RuntimeOption(element.tag, element.get("value", ""))
                if open_elements:  # keep nothing of an element that has ended
                    open_elements[-1].remove(element)
        if open_elements:
            parser.close()  # raises: the IR ended inside an element
    except ParseError as error:
        raise MalformedProgram(f"the model IR in an OpenVINO blob does not parse ({error})") from error


def started(element: Element, open_elements: list[Element], open_layers: list[_OpenLayer]) -> None:
    """Note what a layer, its data or a fused_names attribute brings as the element starts (its attributes)."""
    parent = open_elements[-2].tag if len(open_elements) > 1 else None
    if element.tag == "layer":
        open_layers.append(_OpenLayer(element.get("type", ""), element.get("name", "")))
    elif element.tag == "data" and parent == "layer":
        open_layers[-1].data = dict(element.attrib)
    elif element.tag == "attribute" and element.get("name") == "fused_names" and open_layers:
        open_layers[-1].fused.append(element.get("value", ""))
