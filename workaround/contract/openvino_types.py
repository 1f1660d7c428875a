"""Names for OpenVINO's objects in annotations: OpenVINO ships no type information, so each is ``Any``.

One place, torch-free, so the partitioner's preprocess and the torch-free checker annotate alike.
"""

from typing import Any

OpenvinoModel = Any  # an openvino.Model, before compilation
CompiledModel = Any  # an openvino.CompiledModel (compiled here, or imported from a blob)
OpenvinoNode = Any  # a node of either's graph
OpenvinoOutput = Any  # one output of such a node, what another node's input reads
OpenvinoInput = Any  # one input of such a node, reading an output
OpenvinoDimension = Any  # one dimension of a partial shape, static or a range
InferRequest = Any  # an openvino.InferRequest of a compiled model
