"""``python -m workaround.check model.pte`` and the ``openvino-pte-check`` script: the checker's command line
(``workaround.checker.check_command``), under the name users already type. ``check_program`` and ``Finding``
stay importable from here as well as from ``workaround``."""

import sys

from workaround.checker.check_command import main
from workaround.checker.findings import Finding
from workaround.checker.program_check import check_program

__all__ = ["Finding", "check_program", "main"]

if __name__ == "__main__":
    sys.exit(main())
