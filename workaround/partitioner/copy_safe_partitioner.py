"""A drop-in OpenvinoPartitioner that never lets a pass-through copy leave a partition.

Use ``CopySafeOpenvinoPartitioner(compile_spec)`` wherever an export script builds
``OpenvinoPartitioner(compile_spec)``: same constructor, same delegation spec, same
op support; only copies whose result leaves their partition are handed back to
ExecuTorch (see ``workaround.partitioner.rules.exclusion`` for the rule and why it is safe).

Two fixes need hooks outside the partitioner, which may only tag nodes; constructing it installs
both for the process (until ``uninstall()``):

- each OpenVINO partition is compiled to read and write its boundary tensors in their own dim
  order, so channels-last frames and results are correct (``workaround.partitioner.hooks.preprocess``,
  replacing ``OpenvinoBackend.preprocess``; partitions whose boundaries are all in the default
  dim order, and partitions the stock rule made, are compiled by the stock preprocess, untouched);
- the delegates it makes keep their OpenVINO blobs inline in the program, so the program is
  safe to load by path on OpenVINO 2026.4 (``workaround.partitioner.hooks.inline_blobs``, hooking
  ``to_executorch``, which acts only on programs whose OpenVINO delegates this rule made); past 1 GiB of
  constants the largest stay in ExecuTorch's constant segment and reach the delegate as inputs, so a program
  of any size stays under the flatbuffer's 2 GiB (``workaround.partitioner.rules.large_constants``).

For scripts you cannot edit, ``install()`` (undone by ``uninstall()``) or the
``copy_safe_openvino()`` context manager make every ``OpenvinoPartitioner`` apply
the same rules, including instances created before the call.
"""

import contextlib
from collections.abc import Callable, Collection, Iterator, Sequence

import torch
from executorch.backends.openvino.partitioner import OpenvinoPartitioner
from executorch.exir.backend.compile_spec_schema import CompileSpec
from executorch.exir.backend.partitioner import DelegationSpec, Partitioner, PartitionResult
from torch.export import ExportedProgram

from workaround.contract.delegate_specs import GUARDED_BY, GUARDED_KEY, SPECIAL_VALUES_KEY, SpecialValues
from workaround.contract.provenance import mark_partitioned_nodes
from workaround.partitioner.delegate.grouped_attention import (
    ATTENTION,
    computes_in_float,
    mask_computed_from_parameters,
)
from workaround.partitioner.delegate.state import own_mutated_buffers
from workaround.partitioner.hooks.inline_blobs import INLINE_BLOBS
from workaround.partitioner.hooks.llm_pipeline import patches as llm_pipeline_patches
from workaround.partitioner.hooks.method_patch import MethodPatch
from workaround.partitioner.hooks.preprocess import BOUNDARY_DIM_ORDERS
from workaround.partitioner.layouts.ambiguous_layouts import declare_ambiguous_layouts_default
from workaround.partitioner.rules.delegate_limits import may_cross_a_boundary_it_cannot
from workaround.partitioner.rules.exclusion import TAG, hand_back_unsafe_nodes
from workaround.partitioner.rules.large_constants import keep_large_constants_out_of_blobs
from workaround.partitioner.rules.openvino_hand_back import EXACT_WHEN_KEPT, never_handed_back_for_its_dtype
from workaround.partitioner.rules.runtime_kernels import ExecutorchRuntime
from workaround.partitioner.rules.symbolic_sizes import sizes_read_in_the_delegate

# Kept undecomposed for speed, each with the ops its nodes are when the partitioner is asked (before ExecuTorch's
# decompositions): PyTorch's CPU attention, which the preprocess computes per group of KV heads, the caches read
# where they are (workaround.partitioner.delegate.grouped_attention).
FUSED_WHEN_KEPT = {ATTENTION: (torch.ops.aten.scaled_dot_product_attention.default, ATTENTION)}


