"""The models the ExecuTorch path runs: each a small function, its seeded inputs, and what to expect of it.

A case names which outputs are pure copies (compared bit for bit), the tolerance of the others, and
what the stock ``OpenvinoPartitioner`` does with it (``Stock``; ``tests/support/release_behaviour.py`` turns
that into the expectation for the installed release). Grouped by the bug they exercise: pass-through
copies, dim order at partition boundaries, constants the CPU plugin reads in place (the by-path
use-after-free), and the delegate's other limits, and ops OpenVINO computes differently from PyTorch (semantics).
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import torch

from repro.harness.cases.outcomes import Outcome
from repro.harness.cpu import precision
from repro.harness.cpu.classes import CpuClass
from repro.harness.models.seed import SEED

COMPUTE_ATOL = 1e-5  # elementwise ops run in f32 here; the bug shows as differences of ~1

M = TypeVar("M", bound=torch.nn.Module)


def uniform(*shape: int, dtype: torch.dtype = torch.float32, channels_last: bool = False) -> torch.Tensor:
    """Seeded values in [0.5, 1.5): far from the zeros a stale buffer usually holds."""
    values = torch.rand(shape, generator=torch.Generator().manual_seed(SEED)) + 0.5
    values = values.to(dtype)
    return values.to(memory_format=torch.channels_last) if channels_last else values


def integers(*shape: int) -> torch.Tensor:
    return torch.randint(1, 100, shape, generator=torch.Generator().manual_seed(SEED))


def exactly(*values: object, dtype: torch.dtype) -> torch.Tensor:
    """A fixed input tensor: the values at the bounds where OpenVINO and PyTorch part."""
    return torch.tensor(values, dtype=dtype)


def booleans(*shape: int) -> torch.Tensor:
    return torch.rand(*shape, generator=torch.Generator().manual_seed(SEED)) > 0.3


class Forward(torch.nn.Module):
    """A module whose forward is the case's function, so each case fits on one line."""

    def __init__(self, function: Callable[..., Any]) -> None:
        super().__init__()
        self.function = function

    def forward(self, *inputs: torch.Tensor) -> Any:
        return self.function(*inputs)


# Why the stock partitioner gets a case wrong (measured with ExecuTorch 1.5.1 and OpenVINO 2026.4.1).
PASS_THROUGH = "the copy compiles to a Result fed by a Parameter, so its output keeps the stale buffer"
READ_AS_CONTIGUOUS = "the runtime hands OpenVINO the channels-last buffer as if it were contiguous"
WRITTEN_AS_CONTIGUOUS = "OpenVINO writes the channels-last output buffer as if it were contiguous"
ZERO_D_OR_EMPTY = "the delegate fails at run time (error 0x1) on a 0-d or 0-size argument"
NOT_RESIZED = "the runtime never resizes a delegate output: it comes back with the upper bound's shape"
ALIAS_COPY_DELEGATED = f"alias_copy is delegated; {PASS_THROUGH}, and sin(y) is computed from it"
PREDICATE_LEAVES_0D = f"the predicate x.sum() > 0 leaves the partition 0-d: {ZERO_D_OR_EMPTY}"


@dataclass(frozen=True)
class Stock:
    """What the stock ``OpenvinoPartitioner`` does with a case, loaded from bytes, and why."""

    outcome: Outcome = Outcome.CORRECT  # or WRONG, LOWERING_FAILED, RUNTIME_FAILED
    why: str = "no copy leaves the partition"
    # Its delegate keeps a constant the CPU plugin reads in place (a bias, an eltwise operand): by path it
    # reads the blob ExecuTorch has freed, from the OpenVINO release whose import stopped copying.
    reads_constant_in_place: bool = False
    # Its copy is aten.alias_copy, which OpenVINO's partitioner takes only from 2025.4 (correct before).
    alias_copy: bool = False
    # Once delegated, its only constants are 0-size (an empty cache): by path the 0-byte constant segment
    # loads as null and load_method fails (0x23); from bytes it is correct.
    empty_constant_segment: bool = False
    # The CPU classes (``repro.harness.cpu.classes``) whose kernels compute it right after all: the outcome
    # above is the other classes' (each measured, see docs/measurements.md "CPU classes").
    right_on: frozenset[CpuClass] = frozenset()

    @property
    def runs(self) -> bool:
        """Its program lowers and the runtime runs it (a by-path crash can show only then)."""
        return self.outcome not in (Outcome.LOWERING_FAILED, Outcome.RUNTIME_FAILED)


def wrong(why: str, **more: Any) -> Stock:
    return Stock(Outcome.WRONG, why, **more)


def fails_to_lower(why: str, **more: Any) -> Stock:
    return Stock(Outcome.LOWERING_FAILED, why, **more)


