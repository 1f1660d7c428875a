"""The model an OpenVINO CPU blob carries, read as layers: what the runtime graph does not show.

``import_model`` gives the runtime graph: layer types and precisions, no attributes and no constants. The
blob itself holds more: the CPU plugin's export writes its transformed model as IR XML, with every layer's
attributes (an AvgPool's rounding and padding) and each layer's ``fused_names`` (the original ops folded
into it: an ``Abs`` folded into a constant keeps its name there). The XML is obfuscated with a repeating XOR
key (OpenVINO's ``src/plugins/intel_cpu/src/utils/codec_xor.cpp``); every IR starts with the same known
text, so the key is recovered from the blob itself rather than written here, and a release that changes it
(or stops obfuscating) is still read. A blob whose XML cannot be found gives None: the classes only the XML
shows are then not checked.

Torch-free and import-free: it reads bytes, so it works where this OpenVINO cannot import the blob.
"""

from dataclasses import dataclass
from xml.etree import ElementTree

import numpy as np

IR_START = b'<?xml version="1.0"?>\n<net '  # how every IR the CPU plugin exports begins
IR_END = b"</net>"
LONGEST_KEY = len(IR_START) // 2  # a key is recovered from two periods of known text


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


def last_key_and_start(blob: np.ndarray, window: int = 1 << 20) -> tuple[np.ndarray, int] | None:
    """``key_and_start`` searched from the end in doubling windows: the CPU plugin writes the IR after the
    weights, so a 64 MiB blob is read in milliseconds, not seconds; any other layout is still found."""
    while True:
        begin = max(0, blob.size - window)
        if (found := key_and_start(blob[begin:])) is not None:
            return found[0], begin + found[1]
        if begin == 0:
            return None
        window *= 2


def exported_ir(blob: bytes, chunk: int = 1 << 20) -> str | None:
    """The IR XML inside a CPU blob, or None where none is found (decoded a chunk at a time: the weights may
    follow it)."""
    data = np.frombuffer(blob, np.uint8)
    found = last_key_and_start(data)
    if found is None:
        return None
    key, start = found
    chunk -= chunk % key.size  # each chunk starts at the key's first byte
    decoded = b""
    for begin in range(start, data.size, chunk):
        encoded = data[begin:begin + chunk]
        decoded += (encoded ^ np.resize(key, encoded.size)).tobytes()
        if (end := decoded.find(IR_END)) >= 0:
            return decoded[:end + len(IR_END)].decode("utf-8", "replace")
    return None


def layers(blob: bytes) -> list[Layer] | None:
    """Every layer of the model a CPU blob carries, or None where its IR cannot be read."""
    text = exported_ir(blob)
    if text is None:
        return None
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None
    found = []
    for layer in root.iter("layer"):
        data = layer.find("data")
        fused = [attribute.get("value", "") for attribute in layer.iter("attribute")
                 if attribute.get("name") == "fused_names"]
        found.append(Layer(layer.get("type", ""), layer.get("name", ""),
                           dict(data.attrib) if data is not None else {},
                           tuple(name.strip() for value in fused for name in value.split(",") if name.strip())))
    return found
