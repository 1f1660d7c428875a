"""Which catalogue cases the workaround is held to eager on, and which it refuses at export by design."""

from repro.harness import catalogue

REFUSED = "clone_channels_last_dim_order_off"
# With dim order off ExecuTorch holds this channels-last output, but nothing can convert it at the
# boundary (the pass needs dim-order ops): refused at export instead of wrong values.
REFUSED_DIM_ORDER_OFF = "channels_last_output_dim_order_off"
CORRECTED = [name for name in catalogue.CASES if name not in (REFUSED, REFUSED_DIM_ORDER_OFF)]