def fails_at_run_time(why: str, **more: Any) -> Stock:
    return Stock(Outcome.RUNTIME_FAILED, why, **more)


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    function: Callable[..., Any]
    inputs: Callable[[], tuple[torch.Tensor, ...]]  # fresh tensors each call
    exact_outputs: tuple[int, ...] = ()  # indices of outputs that are pure copies: compared with tolerance 0
    atol: float = COMPUTE_ATOL  # for the other outputs
    skip_dim_order: bool = False  # EdgeCompileConfig(_skip_dim_order=True): clone stays aten.clone
    dynamic_shapes: Callable[[], Any] | None = None  # () -> torch.export's dynamic_shapes for forward(*inputs)
    stock: Stock = Stock()
    # What differs is PyTorch's treatment of NaN, +-inf or -0.0: the workaround's default keeps OpenVINO's
    # (wrong here, a strict expectation), CopySafeOpenvinoPartitioner(special_values="torch") gives eager's.
    special_values: bool = False

    def module(self) -> torch.nn.Module:
        return Forward(self.function).eval()


def _copy_then_sin(copy):
    def function(x):
        y = copy(x)
        return y, torch.sin(y)

    return function


def _sin_and_its_copy(x):
    s = torch.sin(x)
    return s, s.clone()


def seeded(module_class: Callable[..., M], *args: int) -> M:
    """A layer with weights drawn from SEED, in eval mode."""
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        return module_class(*args).eval()


CL = torch.channels_last
CONV_ATOL = precision.tolerance(precision.CONV)  # 1e-4 at f32 (the gate), 1e-2 at bf16; the layout bug gives ~1
CONV = seeded(torch.nn.Conv2d, 3, 3, 1)
CONV_F16 = seeded(torch.nn.Conv2d, 3, 3, 1).half()
CONV_3X3 = seeded(torch.nn.Conv2d, 3, 4, 3)


def image(dtype: torch.dtype = torch.float32, channels_last: bool = True) -> torch.Tensor:
    return uniform(1, 3, 4, 4, dtype=dtype, channels_last=channels_last)


