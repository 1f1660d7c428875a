"""The per-op conformance sweep: every op OpenVINO's PyTorch frontend lists as supported (the list the stock
partitioner consults), called as PyTorch's own OpInfo database calls it, lowered stock and with the
workaround, run in the real runtime and compared with eager.

Why OpInfo (``torch.testing._internal.common_methods_invocations.op_db``): it holds, for each op, sample
calls PyTorch tests itself with (shapes with size-1 dims, 0-d tensors, keyword variants), so the sweep needs
no hand-written inputs. Each op gets a few of them in float32, one in each integer dtype the op takes, and
one at the values where OpenVINO and PyTorch part (NaN, +-inf, -0.0, 1e30 for floats; int32's bounds, 2**40
for integers). Every tensor of a call is an input of the exported model, so nothing is folded at export.

A sweep case's outcome is the catalogue's (``correct``, ``wrong``, ``lowering_failed``, ``runtime_failed``,
``crashed``) or ``not_delegated`` (stock put no delegate in the program: nothing of OpenVINO's is tested).
Run it with OpenVINO computing in f32 (``OV_CPU_MAX_ISA`` capped in the runtime's environment: the
``conformance`` tox env does it), so that bf16 is out of the way: floats are compared within 1e-4 of their
magnitude, integers exactly, NaN where eager has NaN.
"""

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from repro.harness.cases.outcomes import AT_EXPORT, Outcome
from repro.harness.cases.record import CaseRecord
from repro.harness.conformance import opinfo_samples
from repro.harness.conformance.record import NOT_DELEGATED, SPECIAL_FLOATS
from repro.harness.lowering.named import Lowering
from repro.harness.models.catalogue import Case
from repro.harness.models.seed import SEED
from repro.harness.runtime.program_runner import ProgramRunner

# Support-list names whose OpInfo is called otherwise (the functional op an aten op is exported from).
ALIASES = {"_softmax": "softmax", "_log_softmax": "log_softmax", "convolution": "nn.functional.conv2d",
           "embedding": "nn.functional.embedding", "max_pool2d_with_indices": "nn.functional.max_pool2d",
           "max_pool3d_with_indices": "nn.functional.max_pool3d", "elu": "nn.functional.elu",
           "silu": "nn.functional.silu", "hardsigmoid": "nn.functional.hardsigmoid",
           "_adaptive_avg_pool2d": "nn.functional.adaptive_avg_pool2d",
           "adaptive_max_pool2d": "nn.functional.adaptive_max_pool2d",
           "upsample_nearest2d": "nn.functional.interpolate", "upsample_bilinear2d": "nn.functional.interpolate",
           "reflection_pad2d": "nn.functional.pad", "absolute": "abs", "index": "__getitem__"}
FLOAT_SAMPLES = 1  # float32 sample calls per op (each case costs ~1 s per lowering on this machine)
# The runtime's environment for the sweep: OpenVINO's CPU plugin computes f32 models in bf16 on CPUs with
# AVX-512 BF16 or AMX unless the importing process caps the ISA below them (measured on 2025.4.1 - 2026.4.1;
# a cap above what a CPU has changes nothing there).
F32_ENVIRONMENT = {"OV_CPU_MAX_ISA": "AVX512_CORE_VNNI"}

BOUND_INTEGERS = (2**31 - 1, -2**31, 2**40 + 3, -7, 0, 100000)
# int32 where float32 stops holding every integer (2**24 + 1), and at its own bounds.
BOUND_INT32 = (2**24 + 1, -(2**24) - 1, 2**24, 2**31 - 1, -2**31, -7, 0)
# float16's largest, its smallest subnormal, a value it rounds, and its special values.
BOUND_FLOAT16 = (65504.0, -65504.0, 6e-08, 3.1415927, math.nan, math.inf, -0.0)
INTEGER_DTYPES = (torch.int32, torch.int64, torch.uint8)
FLOAT_ATOL = 1e-4  # relative to the output's magnitude: what f32 leaves
FLOAT16_ATOL = 2**-10  # relative to the output's magnitude: one float16 step (a rounding placed elsewhere)
# Ops whose values are random: eager and the program draw different numbers, so there is nothing to compare.
RANDOM = {"bernoulli", "rand", "randn", "rand_like", "randn_like", "normal", "uniform", "native_dropout",
          "multinomial", "randint"}


@dataclass(frozen=True)
class SweepCase:
    op: str  # the support list's base name ("add", "_softmax", ...)
    opinfo: str  # the OpInfo it is called through
    variant: str  # "float32 #0", "int64", "special values", ...
    case: Case

    @property
    def id(self) -> str:
        return f"{self.op}/{self.opinfo}/{self.variant}"


