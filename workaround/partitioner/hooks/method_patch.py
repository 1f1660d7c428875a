"""One class attribute replaced for the process, and put back.

The workaround changes methods outside the partitioner (``OpenvinoPartitioner.partition``
for ``install()``, ``OpenvinoBackend.preprocess`` and ``EdgeProgramManager.to_executorch``); each is
a ``MethodPatch``, so installing, restoring and "was it already on?" are written once, and so is the
check that the installed ExecuTorch has what is replaced (``workaround.partitioner.hooks.supported_executorch``).
"""

from typing import Any

from workaround.partitioner.hooks.supported_executorch import entry_point


class MethodPatch:
    def __init__(self, owner: type, name: str, replacement: Any) -> None:
        self.owner, self.name, self.replacement = owner, name, replacement
        self.stock = entry_point(owner, name)  # as stored: a classmethod stays a classmethod

    def apply(self) -> None:
        setattr(self.owner, self.name, self.replacement)

    def restore(self) -> None:
        setattr(self.owner, self.name, self.stock)

    def applied(self) -> bool:
        return self.owner.__dict__[self.name] is self.replacement