def _ops_to_keep_for_the_delegate(stock: OpenvinoPartitioner, exported_program: ExportedProgram
                                  ) -> tuple[list[torch._ops.OpOverload], Callable[[torch.fx.Node], bool] | None]:
    """The stock list of ops kept undecomposed (stack, upsampling, ...) and those OpenVINO computes exactly
    only undecomposed (``workaround.partitioner.rules.openvino_hand_back.EXACT_WHEN_KEPT``), and attention where it
    can be computed faster (``FUSED_WHEN_KEPT``), each only if OpenVINO's
    support list has it (stock keeps ``pixel_shuffle``, which it then cannot delegate, so lowering fails); minus
    the nodes that may be handed back: those must be decomposed into ops ExecuTorch's kernels can run.

    The filter that leaves those out is returned only when the program has such a node. A filter sends ExecuTorch
    down its ``EDGE_DO_NOT_DECOMP`` path, three ``run_decompositions`` instead of stock's one or two (1.3-2.4 times
    stock's export on small models); where every node of the kept ops is kept anyway, it changes nothing but the
    time."""
    ops, stock_filter = KEEP_RULE.stock(stock, exported_program)

    def keep(node: torch.fx.Node) -> bool:
        return ((stock_filter is None or stock_filter(node)) and not may_cross_a_boundary_it_cannot(node)
                and never_handed_back_for_its_dtype(node))

    def nodes_of(ops: Collection[torch._ops.OpOverload]) -> list[torch.fx.Node]:
        return [node for node in exported_program.graph.nodes if node.op == "call_function" and node.target in ops]

    # An op kept for speed only where every node of it is kept: decomposing some of its nodes takes the filtered
    # path, whose decomposition of attention fails at run time with dynamic shapes (qwen3, phi_4_mini).
    # Nor where its mask comes from a parameter, which ExecuTorch's passes cannot run the op on.
    def kept_whole(node: torch.fx.Node) -> bool:
        return (keep(node) or (not may_cross_a_boundary_it_cannot(node) and computes_in_float(node))) \
            and not mask_computed_from_parameters(node, exported_program)

    fused = [op for op, seen_as in FUSED_WHEN_KEPT.items() if all(map(kept_whole, nodes_of(set(seen_as))))]
    ops = [op for op in dict.fromkeys([*ops, *EXACT_WHEN_KEPT, *fused]) if openvino_supports(op)]
    return (ops, None) if all(map(keep, nodes_of(set(ops)))) else (ops, keep)


def openvino_supports(op: torch._ops.OpOverload) -> bool:
    """Whether OpenVINO's PyTorch frontend lists ``op`` (the list the stock partitioner consults)."""
    from openvino.frontend.pytorch.torchdynamo.op_support import OperatorSupport

    return f"torch.ops.{op}" in OperatorSupport([])._support_dict


def _partition_by_the_rules(stock: OpenvinoPartitioner, exported_program: ExportedProgram,
                            special_values: SpecialValues = SpecialValues.OPENVINO,
                            runtime: ExecutorchRuntime | None = None) -> PartitionResult:
    """The stock partitioning, then every rule of ``workaround.partitioner.rules.exclusion`` (copies, the
    delegate's limits, what OpenVINO computes differently, the runtime's kernels), and the compile specs the
    checker reads."""
    # The stock method, kept before any install(), so both routes run the stock rule exactly once.
    declare_ambiguous_layouts_default(exported_program)
    with sizes_read_in_the_delegate(stock, exported_program):
        result = PARTITION_RULE.stock(stock, exported_program)
    tags = hand_back_unsafe_nodes(result.tagged_exported_program, result.partition_tags, special_values, runtime)
    keep_large_constants_out_of_blobs(result.tagged_exported_program)
    own_mutated_buffers(result.tagged_exported_program)
    # What the checker reads back (workaround.contract.delegate_specs), and what install() was given for every
    # partition.
    added = [CompileSpec(GUARDED_KEY, GUARDED_BY), *_INSTALLED_COMPILE_SPECS]
    if special_values == SpecialValues.TORCH:  # its preprocess then rewrites what it can exactly (exact_rewrites)
        added.append(CompileSpec(SPECIAL_VALUES_KEY, str(special_values).encode()))
    tags = {tag: with_compile_specs(spec, added) for tag, spec in tags.items()}
    mark_partitioned_nodes(result.tagged_exported_program, TAG)
    return PartitionResult(tagged_exported_program=result.tagged_exported_program, partition_tags=tags)


def with_compile_specs(spec: DelegationSpec, added: list[CompileSpec]) -> DelegationSpec:
    present = {compile_spec.key for compile_spec in spec.compile_specs}
    missing = [compile_spec for compile_spec in added if compile_spec.key not in present]
    return DelegationSpec(spec.backend_id, [*spec.compile_specs, *missing])


