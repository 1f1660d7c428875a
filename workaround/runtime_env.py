"""``openvino-runtime-env`` (``python -m workaround.runtime_env``): print the shell line that lets ExecuTorch's
runtime find OpenVINO, for ``eval "$(openvino-runtime-env)"`` before running an exported program
(``workaround.contract.openvino_library`` says why it is needed).

Exit status: 0 printed, 1 no openvino library here (one line on stderr), 2 usage error."""

import shlex
import sys

from workaround.checker.command_line import OneLineErrors, say
from workaround.contract.openvino_library import VARIABLE, OpenvinoLibraryNotFound, installed_library


def main(argv: list[str] | None = None) -> int:
    parser = OneLineErrors(prog="openvino-runtime-env",
                           description=f"print 'export {VARIABLE}=...' naming the installed openvino wheel's C "
                                       "library, which ExecuTorch's OpenVINO backend loads; exit status: 0 "
                                       "printed, 1 no openvino library here, 2 usage error")
    parser.parse_args(argv)
    try:
        found = installed_library()
    except OpenvinoLibraryNotFound as error:
        say(f"openvino-runtime-env: {error}")
        return 1
    print(f"export {VARIABLE}={shlex.quote(str(found))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