def supported_ops() -> list[str]:
    """The base names of the aten ops in OpenVINO's PyTorch support list."""
    from openvino.frontend.pytorch.torchdynamo.op_support import OperatorSupport

    names = {key.split(".")[3] for key in OperatorSupport([])._support_dict if key.startswith("torch.ops.aten.")}
    # In-place variants (add_, relu_, ...) reach the partitioner as their functional ops.
    return sorted(name for name in names if name.startswith("_") or not name.endswith("_"))


def opinfos() -> dict[str, list]:
    """OpInfo entries by the name they are looked up with (their aten name and their own name)."""
    from torch.testing._internal.common_methods_invocations import op_db

    found: dict[str, list] = {}
    for info in op_db:
        for name in {info.aten_name, info.name}:
            if name:
                found.setdefault(name, []).append(info)
    return found


def as_model(sample: Any, op: Callable[..., Any]) -> tuple[Callable[..., Any], tuple[torch.Tensor, ...]]:
    """(function of the call's tensors, the tensors): every tensor of the sample call becomes an input."""
    leaves, spec = torch.utils._pytree.tree_flatten((sample.input, sample.args, sample.kwargs))
    positions = [index for index, leaf in enumerate(leaves) if isinstance(leaf, torch.Tensor)]

    def function(*tensors):
        rebuilt = list(leaves)
        for position, tensor in zip(positions, tensors, strict=True):
            rebuilt[position] = tensor
        value, args, kwargs = torch.utils._pytree.tree_unflatten(rebuilt, spec)
        return op(value, *args, **kwargs)

    return function, tuple(leaves[position].detach().clone() for position in positions)


def with_values(tensors: Iterable[torch.Tensor], values: Sequence[float]) -> tuple[torch.Tensor, ...]:
    """The tensors refilled, cycling through ``values`` (each kept to what its dtype holds)."""
    refilled = []
    for tensor in tensors:
        wanted = tensor.dtype.is_floating_point if isinstance(values[0], float) else tensor.dtype in INTEGER_DTYPES
        if wanted and tensor.numel():
            pattern = torch.tensor([values[i % len(values)] for i in range(tensor.numel())], dtype=torch.float64)
            if not tensor.dtype.is_floating_point:
                info = torch.iinfo(tensor.dtype)
                pattern = pattern.clamp(info.min, info.max)
            refilled.append(pattern.to(tensor.dtype).reshape(tensor.shape))
        else:
            refilled.append(tensor)
    return tuple(refilled)


def runs_in_the_delegate(sample: Any) -> bool:
    """Whether every tensor of a sample call is at least 1-d and not empty: 0-d and 0-size tensors are a known
    limit of the delegate (the catalogue's guard cases), and would hide what OpenVINO computes."""
    tensors = [leaf for leaf in torch.utils._pytree.tree_leaves((sample.input, sample.args, sample.kwargs))
               if isinstance(leaf, torch.Tensor)]
    return bool(tensors) and all(tensor.dim() and tensor.numel() for tensor in tensors)


class SamplesFailed(Exception):
    """An OpInfo's sample generator failed here (it may need what this build lacks); the message says how."""


def _samples(info, dtype, count):
    torch.manual_seed(SEED)
    try:
        usable = (sample for sample in opinfo_samples.sample_inputs(info, "cpu", dtype)
                  if runs_in_the_delegate(sample))
        return [sample for _, sample in zip(range(count), usable, strict=False)]
    except Exception as error:  # whatever OpInfo's generators raise: the sweep records it, never hides it
        raise SamplesFailed(first_line(error)) from error


def first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0][:200] if lines else ''}"


def _case(name, function, tensors, relative_atol=FLOAT_ATOL) -> Case:
    """The sweep case of one call; raises EagerRefuses where eager PyTorch itself refuses the call."""
    try:
        expected = function(*[tensor.clone() for tensor in tensors])
    except Exception as error:
        raise EagerRefuses(first_line(error)) from error
    finite = [leaf.double().nan_to_num(posinf=0.0, neginf=0.0).abs().max()
              for leaf in torch.utils._pytree.tree_leaves(expected)
              if isinstance(leaf, torch.Tensor) and leaf.is_floating_point() and leaf.numel()]
    magnitude = max([1.0, *(float(value) for value in finite)])
    integer_outputs = tuple(index for index, leaf in enumerate(torch.utils._pytree.tree_leaves(expected))
                            if isinstance(leaf, torch.Tensor) and not leaf.is_floating_point())
    return Case(name, name, function, lambda: tuple(tensor.clone() for tensor in tensors),
                exact_outputs=integer_outputs, atol=relative_atol * magnitude)


class EagerRefuses(Exception):
    """Eager PyTorch refuses a sample call: there is nothing to compare with."""


