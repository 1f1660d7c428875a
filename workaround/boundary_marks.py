"""The names that mark a compiled OpenVINO model as honouring its boundary tensors' dim orders.

The workaround's preprocess names each converted input and output tensor
``executorch_input_dim_order:<port>:0,2,3,1`` / ``executorch_output_dim_order:<port>:0,2,3,1``;
tensor names survive ``export_model``/``import_model``, so the checker reads them back from a
shipped ``.pte`` without needing torch. The port is part of the name because OpenVINO makes
tensor names unique (a second identical name would get a suffix).
"""

INPUT_MARK, OUTPUT_MARK = "executorch_input_dim_order:", "executorch_output_dim_order:"


def mark(prefix, port, order):
    return f"{prefix}{port}:" + ",".join(map(str, order))


def read_mark(prefix, name):
    """(port, dim order) from a tensor name written by ``mark``, or None for any other name."""
    if not name.startswith(prefix):
        return None
    port, order = name.removeprefix(prefix).split(":")
    return int(port), [int(d) for d in order.split(",")]
