"""The names that mark a compiled OpenVINO model as honouring its boundary tensors' dim orders (and as having
its int64 boundary tensors' values proven within int32).

The workaround's preprocess names each converted input and output tensor
``executorch_input_dim_order:<port>:0,2,3,1`` / ``executorch_output_dim_order:<port>:0,2,3,1``;
tensor names survive ``export_model``/``import_model``, so the checker reads them back from a
shipped ``.pte`` without needing torch. The port is part of the name because OpenVINO makes
tensor names unique (a second identical name would get a suffix).
"""

from collections.abc import Iterable

INPUT_MARK, OUTPUT_MARK = "executorch_input_dim_order:", "executorch_output_dim_order:"
# On an int64 boundary tensor (its argument position: inputs, then outputs) whose values the workaround proved
# within int32 (workaround.partitioner.rules.value_ranges), which OpenVINO's CPU plugin computes int64 in.
INT64_WITHIN_INT32_MARK = "executorch_int64_within_int32:"


def mark(prefix: str, port: int, order: Iterable[int]) -> str:
    return f"{prefix}{port}:" + ",".join(map(str, order))


def int64_mark(position: int) -> str:
    return f"{INT64_WITHIN_INT32_MARK}{position}"


def read_int64_mark(name: str) -> int | None:
    """The argument position an int64 mark names, or None for any other name."""
    return int(name.removeprefix(INT64_WITHIN_INT32_MARK)) if name.startswith(INT64_WITHIN_INT32_MARK) else None


def read_mark(prefix: str, name: str) -> tuple[int, list[int]] | None:
    """(port, dim order) from a tensor name written by ``mark``, or None for any other name."""
    if not name.startswith(prefix):
        return None
    port, order = name.removeprefix(prefix).split(":")
    return int(port), [int(d) for d in order.split(",")]
