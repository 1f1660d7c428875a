"""The models the ExecuTorch path runs: each a small function, its seeded inputs, and what to expect of it.

A case names which outputs are pure copies (compared bit for bit), the tolerance of the others, and
what the stock ``OpenvinoPartitioner`` does with it (``Stock``; ``tests/release_behaviour.py`` turns
that into the expectation for the installed release). Grouped by the bug they exercise: pass-through
copies, dim order at partition boundaries, constants the CPU plugin reads in place (the by-path
use-after-free), and the delegate's other limits.
"""

from dataclasses import dataclass

import torch

SEED = 0
COMPUTE_ATOL = 1e-5  # elementwise ops run in f32 here; the bug shows as differences of ~1



def uniform(*shape, dtype=torch.float32, channels_last=False):
    """Seeded values in [0.5, 1.5): far from the zeros a stale buffer usually holds."""
    values = torch.rand(shape, generator=torch.Generator().manual_seed(SEED)) + 0.5
    values = values.to(dtype)
    return values.to(memory_format=torch.channels_last) if channels_last else values


def integers(*shape):
    return torch.randint(1, 100, shape, generator=torch.Generator().manual_seed(SEED))


def booleans(*shape):
    return torch.rand(*shape, generator=torch.Generator().manual_seed(SEED)) > 0.3


class Forward(torch.nn.Module):
    """A module whose forward is the case's function, so each case fits on one line."""

    def __init__(self, function):
        super().__init__()
        self.function = function

    def forward(self, *inputs):
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

    outcome: str = "correct"  # "correct" | "wrong" | "lowering_failed" | "runtime_failed"
    why: str = "no copy leaves the partition"
    # Its delegate keeps a constant the CPU plugin reads in place (a bias, an eltwise operand): by path it
    # reads the blob ExecuTorch has freed, from the OpenVINO release whose import stopped copying.
    reads_constant_in_place: bool = False
    # Its copy is aten.alias_copy, which OpenVINO's partitioner takes only from 2025.4 (correct before).
    alias_copy: bool = False
    # Once delegated, its only constants are 0-size (an empty cache): by path the 0-byte constant segment
    # loads as null and load_method fails (0x23); from bytes it is correct.
    empty_constant_segment: bool = False


def wrong(why, **more):
    return Stock("wrong", why, **more)


def fails_to_lower(why, **more):
    return Stock("lowering_failed", why, **more)


def fails_at_run_time(why, **more):
    return Stock("runtime_failed", why, **more)


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    function: object
    inputs: object  # () -> tuple of tensors
    exact_outputs: tuple = ()  # indices of outputs that are pure copies: compared with tolerance 0
    atol: float = COMPUTE_ATOL  # for the other outputs
    skip_dim_order: bool = False  # EdgeCompileConfig(_skip_dim_order=True): clone stays aten.clone
    dynamic_shapes: object = None  # () -> torch.export's dynamic_shapes for forward(*inputs)
    stock: Stock = Stock()

    def module(self):
        return Forward(self.function).eval()


def _copy_then_sin(copy):
    def function(x):
        y = copy(x)
        return y, torch.sin(y)

    return function


def _sin_and_its_copy(x):
    s = torch.sin(x)
    return s, s.clone()


def seeded(module_class, *args):
    """A layer with weights drawn from SEED, in eval mode."""
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        return module_class(*args).eval()


CL = torch.channels_last
CONV_ATOL = 1e-2  # OpenVINO runs convolutions and matmuls in bf16 on this CPU (AMX); the layout bug gives ~1
CONV = seeded(torch.nn.Conv2d, 3, 3, 1)
CONV_F16 = seeded(torch.nn.Conv2d, 3, 3, 1).half()
CONV_3X3 = seeded(torch.nn.Conv2d, 3, 4, 3)


def image(dtype=torch.float32, channels_last=True):
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

    def __init__(self):
        super().__init__()
        self.register_buffer("scale", uniform(2, 3) * 3)

    def forward(self, x):
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

    def __init__(self):
        super().__init__()
        self.register_buffer("keys", torch.zeros(1, 2, 0, 4), persistent=False)
        self.project = seeded(torch.nn.Linear, 4, 4)

    def forward(self, x):
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


def clone_sin_chain(steps):
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
]
CATALOGUE += GUARD_CASES
CASES = {case.name: case for case in CATALOGUE}
# What each case is about, by the group it is listed in (the first group: copies of inputs).
_LATER_GROUPS = {case.name for case in DIM_ORDER_CASES + CONSTANT_CASES + EMPTY_CONSTANT_CASES + GUARD_CASES}
GROUPS = {"copies": [case for case in CATALOGUE if case.name not in _LATER_GROUPS],
          "dim order": DIM_ORDER_CASES, "constants": CONSTANT_CASES + EMPTY_CONSTANT_CASES, "guards": GUARD_CASES}


def group_of(name):
    """The group of catalogue case ``name`` (a key of GROUPS), or None for a case made elsewhere."""
    return next((group for group, cases in GROUPS.items() if name in {case.name for case in cases}), None)
