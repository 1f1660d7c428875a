"""``python -m workaround.restamp_command model.pte`` and the ``openvino-pte-restamp`` script: the re-stamping
command line (``workaround.checker.restamp_command``), under the name users already type."""

import sys

from workaround.checker.restamp_command import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