@dataclass(frozen=True)
class Variant:
    name: str  # "float32 #0", "int64 bounds", ...
    function: Callable[..., Any]
    tensors: tuple[torch.Tensor, ...]


@dataclass(frozen=True)
class NotSwept:
    """A variant of an op the sweep could not make, and why: it leaves the denominator on the record."""
    op: str
    opinfo: str
    variant: str  # the dtype or variant whose samples failed, or the variant eager refused
    reason: str


def variants(info: Any) -> Iterator[Variant | tuple[str, str]]:
    """One OpInfo's variants: float32 samples, integer dtypes, edge values; ``(variant, reason)`` for a dtype
    whose samples could not be generated here."""
    dtypes = info.supported_dtypes("cpu")

    def samples(dtype, count):
        """The dtype's samples (none if the OpInfo lacks the dtype); yields why they failed, if they did."""
        if dtype not in dtypes:
            return []
        try:
            return _samples(info, dtype, count)
        except SamplesFailed as error:
            yield str(dtype).removeprefix("torch."), str(error)
            return []

    floats = yield from samples(torch.float32, FLOAT_SAMPLES)
    for index, sample in enumerate(floats):
        yield Variant(f"float32 #{index}", *as_model(sample, info.op))
    if floats:
        function, tensors = as_model(floats[0], info.op)
        yield Variant("special values", function, with_values(tensors, SPECIAL_FLOATS))
    for dtype in INTEGER_DTYPES:
        integers = yield from samples(dtype, 1)
        if integers:
            function, tensors = as_model(integers[0], info.op)
            if dtype is torch.int64:  # int64 at int32's bounds and beyond: the plain int64 sample adds nothing
                yield Variant("int64 bounds", function, with_values(tensors, BOUND_INTEGERS))
            elif dtype is torch.int32:  # beyond what float32 holds exactly, and at int32's bounds
                yield Variant("int32 bounds", function, with_values(tensors, BOUND_INT32))
            else:
                yield Variant(str(dtype).removeprefix("torch."), function, tensors)
    halves = yield from samples(torch.float16, 1)
    if halves:
        function, tensors = as_model(halves[0], info.op)
        yield Variant("float16 bounds", function, with_values(tensors, BOUND_FLOAT16))


@dataclass(frozen=True)
class Sweep:
    cases: list[SweepCase]
    not_swept: list[NotSwept]


def sweep(only: set[str] | None = None) -> Sweep:
    """Every sweep case (or those of the ops named in ``only``), in a fixed order, and what could not be made."""
    infos = opinfos()
    cases, not_swept = [], []
    for op in supported_ops():
        if (only is not None and op not in only) or op in RANDOM:
            continue
        for info in infos.get(ALIASES.get(op, op), []):
            name = info.name + (f".{info.variant_test_name}" if info.variant_test_name else "")
            for variant in variants(info):
                if not isinstance(variant, Variant):
                    not_swept.append(NotSwept(op, name, *variant))
                    continue
                atol = FLOAT16_ATOL if variant.name.startswith("float16") else FLOAT_ATOL
                # named like its id: one name per case, whatever OpInfo variants share the op
                case_name = f"{op}.{name}.{variant.name.replace(' ', '_').replace('#', '')}"
                try:
                    cases.append(SweepCase(op, name, variant.name,
                                           _case(case_name, variant.function, variant.tensors, atol)))
                except EagerRefuses as refused:
                    not_swept.append(NotSwept(op, name, variant.name, f"eager refuses: {refused}"))
    return Sweep(cases, not_swept)


def outcome(record: CaseRecord) -> str:
    """The sweep's outcome of one run_case record (bytes load)."""
    if record["outcome"] == Outcome.REFUSED:  # the workaround's one line: neither runtime computes it as PyTorch
        return Outcome.REFUSED
    if record["outcome"] in AT_EXPORT:
        return Outcome.LOWERING_FAILED
    if record["partitioner"] == "stock" and not record["delegates"]:
        return NOT_DELEGATED
    return record["runs"]["bytes"]["outcome"]


def run_sweep(cases: Sequence[SweepCase], runner: ProgramRunner, save_dir: str | Path,
              lowerings: Sequence[Lowering],
              progress: Callable[[int, SweepCase, dict[str, str]], None] | None = None,
              ) -> dict[str, dict[str, str]]:
    """{case id: {lowering name: outcome}} for every case, each lowering (``Lowering`` values), from bytes."""
    from repro.harness.cases.runs import run_case

    outcomes = {}
    for number, sweep_case in enumerate(cases):
        outcomes[sweep_case.id] = {lowering.name: outcome(run_case(sweep_case.case, lowering, {"bytes": runner},
                                                                   save_dir))
                                   for lowering in lowerings}
        if progress:
            progress(number, sweep_case, outcomes[sweep_case.id])
    return outcomes