CATALOGUE = [
    Case("upstream_clone_sin", "y = x.clone(); return y, sin(y)",
         _copy_then_sin(torch.clone), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(f"{PASS_THROUGH}, and sin(y) is computed from it")),
    Case("detach", "y = x.detach(); return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(torch.Tensor.detach), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(ALIAS_COPY_DELEGATED, alias_copy=True)),
    Case("full_slice", "y = x[:, :]; return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(lambda x: x[:, :]), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(ALIAS_COPY_DELEGATED, alias_copy=True)),
    Case("clone_clone", "y = x.clone().clone(); return y, sin(y)",
         _copy_then_sin(lambda x: x.clone().clone()), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(f"both clones vanish; {PASS_THROUGH}")),
    Case("alias_copy", "y = aten.alias_copy(x); return y, sin(y)  (export adds a clone after it)",
         _copy_then_sin(torch.ops.aten.alias_copy), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(f"export's clone after alias_copy is delegated; {PASS_THROUGH}")),
    Case("transpose_0_0", "y = x.transpose(0, 0); return y, sin(y)  (edge: alias_copy)",
         _copy_then_sin(lambda x: x.transpose(0, 0)), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(ALIAS_COPY_DELEGATED, alias_copy=True)),
    Case("dropout_eval", "y = dropout(x, training=False); return y, sin(y)  (edge: _clone_dim_order)",
         _copy_then_sin(lambda x: torch.nn.functional.dropout(x, training=False)), lambda: (uniform(2, 3),),
         exact_outputs=(0,),
         stock=wrong(f"eval dropout is a clone; {PASS_THROUGH}, and sin(y) is computed from it")),
    Case("clone_only", "return x.clone()",
         torch.clone, lambda: (uniform(2, 3),), exact_outputs=(0,), stock=wrong(PASS_THROUGH)),
    Case("two_inputs", "return x.clone(), z.clone(), x + z",
         lambda x, z: (x.clone(), z.clone(), x + z), lambda: (uniform(2, 3), uniform(2, 3) * 2),
         exact_outputs=(0, 1), stock=wrong(f"{PASS_THROUGH}; x + z reads the overwritten inputs")),
    Case("clone_channels_last", "y = x.clone(memory_format=channels_last); return y, sin(y)",
         _copy_then_sin(lambda x: x.clone(memory_format=CL)), lambda: (uniform(1, 3, 4, 4),),
         exact_outputs=(0,), stock=wrong(f"{PASS_THROUGH} (and the buffer is read as contiguous)")),
    Case("clone_channels_last_dim_order_off", "the same, lowered with dim order off",
         _copy_then_sin(lambda x: x.clone(memory_format=CL)), lambda: (uniform(1, 3, 4, 4),),
         exact_outputs=(0,), skip_dim_order=True,
         stock=wrong(f"{PASS_THROUGH} (and the buffer is read as contiguous)")),
    # OpenVINO compiles int32 x + 0 to a Result fed by the Parameter too, but one with its own tensor: the
    # plugin writes it (measured right on repeated runs). Not the bug, and the checker must not say it is.
    Case("int32_plus_zero", "int32: return x * 2, x + 0  (compiled to a Result fed by the Parameter)",
         lambda x: (x * 2, x + 0), lambda: (exactly(1, 2, 3, 4, dtype=torch.int32),), exact_outputs=(0, 1),
         stock=Stock(reads_constant_in_place=True)),
    Case("clone_used_inside", "return sin(x.clone()) + 1  (the copy never leaves the partition)",
         lambda x: torch.sin(x.clone()) + 1, lambda: (uniform(2, 3),)),
    Case("intermediate_clone_returned", "s = sin(x); return s, s.clone()",
         _sin_and_its_copy, lambda: (uniform(2, 3),),
         stock=fails_to_lower("OpenVINO's frontend fails converting a copy of a returned intermediate "
                              "(\"Check 'is_number(name)' failed\")")),
    Case("float16_clone", "float16: y = x.clone(); return y, sin(y)",
         _copy_then_sin(torch.clone), lambda: (uniform(2, 3, dtype=torch.float16),),
         exact_outputs=(0,), atol=2e-3, stock=wrong(PASS_THROUGH)),
    Case("int64_clone", "int64: y = x.clone(); return y, y + 1",
         lambda x: (x.clone(), x.clone() + 1), lambda: (integers(2, 3),), exact_outputs=(0, 1),
         stock=wrong(PASS_THROUGH, reads_constant_in_place=True)),
    Case("bool_clone", "bool: y = x.clone(); return y, logical_not(y)",
         lambda x: (x.clone(), torch.logical_not(x.clone())), lambda: (booleans(2, 3),),
         exact_outputs=(0, 1), stock=wrong(PASS_THROUGH)),
    # atan2 is not in OpenVINO's partitioner support list, so ExecuTorch's portable kernel
    # runs it, after the delegate (it needs the delegate's sin), reading x's planned buffer.
    Case("input_read_after_delegate", "y = x.clone(); return y, atan2(x, sin(y))  (atan2 outside)",
         lambda x: (x.clone(), torch.atan2(x, torch.sin(x.clone()))), lambda: (uniform(2, 3),),
         exact_outputs=(0,),
         stock=wrong(f"{PASS_THROUGH}; OpenVINO overwrote x's planned buffer, so atan2 reads junk")),
]
# The second bug: boundary tensors are handed to OpenVINO as if contiguous (dim-order guard).
DIM_ORDER_CASES = [
    Case("sin_channels_last_input", "sin(x) * 2, x channels-last (elementwise: layout does not matter)",
         lambda x: torch.sin(x) * 2, lambda: (image(),)),
    Case("channels_last_output", "(sin(x) * 2).to(memory_format=channels_last), x contiguous",
         lambda x: (torch.sin(x) * 2).to(memory_format=CL), lambda: (image(channels_last=False),),
         stock=wrong(WRITTEN_AS_CONTIGUOUS)),
    Case("channels_last_output_dim_order_off", "the same, lowered with dim order off",
         lambda x: (torch.sin(x) * 2).to(memory_format=CL), lambda: (image(channels_last=False),),
         skip_dim_order=True, stock=wrong(WRITTEN_AS_CONTIGUOUS)),
    Case("conv_channels_last_input", "Conv2d(3, 3, 1)(x), x channels-last",
         CONV, lambda: (image(),), atol=CONV_ATOL, stock=wrong(READ_AS_CONTIGUOUS, reads_constant_in_place=True)),
    Case("conv_channels_last_input_float16", "float16 Conv2d(3, 3, 1)(x), x channels-last",
         CONV_F16, lambda: (image(torch.float16),), atol=CONV_ATOL,
         stock=wrong(READ_AS_CONTIGUOUS, reads_constant_in_place=True)),
    Case("conv_3x3_channels_last_input", "Conv2d(3, 4, 3)(x), x channels-last",
         CONV_3X3, lambda: (image(),), atol=CONV_ATOL,
         stock=wrong(READ_AS_CONTIGUOUS, reads_constant_in_place=True)),
    Case("conv_output_to_channels_last", "Conv2d(3, 3, 1)(x).to(memory_format=channels_last), x contiguous",
         lambda x: CONV(x).to(memory_format=CL), lambda: (image(channels_last=False),), atol=CONV_ATOL,
         stock=wrong(WRITTEN_AS_CONTIGUOUS, reads_constant_in_place=True)),
    Case("max_pool_channels_last_input", "max_pool2d(x, 2), x channels-last",
         lambda x: torch.nn.functional.max_pool2d(x, 2), lambda: (image(),), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("permute_channels_last_input", "x.permute(0, 2, 3, 1) + 1, x channels-last",
         lambda x: x.permute(0, 2, 3, 1) + 1, lambda: (image(),), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("reshape_channels_last_input", "x.reshape(1, 3, 16) * 2, x channels-last",
         lambda x: x.reshape(1, 3, 16) * 2, lambda: (image(),), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("sum_over_channels_channels_last_input", "x.sum(dim=1), x channels-last",
         lambda x: x.sum(dim=1), lambda: (image(),), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("abs_of_clone_channels_last_input", "abs(x.clone()), x channels-last (the clone stays channels-last)",
         lambda x: torch.abs(x.clone()), lambda: (image(),)),
    Case("cat_channels_last_inputs", "cat([x, y], dim=1) * 2, x and y channels-last",
         lambda x, y: torch.cat([x, y], 1) * 2, lambda: (image(), image() * 2), stock=wrong(READ_AS_CONTIGUOUS)),
]
CATALOGUE += DIM_ORDER_CASES


class ScaledByBuffer(torch.nn.Module):
    """x * a registered buffer: an eltwise operand the CPU plugin reads in place from the blob."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("scale", uniform(2, 3) * 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale


# The third bug: constants the CPU plugin reads in place from the compiled blob (biases, eltwise
# operands). On OpenVINO 2026.4 that blob is ExecuTorch's own copy, which its backend frees right
# after import when the program was loaded from a file: crash or wrong values by path only.
CONSTANT_CASES = [
    Case("conv_bias_relu", "relu(Conv2d(3, 8, 3, padding=1)(x)): the bias is read in place",
         torch.nn.Sequential(seeded(torch.nn.Conv2d, 3, 8, 3, 1, 1), torch.nn.ReLU()).eval(),
         lambda: (uniform(1, 3, 8, 8),), atol=CONV_ATOL, stock=Stock(reads_constant_in_place=True)),
    Case("conv_without_bias", "Conv2d(3, 8, 3, bias=False)(x): weights are repacked at import (control)",
         seeded(torch.nn.Conv2d, 3, 8, 3, 1, 1, 1, 1, False), lambda: (uniform(1, 3, 8, 8),), atol=CONV_ATOL),
    Case("linear_bias", "Linear(16, 8)(x): the bias is read in place",
         seeded(torch.nn.Linear, 16, 8), lambda: (uniform(2, 16),), atol=CONV_ATOL,
         stock=Stock(reads_constant_in_place=True)),
    Case("multiply_by_buffer", "x * buffer: the buffer is read in place",
         ScaledByBuffer().eval(), lambda: (uniform(2, 3),), stock=Stock(reads_constant_in_place=True)),
]
CATALOGUE += CONSTANT_CASES


class EmptyCacheStep(torch.nn.Module):
    """One attention step of a KV-cache decoder whose cache starts empty, as transformers' caches do."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("keys", torch.zeros(1, 2, 0, 4), persistent=False)
        self.project = seeded(torch.nn.Linear, 4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        keys = torch.cat([self.keys, self.project(x)], dim=2)
        return torch.softmax(self.project(x) @ keys.transpose(-1, -2), -1) @ keys


def _concat_onto_empty(x):
    return (torch.cat([torch.tensor([]), x], -1) * 2 + 1).sin()


# The fourth: 0-size constants a delegate leaves behind, the only constants of the program (every KV-cache
# export starts its cache empty). Loaded by path the program does not load at all, with any partitioner
# that takes the rest; from bytes it is correct.
EMPTY_CONSTANT_CASES = [
    Case("concat_onto_empty", "sin(cat([torch.tensor([]), x], -1) * 2 + 1)", _concat_onto_empty,
         lambda: (uniform(2, 3),), stock=Stock(empty_constant_segment=True)),
    Case("empty_kv_cache_step", "attention over cat([cache of shape (1, 2, 0, 4), Linear(x)], dim=2)",
         seeded(EmptyCacheStep), lambda: (uniform(1, 2, 3, 4),), atol=CONV_ATOL,
         stock=Stock(empty_constant_segment=True, reads_constant_in_place=True)),
]
CATALOGUE += EMPTY_CONSTANT_CASES


def _cond_of_two_outputs(x):
    return torch.cond(x.sum() > 0, lambda x: (x.sin(), x.cos()), lambda x: (x.cos(), x.sin()), (x,))


def clone_sin_chain(steps: int) -> Callable[..., tuple[torch.Tensor, ...]]:
    """y = x; repeat: c = y.clone(); y = sin(c); return every c and the last y. Only the first copy is
    of a partition input; every other one copies a value computed in the partition."""
    def function(x):
        copies, y = [], x
        for _ in range(steps):
            copies.append(y.clone())
            y = torch.sin(copies[-1])
        return *copies, y

    return function


def _two_copies_of_sin(x):
    s = torch.sin(x)
    return s.clone(), s.clone()


# torch.export's dynamic_shapes for Forward(*inputs) with one input: one spec per input, in a tuple.
def _dynamic_batch():
    return (({0: torch.export.Dim("batch", max=16)},),)


def _dynamic_height_and_width():
    return (({2: torch.export.Dim("height", min=2, max=32), 3: torch.export.Dim("width", min=2, max=32)},),)


class CacheWrittenAtPosition(torch.nn.Module):
    """One step of a KV-cache decoder exported with dynamic lengths, as ExecuTorch's Llama is with
    ``enable_dynamic_shape``: the position is read with ``.item()``, bounded by ``torch._check``, and both the
    rotation table and the cache are narrowed at it (the cache written in place), and attention reads the rows
    written so far (ExecuTorch leaves a written buffer's first contents undefined); the last token's row is
    returned."""

    LENGTH = 16

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("keys", torch.zeros(1, self.LENGTH, 4), persistent=False)
        self.register_buffer("rotation", uniform(self.LENGTH, 4))
        self.project = seeded(torch.nn.Linear, 4, 4)

    def forward(self, x: torch.Tensor, input_pos: torch.Tensor) -> torch.Tensor:
        position = input_pos[0].item()
        torch._check_is_size(position)
        torch._check(position < self.LENGTH)
        length = x.size(1)
        key = self.project(x) * self.rotation.narrow(0, position, length)
        self.keys.narrow(1, position, length).copy_(key)
        written = self.keys.narrow(1, 0, position + length)
        return (torch.softmax(key @ written.transpose(-1, -2), -1) @ written)[:, -1]


def _dynamic_length_and_position():
    return (({1: torch.export.Dim("length", max=CacheWrittenAtPosition.LENGTH - 1)}, None),)


SIZE_AS_VALUE = "the partition takes a SymInt input and lowering fails ('SymInt' has no attribute 'type')"


CONV_ONE_CHANNEL = seeded(torch.nn.Conv2d, 1, 2, 1)
# What the delegate cannot run or the stock rule gets wrong beyond single copies: 0-d and 0-size
# tensors, dynamic-shaped outputs, layouts that size-1 dims make ambiguous, higher-order ops, and
# copies of computed values (correct with the stock rule unless the frontend cannot convert them).
GUARD_CASES = [
    Case("cond_two_outputs", "torch.cond(x.sum() > 0, (sin, cos), (cos, sin)): the predicate is 0-d",
         _cond_of_two_outputs, lambda: (uniform(2, 3),), stock=fails_at_run_time(PREDICATE_LEAVES_0D)),
    Case("cond_channels_last", "the same, x channels-last", _cond_of_two_outputs, lambda: (image(),),
         stock=fails_at_run_time(PREDICATE_LEAVES_0D)),
    Case("stack_channels_last_inputs", "stack([x, y], 1) + 1, x and y channels-last (5-D dim order out)",
         lambda x, y: torch.stack([x, y], 1) + 1, lambda: (image(), image() * 2), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("stack_then_flatten_channels_last", "stack([x, y]).flatten(2), x and y channels-last",
         lambda x, y: torch.stack([x, y]).flatten(2), lambda: (image(), image() * 2),
         stock=wrong(READ_AS_CONTIGUOUS)),
    Case("unbind_channels_last_input", "[t * 2 for t in x.unbind(1)], x channels-last",
         lambda x: tuple(t * 2 for t in x.unbind(1)), lambda: (image(),), stock=wrong(READ_AS_CONTIGUOUS)),
    Case("one_channel_channels_last", "Conv2d(1, 2, 1)(x), x.clone(), x (1, 1, 8, 8) channels-last",
         lambda x: (CONV_ONE_CHANNEL(x), x.clone()), lambda: (uniform(1, 1, 8, 8, channels_last=True),),
         exact_outputs=(1,), atol=CONV_ATOL,
         stock=wrong(f"{PASS_THROUGH} (the conv's channels-last output is written as contiguous)",
                     reads_constant_in_place=True)),
    Case("dynamic_batch", "sin(x) * 2, batch dynamic up to 16, run with 4",
         lambda x: torch.sin(x) * 2, lambda: (uniform(4, 3),), dynamic_shapes=_dynamic_batch,
         stock=wrong(NOT_RESIZED)),
    Case("dynamic_batch_static_output", "sin(x).sum(0), batch dynamic: only the input is dynamic",
         lambda x: torch.sin(x).sum(0), lambda: (uniform(4, 3),), dynamic_shapes=_dynamic_batch,
         stock=Stock(reads_constant_in_place=True)),
    Case("dynamic_height_width_conv", "Conv2d(3, 3, 1)(x), height and width dynamic",
         CONV, lambda: (uniform(1, 3, 6, 5),), atol=CONV_ATOL, dynamic_shapes=_dynamic_height_and_width,
         stock=wrong(NOT_RESIZED, reads_constant_in_place=True)),
    Case("zero_d_input", "sin(x) * 2, x 0-d", lambda x: torch.sin(x) * 2, lambda: (uniform(),),
         stock=fails_at_run_time(ZERO_D_OR_EMPTY)),
    Case("zero_size_input", "sin(x) * 2, x of shape (0, 3)", lambda x: torch.sin(x) * 2, lambda: (uniform(0, 3),),
         stock=fails_at_run_time(ZERO_D_OR_EMPTY)),
    Case("zero_d_output", "x.sum(), x * 2", lambda x: (x.sum(), x * 2), lambda: (uniform(2, 3),),
         stock=fails_at_run_time(ZERO_D_OR_EMPTY)),
    Case("clone_sin_chain", "8 x (c = y.clone(); y = sin(c)), every c returned",
         clone_sin_chain(8), lambda: (uniform(2, 3),), exact_outputs=(0,),
         stock=wrong(f"the first copy is of the input: {PASS_THROUGH}, and everything after reads it")),
    Case("two_copies_of_a_computed_value", "s = sin(x); return s.clone(), s.clone()",
         _two_copies_of_sin, lambda: (uniform(2, 3),),
         stock=fails_to_lower("OpenVINO's frontend fails converting two copies of one computed value "
                              "(\"Check 'is_number(name)' failed\")")),
    Case("cache_written_at_position", "KV cache narrowed at input_pos[0].item() and written, length dynamic",
         seeded(CacheWrittenAtPosition).requires_grad_(False),  # a write into a buffer needs frozen weights
         lambda: (uniform(1, 3, 4), torch.tensor([0])), atol=CONV_ATOL,
         dynamic_shapes=_dynamic_length_and_position, stock=fails_to_lower(SIZE_AS_VALUE)),
]
CATALOGUE += GUARD_CASES


INF, NAN = float("inf"), float("nan")
# Why the stock partitioner gets a semantics case wrong: OpenVINO's CPU plugin computes it differently
# (plain OpenVINO gives the same values; measured with OpenVINO 2026.4.1, executorch 1.5.1).
IN_32_BITS = "OpenVINO's CPU plugin computes int64 in 32 bits"
SATURATES = "OpenVINO saturates uint8 / int8 arithmetic where PyTorch wraps around"
THROUGH_FLOAT32 = "OpenVINO divides integers through float32 (wrong above 2**24)"
THROUGH_INT32 = "OpenVINO's trunc division goes through an int32 convert (-2**31 beyond its range)"
REMAINDER_LOST = "OpenVINO loses the remainder of a large quotient"
ABS_DROPPED = "reflection padding decomposes into Abs(Range), and OpenVINO drops the Abs of a constant"
AVG_POOL_DIVISOR = "OpenVINO divides avg_pool's last ceil_mode window by the whole kernel"
FLOAT64_AS_32 = "OpenVINO computes float64 in float32 (1e300 * 2 is FLT_MAX)"
FRONTEND_DTYPE = "OpenVINO's frontend cannot map the partition input's dtype (KeyError at lowering)"
NOT_CONVERTED = "OpenVINO's frontend has no conversion for it (lowering fails)"
NAN_GREATER = "OpenVINO's Greater is true when an operand is NaN (its SSE4.1 and AVX-512 kernels)"
NAN_DROPPED = "OpenVINO's ReLU drops NaN"
NEG_INF_MAX = "OpenVINO's ReduceMax of all -inf is -FLT_MAX"
NAN_SOFTMAX = "OpenVINO's SoftMax gives 0 beside a NaN where PyTorch gives NaN"
COMPARED_THROUGH_FLOAT32 = "OpenVINO compares int32 through float32 (1700000001 >= 1700000001 may be false)"
EXTREMES_THROUGH_FLOAT32 = "OpenVINO's integer max / min / clamp go through float32 (16777217 becomes 16777216)"
POW_THROUGH_FLOAT32 = "OpenVINO's integer pow goes through float32 (40001 ** 2 is 1600080000)"
FLOAT16_KEPT_IN_FLOAT32 = "OpenVINO computes float16 in float32 and drops the rounding of a round trip"
SIGN_OF_NAN = "OpenVINO's Sign of NaN is NaN (PyTorch: 0)"
NAN_POOLED = "OpenVINO's MaxPool drops NaN"


def _reflect(*padding):
    return lambda x: torch.nn.functional.pad(x, padding, mode="reflect")


def _dynamic_batch_scale(x):
    return (x * x.shape[0]).sum(0)


def _events_in_window(timestamps, weights):
    """Weights of the events whose int32 Unix time lies in [1700000001, 1700000003)."""
    inside = (timestamps >= 1700000001) & (timestamps < 1700000003)
    return (inside.float() * weights).sum(0, keepdim=True)


def _timestamps():
    return (exactly(1700000000, 1700000001, 1700000002, 1700000003, dtype=torch.int32),
            exactly(1.0, 2.0, 4.0, 8.0, dtype=torch.float32))


# The fifth: ops OpenVINO's CPU plugin computes differently from PyTorch
# (workaround.partitioner.rules.openvino_hand_back), each at the values where they part. The workaround hands them
# back to ExecuTorch's kernels (or keeps them undecomposed, reflection_pad2d), so it equals eager exactly: integers
# bit for bit, NaN where eager has NaN.
SEMANTICS_CASES = [
    Case("int64_square", "x * x, int64 [100000, 3] (10**10 needs 34 bits)", lambda x: x * x,
         lambda: (exactly(100000, 3, dtype=torch.int64),), exact_outputs=(0,), stock=wrong(IN_32_BITS)),
    Case("int64_beyond_int32_reshaped", "x.reshape(2, 1) + 0, int64 [2**40, 3]: even a view truncates",
         lambda x: x.reshape(2, 1) + 0, lambda: (exactly(2**40, 3, dtype=torch.int64),), exact_outputs=(0,),
         stock=wrong(IN_32_BITS)),
    Case("int64_positions_from_arange", "x + (arange(4) * 3 + 1): int64 positions proven within int32",
         lambda x: x + (torch.arange(4) * 3 + 1), lambda: (uniform(2, 4),),
         stock=Stock(reads_constant_in_place=True)),
    Case("uint8_add_wraps", "x + y, uint8 250 + 10", lambda x, y: x + y,
         lambda: (exactly(250, 3, dtype=torch.uint8), exactly(10, 4, dtype=torch.uint8)), exact_outputs=(0,),
         stock=wrong(SATURATES)),
    Case("int8_multiply_wraps", "x * x, int8 [100, -3]", lambda x: x * x,
         lambda: (exactly(100, -3, dtype=torch.int8),), exact_outputs=(0,), stock=wrong(SATURATES)),
    Case("int32_floor_divide", "x // y, int32 123456789 // 10", lambda x, y: x // y,
         lambda: (exactly(123456789, -7, dtype=torch.int32), exactly(10, 2, dtype=torch.int32)),
         exact_outputs=(0,), stock=wrong(THROUGH_FLOAT32)),
    Case("int32_trunc_divide", "div(x, y, rounding_mode='trunc'), int32 123456789 / 10",
         lambda x, y: torch.div(x, y, rounding_mode="trunc"),
         lambda: (exactly(123456789, -7, dtype=torch.int32), exactly(10, 2, dtype=torch.int32)),
         exact_outputs=(0,), stock=wrong(THROUGH_FLOAT32)),
    Case("float_trunc_divide", "div(x, y, rounding_mode='trunc'), 1e10 / 1",
         lambda x, y: torch.div(x, y, rounding_mode="trunc"),
         lambda: (exactly(1e10, 7.5, dtype=torch.float32), exactly(1.0, 2.0, dtype=torch.float32)),
         stock=wrong(THROUGH_INT32)),
    Case("float_fmod_large_quotient", "fmod(x, 3), x = 1e9 + 1.5", lambda x: torch.fmod(x, 3.0),
         lambda: (exactly(1e9 + 1.5, 7.5, dtype=torch.float32),), stock=wrong(REMAINDER_LOST)),
    Case("reflect_pad_1d", "pad(x, (2, 1), mode='reflect'), x = arange(5)", _reflect(2, 1),
         lambda: (torch.arange(5.0).reshape(1, 1, 5),), exact_outputs=(0,),
         stock=wrong(ABS_DROPPED, reads_constant_in_place=True)),
    Case("reflect_pad_2d", "pad(x, (2, 1, 1, 1), mode='reflect'), x = arange(25) as 5 x 5", _reflect(2, 1, 1, 1),
         lambda: (torch.arange(25.0).reshape(1, 1, 5, 5),), exact_outputs=(0,),
         stock=wrong(ABS_DROPPED, reads_constant_in_place=True)),
    Case("avg_pool_ceil_counting_padding", "avg_pool2d(x, 3, 2, 1, ceil_mode=True), x = ones(1, 1, 4, 4)",
         lambda x: torch.nn.functional.avg_pool2d(x, 3, 2, 1, ceil_mode=True), lambda: (torch.ones(1, 1, 4, 4),),
         stock=wrong(AVG_POOL_DIVISOR)),
    Case("float64_scale", "x * 2, float64 1e300", lambda x: x * 2,
         lambda: (exactly(1e300, 1.0, dtype=torch.float64),), exact_outputs=(0,), stock=wrong(FLOAT64_AS_32)),
    Case("int32_cumsum", "x.cumsum(0), int32 (promoted to int64)", lambda x: x.cumsum(0),
         lambda: (exactly(2**31 - 1, 1, dtype=torch.int32),), exact_outputs=(0,),
         stock=fails_at_run_time("the int64 result of an int32 cumsum fails in execute (0x1)")),
    Case("int16_add", "x + 1, int16", lambda x: x + 1, lambda: (exactly(32767, 1, dtype=torch.int16),),
         exact_outputs=(0,), stock=fails_to_lower(FRONTEND_DTYPE)),
    Case("bfloat16_add", "x + 1, bfloat16", lambda x: x + 1, lambda: (exactly(1.5, 2.0, dtype=torch.bfloat16),),
         exact_outputs=(0,), stock=fails_to_lower(FRONTEND_DTYPE)),
    Case("avg_pool_divisor_override", "avg_pool2d(x, 2, divisor_override=3)",
         lambda x: torch.nn.functional.avg_pool2d(x, 2, divisor_override=3), lambda: (uniform(1, 1, 4, 4),),
         stock=fails_to_lower(NOT_CONVERTED)),
    Case("pixel_shuffle", "pixel_shuffle(x, 2): kept undecomposed by stock, then not supported",
         lambda x: torch.nn.functional.pixel_shuffle(x, 2), lambda: (uniform(1, 4, 2, 2),), exact_outputs=(0,),
         stock=fails_to_lower("OpenVINO's partitioner keeps pixel_shuffle undecomposed but cannot take it")),
    Case("size_used_as_value", "(x * x.shape[0]).sum(0), batch dynamic", _dynamic_batch_scale,
         lambda: (uniform(4, 3),), dynamic_shapes=_dynamic_batch, stock=fails_to_lower(SIZE_AS_VALUE)),
    Case("nan_greater_than", "x > 0, x = [nan, 1]", lambda x: x > 0,
         lambda: (exactly(NAN, 1.0, -1.0, dtype=torch.float32),), exact_outputs=(0,),
         stock=wrong(NAN_GREATER, right_on=frozenset({CpuClass.AVX2})), special_values=True),
    Case("relu_of_nan", "relu(x), x = [nan, -1, 2]", torch.relu,
         lambda: (exactly(NAN, -1.0, 2.0, dtype=torch.float32),), exact_outputs=(0,), stock=wrong(NAN_DROPPED),
         special_values=True),
    Case("amax_of_negative_infinity", "x.amax(1), x all -inf", lambda x: x.amax(1),
         lambda: (torch.full((2, 3), -INF),), exact_outputs=(0,), stock=wrong(NEG_INF_MAX), special_values=True),
    Case("softmax_of_a_nan_row", "softmax(x, 1), a NaN in the first row", lambda x: x.softmax(1),
         lambda: (exactly([NAN, 1.0, 2.0], [0.5, 1.0, 2.0], dtype=torch.float32),), stock=wrong(NAN_SOFTMAX),
         special_values=True),
    # Round two (issue 47): integer ops through float32, float16 kept in float32, NaN in Sign and MaxPool, and
    # ops whose hand-back ExecuTorch could not run (no kernel, or one computing otherwise).
    Case("int32_timestamp_window", "weights of events with int32 Unix time in [1700000001, 1700000003)",
         _events_in_window, _timestamps, stock=wrong(COMPARED_THROUGH_FLOAT32, reads_constant_in_place=True)),
    Case("int32_equal_beyond_2_24", "x == y, int32 16777217 == 16777216", lambda x, y: x == y,
         lambda: (exactly(16777217, 5, dtype=torch.int32), exactly(16777216, 5, dtype=torch.int32)),
         exact_outputs=(0,), stock=wrong(COMPARED_THROUGH_FLOAT32)),
    Case("int32_amax_beyond_2_24", "x.amax(1), int32 16777217", lambda x: x.amax(1),
         lambda: (exactly([16777217, 3], [5, -16777217], dtype=torch.int32),), exact_outputs=(0,),
         stock=wrong(EXTREMES_THROUGH_FLOAT32)),
    Case("int32_clamp_beyond_2_24", "x.clamp(0, 16777217), int32 16777219", lambda x: x.clamp(0, 16777217),
         lambda: (exactly(16777219, 7, dtype=torch.int32),), exact_outputs=(0,),
         stock=wrong(EXTREMES_THROUGH_FLOAT32)),
    Case("float16_round_trip", "x.half().float(), x = pi", lambda x: x.half().float(),
         lambda: (exactly(3.1415927, 70000.0, dtype=torch.float32),), exact_outputs=(0,),
         stock=wrong(FLOAT16_KEPT_IN_FLOAT32)),
    Case("float16_scaled_round_trip", "(x.half() * 3).float()", lambda x: (x.half() * 3).float(),
         lambda: (exactly(3.1415927, 1e-7, dtype=torch.float32),), exact_outputs=(0,),
         stock=wrong(FLOAT16_KEPT_IN_FLOAT32)),
    Case("sign_of_nan", "sign(x), x = [nan, -2, 0, 3]", torch.sign,
         lambda: (exactly(NAN, -2.0, 0.0, 3.0, dtype=torch.float32),), exact_outputs=(0,),
         stock=wrong(SIGN_OF_NAN), special_values=True),
    Case("max_pool_of_nan", "max_pool2d(x, 2), a NaN in a window, a window of -inf",
         lambda x: torch.nn.functional.max_pool2d(x, 2),
         lambda: (exactly([[[NAN, 1.0, -INF, -INF], [2.0, 3.0, -INF, -INF]]], dtype=torch.float32),),
         exact_outputs=(0,), stock=wrong(NAN_POOLED), special_values=True),
]
# What the workaround refuses at lowering, in one line (``CannotHandBackError``): the node cannot stay in
# OpenVINO, and ExecuTorch's runtime has no kernel for it, or one that computes otherwise (executorch 1.5.1).
CANNOT_HAND_BACK_CASES = [
    Case("int32_square_by_pow", "x ** 2, int32 40001: ExecuTorch's integer pow saturates beyond 2**53",
         lambda x: x**2, lambda: (exactly(40001, 3, dtype=torch.int32),), exact_outputs=(0,),
         stock=wrong(POW_THROUGH_FLOAT32)),
    Case("avg_pool3d_ceil_counting_padding", "avg_pool3d(x, 3, 2, 1, ceil_mode=True): no avg_pool3d kernel",
         lambda x: torch.nn.functional.avg_pool3d(x, 3, 2, 1, ceil_mode=True),
         lambda: (torch.ones(1, 1, 4, 4, 4),), stock=wrong(AVG_POOL_DIVISOR)),
    Case("int64_sort_beyond_int32", "torch.sort(x)[0], int64 2**40: no sort kernel", lambda x: torch.sort(x)[0],
         lambda: (exactly(2**40, 3, -5, 7, dtype=torch.int64),), exact_outputs=(0,), stock=wrong(IN_32_BITS)),
    Case("int32_remainder", "remainder(x, y), int32 123456789 % -10: ExecuTorch's takes the dividend's sign",
         torch.remainder, lambda: (exactly(123456789, -7, dtype=torch.int32), exactly(-10, 2, dtype=torch.int32)),
         exact_outputs=(0,), stock=wrong(THROUGH_FLOAT32)),
]
CATALOGUE += SEMANTICS_CASES + CANNOT_HAND_BACK_CASES
CASES = {case.name: case for case in CATALOGUE}
# What each case is about, by the group it is listed in (the first group: copies of inputs).
_LATER_GROUPS = {case.name for case in DIM_ORDER_CASES + CONSTANT_CASES + EMPTY_CONSTANT_CASES + GUARD_CASES
                 + SEMANTICS_CASES + CANNOT_HAND_BACK_CASES}
GROUPS = {"copies": [case for case in CATALOGUE if case.name not in _LATER_GROUPS],
          "dim order": DIM_ORDER_CASES, "constants": CONSTANT_CASES + EMPTY_CONSTANT_CASES, "guards": GUARD_CASES,
          "semantics": SEMANTICS_CASES + CANNOT_HAND_BACK_CASES}


def group_of(name: str | None) -> str | None:
    """The group of catalogue case ``name`` (a key of GROUPS), or None for a case made elsewhere."""
    return next((group for group, cases in GROUPS.items() if name in {case.name for case in cases}), None)
