"""A partitioner under review, named by import path, as a lowering the gate can run.

A developer who changed ExecuTorch's ``OpenvinoPartitioner`` (or wrote another) asks the gate
"does mine pass everything the workaround passes?" with ``mypkg.module:MyPartitioner``, optionally
with transform passes (``mod:PassClass``). The class is constructed like ``OpenvinoPartitioner``,
with ``[CompileSpec("device", b"CPU")]``; each pass class with no arguments. Everything is resolved
and constructed once up front, so a bad name is a one-line usage error before any long work.
"""

import importlib
from collections.abc import Iterable

from repro.harness.lowering.named import Lowering

CANDIDATE = "candidate"  # the lowering's name in records and file names


class CandidateError(ValueError):
    """The named partitioner or pass cannot be used; the message is one line for the user."""


def import_object(spec: str, what: str) -> object:
    """``module.path:Name`` -> the object, or CandidateError saying what is wrong with the name."""
    module_name, colon, name = spec.partition(":")
    if not colon or not module_name or not name:
        raise CandidateError(f"{what} {spec!r}: expected module.path:ClassName")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:
        raise CandidateError(f"{what} {spec!r}: cannot import {module_name}: {type(error).__name__}: {error}") \
            from error
    try:
        return getattr(module, name)
    except AttributeError as error:
        raise CandidateError(f"{what} {spec!r}: {module_name} has no {name}") from error


def class_named(spec: str, option: str, base: type, what: str) -> type:
    """The class ``spec`` names, which must subclass ``base``; ``what`` says what it must be."""
    found = import_object(spec, option)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise CandidateError(f"{option} {spec!r}: {found!r} is not {what}")
    return found


def partitioner_class(spec: str) -> type:
    from executorch.exir.backend.partitioner import Partitioner

    return class_named(spec, "--partitioner", Partitioner,
                       "a subclass of ExecuTorch's executorch.exir.backend.partitioner.Partitioner")


def transform_pass(spec: str) -> type:
    from executorch.exir.pass_base import PassBase

    return class_named(spec, "--transform-pass", PassBase, "an ExecuTorch/torch.fx pass class (a subclass of "
                       "torch.fx.passes.infra.pass_base.PassBase, e.g. ExportPass)")


def candidate_lowering(partitioner_spec: str, pass_specs: Iterable[str] = ()) -> Lowering:
    """The ``Lowering`` for the named classes, checked by constructing them once."""
    from executorch.exir.backend.backend_details import CompileSpec

    cls, pass_classes = partitioner_class(partitioner_spec), [transform_pass(spec) for spec in pass_specs]

    def make():
        return cls([CompileSpec("device", b"CPU")]), [pass_class() for pass_class in pass_classes]

    try:
        make()
    except Exception as error:
        raise CandidateError(f"--partitioner {partitioner_spec!r}: constructing it with "
                             f"[CompileSpec('device', b'CPU')] failed: {type(error).__name__}: {error}") from error
    return Lowering(CANDIDATE, make)
