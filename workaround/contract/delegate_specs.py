"""The compile specs the workaround adds to the delegation spec of each partition it makes.

Why compile specs: they travel with each delegate into the ``.pte`` (``BackendDelegate.compile_specs``), reach
``preprocess``, and the torch-free checker reads them back; OpenVINO's stock preprocess passes unknown keys by
(it reads ``device``, ``config`` and ``cache_dir``), so a delegate compiled either way keeps them.

- ``SPECIAL_VALUES_KEY`` = ``"torch"``: the partition promises PyTorch's NaN and infinities, so its preprocess
  applies the exact rewrites (``workaround.partitioner.exact_rewrites``);
- ``GUARDED_KEY``: the semantics guards made the partition (``workaround.partitioner.rules.openvino_hand_back``):
  what OpenVINO computes differently from PyTorch was handed back, or proven out of reach (an int8 add of a clamped
  value, a remainder of integers within 2**24). The checker reports no semantics class for such a delegate: its
  runtime graph cannot show the proof, only that an op of the class is there.
"""

from enum import StrEnum


class SpecialValues(StrEnum):
    """Whose semantics for NaN, +-inf and -0.0 a partition follows (``CopySafeOpenvinoPartitioner``'s
    ``special_values``, and the value of ``SPECIAL_VALUES_KEY``): a StrEnum, so ``"torch"`` given as a string is
    the same value."""

    OPENVINO = "openvino"  # the default: OpenVINO's own, most of a vision or language model stays delegated
    TORCH = "torch"  # PyTorch's: what OpenVINO computes otherwise is handed back or rewritten exactly


SPECIAL_VALUES_KEY = "special_values"
GUARDED_KEY = "semantics_guarded_by"
GUARDED_BY = b"workaround.semantics"  # the value shipped programs carry: kept when the module was renamed
