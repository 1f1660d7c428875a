"""The real ExecuTorch runtime in child processes: a program loaded as deployments load it (by path,
from bytes, the C++ Module's mmap), whether the runtime can run here, a blob replayed in plain
OpenVINO, and the memory each child reports."""