class CopySafeOpenvinoPartitioner(Partitioner):  # type: ignore[misc]  # ExecuTorch is untyped
    """OpenvinoPartitioner plus the copy exclusion and the semantics guards. The stock class is final, so
    this composes it.

    ``special_values="torch"`` also hands back the ops OpenVINO treats NaN, +-inf and -0.0 differently in
    (``relu``, ``softmax``, ``max_pool``, ``exp``, comparisons, ...:
    ``workaround.partitioner.rules.openvino_hand_back``), at the cost of most of a model's delegation;
    ``"openvino"`` (the default) leaves them to OpenVINO.

    ``runtime_operators``: the operators the ExecuTorch runtime that will run the program registers
    (``aten::sort.values``, ...: its ``_get_operator_names()``), when that is not the installed one. A node is
    handed back only to a runtime with its kernel; otherwise lowering is refused (``CannotHandBackError``).
    """

    def __init__(self, compile_spec: list[CompileSpec], op_types_to_skip: set[str] | None = None,
                 op_names_to_skip: set[str] | None = None, *, special_values: str = SpecialValues.OPENVINO,
                 runtime_operators: Collection[str] | None = None) -> None:
        if special_values not in set(SpecialValues):
            raise ValueError(f"special_values must be one of {[str(value) for value in SpecialValues]}, not "
                             f"{special_values!r}")
        if isinstance(runtime_operators, str):
            raise TypeError("runtime_operators must be a collection of operator names, not one string")
        self.special_values = SpecialValues(special_values)
        self.runtime = ExecutorchRuntime(runtime_operators)
        self.stock = OpenvinoPartitioner(compile_spec, op_types_to_skip, op_names_to_skip)
        super().__init__()
        self.delegation_spec = self.stock.delegation_spec
        for patch in DELEGATE_PATCHES:
            patch.apply()

    def ops_to_not_decompose(self, ep: ExportedProgram
                             ) -> tuple[list[torch._ops.OpOverload], Callable[[torch.fx.Node], bool] | None]:
        return _ops_to_keep_for_the_delegate(self.stock, ep)

    def partition(self, exported_program: ExportedProgram) -> PartitionResult:
        return _partition_by_the_rules(self.stock, exported_program, self.special_values, self.runtime)


PARTITION_RULE = MethodPatch(OpenvinoPartitioner, "partition", _partition_by_the_rules)
KEEP_RULE = MethodPatch(OpenvinoPartitioner, "ops_to_not_decompose", _ops_to_keep_for_the_delegate)
# What install() puts on OpenvinoPartitioner itself.
PARTITIONER_PATCHES = (PARTITION_RULE, KEEP_RULE)
# What constructing the partitioner installs; they act only on partitions the partition rule made.
DELEGATE_PATCHES = (BOUNDARY_DIM_ORDERS, INLINE_BLOBS)


def installed_patches() -> tuple[MethodPatch, ...]:
    """What ``install()`` applies: the partitioner's rules, the delegate's hooks, and ExecuTorch's LLM pipeline
    let through without weight compression (``workaround.partitioner.hooks.llm_pipeline``)."""
    return (*PARTITIONER_PATCHES, *DELEGATE_PATCHES, *llm_pipeline_patches())


# Compile specs install() gives every partition beside its partitioner's own (which win on the same key).
_INSTALLED_COMPILE_SPECS: list[CompileSpec] = []


def install(*, compile_specs: Sequence[CompileSpec] = ()) -> None:
    """Make every OpenvinoPartitioner, existing or future, apply the copy exclusion, compile its
    partitions to honour their boundary dim orders, and keep their blobs inline; and let ExecuTorch's LLM
    pipeline export with the OpenVINO backend and no weight compression.

    ``compile_specs`` reach every partition, for scripts that build their partitioner where the caller cannot
    add any: ExecuTorch's LLM pipeline has no option for OpenVINO's ``DYNAMIC_QUANTIZATION_GROUP_SIZE``, which
    trades compressed weights' exactness for int8 speed
    (``workaround.partitioner.delegate.compressed_weights``)."""
    _INSTALLED_COMPILE_SPECS[:] = compile_specs
    for patch in installed_patches():
        patch.apply()


def uninstall() -> None:
    """Restore the stock OpenvinoPartitioner.partition and .ops_to_not_decompose,
    OpenvinoBackend.preprocess, EdgeProgramManager.to_executorch and the LLM pipeline's functions; forget the
    compile specs ``install`` was given."""
    _INSTALLED_COMPILE_SPECS.clear()
    for patch in installed_patches():
        patch.restore()


def is_installed() -> bool:
    return PARTITION_RULE.applied()


def installed_compile_specs() -> tuple[CompileSpec, ...]:
    """The compile specs ``install()`` was last given (none when not installed)."""
    return tuple(_INSTALLED_COMPILE_SPECS)


@contextlib.contextmanager
def copy_safe_openvino(*, compile_specs: Sequence[CompileSpec] | None = None) -> Iterator[None]:
    """``with copy_safe_openvino(): <unchanged export script>``: installed inside, with ``compile_specs`` (by
    default those an enclosing ``install()`` was given); after, exactly what was installed before, compile specs
    included, however the blocks and ``install()`` calls nest or interleave."""
    applied = [(patch, patch.applied()) for patch in installed_patches()]
    specs = installed_compile_specs()
    install(compile_specs=specs if compile_specs is None else compile_specs)
    try:
        yield
    finally:
        for patch, was_applied in applied:
            patch.apply() if was_applied else patch.restore()
        _INSTALLED_COMPILE_SPECS[:] = specs
