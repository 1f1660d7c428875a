"""A fixed-size KV cache kept as OpenVINO state and updated at one position costs a whole copy of the cache at
every step on the CPU plugin, whichever way the update is written.

An LLM exported with a static KV cache (ExecuTorch's `export_llm`, most `torch.export` LLM code) writes one
token's keys and values into a [batch, kv_heads, context, head_dim] buffer per layer and step:
`cache[:, :, pos] = new`. Kept inside the model as a ReadValue / Assign pair, the ideal step reads the cache
once (attention) and writes one row. Measured here, one decode step over `--caches` such caches (32: a 16-layer
model's keys and values), each read by an attention-like MatMul:

1. reading only: the caches are inputs, set once and read (a state needs its Assign), the floor an in-place
   update would reach;
2. what OpenVINO's PyTorch frontend makes of `cache[:, :, pos] = new` (index_put with leading None indices):
   Transpose to [context, batch, heads, dim], ScatterNDUpdate at [pos], Transpose back;
3. ScatterUpdate on axis 2, no transposes;
4. ScatterNDUpdate with full [0, head, pos] indices, no transposes.

Forms 2-4 give the same values (checked). Each update moves the whole cache: form 2 in its two Transposes, forms
3 and 4 in Assign, which copies the state when the updated tensor is also read. At a 2048-token context every
form costs a multiple of reading only; at 32 tokens the difference is small. Profile with PERF_COUNT to see
where (`--profile`).

Needs `pip install openvino numpy`. Exit status (git bisect run): 0 some form updates the cache in place (within
1.5x of reading only), 1 every form copies it (the cost reproduced), 2 usage error, 125 could not test.
"""

import argparse
import collections
import platform
import sys
import time

import numpy as np

try:
    import openvino as ov
    try:
        import openvino.opset13 as ops
        from openvino.op.util import Variable, VariableInfo
    except ImportError:  # releases before 2024.0 kept them under openvino.runtime
        import openvino.runtime.opset13 as ops
        from openvino.runtime.op.util import Variable, VariableInfo
except ImportError as missing:
    print(f"COULD NOT TEST: {missing}", file=sys.stderr)
    sys.exit(125)

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--context", type=int, default=2048, help="tokens each cache holds (default 2048)")
parser.add_argument("--caches", type=int, default=32, help="caches updated per step (default 32)")
parser.add_argument("--repeats", type=int, default=30, help="timed steps of each form, interleaved (default 30)")
parser.add_argument("--profile", action="store_true", help="also print each form's time per node type")
args = parser.parse_args()
for name in ("context", "caches", "repeats"):
    if getattr(args, name) < 1:
        parser.error(f"--{name} takes 1 or more")

HEADS, DIM = 8, 64  # Llama-3.2-1B's KV heads and head size
FORMS = ("reading only", "frontend: Transpose, ScatterNDUpdate, Transpose", "ScatterUpdate on axis 2",
         "ScatterNDUpdate at [0, head, pos]")
THRESHOLD = 1.5  # an in-place update of one row costs next to nothing beside reading the whole cache


def constant(values, dtype=np.int64):
    return ops.constant(np.array(values, dtype))


def updated(cache, pos, new, form):
    if form == FORMS[1]:
        moved = ops.transpose(cache, constant([2, 0, 1, 3]))
        row = ops.transpose(new, constant([2, 0, 1, 3]))
        rows = ops.scatter_nd_update(moved, ops.unsqueeze(pos, constant([1])), row)
        return ops.transpose(rows, constant([1, 2, 0, 3]))
    if form == FORMS[2]:
        return ops.scatter_update(cache, pos, new, constant(2))
    heads = constant(np.arange(HEADS).reshape(1, HEADS, 1, 1))
    positions = ops.broadcast(ops.reshape(pos, constant([1, 1, 1, 1]), False), constant([1, HEADS, 1, 1]))
    indices = ops.concat([constant(np.zeros((1, HEADS, 1, 1))), heads, positions], 3)
    return ops.scatter_nd_update(cache, indices, new)


def model(form):
    pos = ops.parameter([1], ov.Type.i64, name="pos")
    new = ops.parameter([1, HEADS, 1, DIM], ov.Type.f32, name="new")
    scores, sinks, caches = [], [], []
    for index in range(args.caches):
        if form == FORMS[0]:
            cache = ops.parameter([1, HEADS, args.context, DIM], ov.Type.f32, name=f"cache{index}")
            caches.append(cache)
        else:
            info = VariableInfo()
            info.data_shape, info.data_type, info.variable_id = (ov.PartialShape([1, HEADS, args.context, DIM]),
                                                                 ov.Type.f32, f"cache{index}")
            variable = Variable(info)
            cache = updated(ops.read_value(variable), pos, new, form)
            sinks.append(ops.assign(cache, variable))
        scores.append(ops.reduce_sum(ops.matmul(new, cache, False, True), constant([0, 1, 2, 3]), False))
    total = scores[0]
    for score in scores[1:]:
        total = ops.add(total, score)
    return ov.Model([ops.result(total)], sinks, [pos, new, *caches], form)


print(f"OpenVINO {ov.get_version()}, Python {platform.python_version()}, {platform.platform()}, "
      f"{platform.processor() or platform.machine()}")
print(f"{args.caches} caches of [1, {HEADS}, {args.context}, {DIM}] f32 "
      f"({args.caches * HEADS * args.context * DIM * 4 / 1e6:.0f} MB), one token a step")
core = ov.Core()
config = {"INFERENCE_PRECISION_HINT": "f32", "PERF_COUNT": args.profile}
requests = {form: core.compile_model(model(form), "CPU", config).create_infer_request() for form in FORMS}
new = np.random.default_rng(0).standard_normal((1, HEADS, 1, DIM)).astype(np.float32)
for index in range(args.caches):
    requests[FORMS[0]].set_tensor(f"cache{index}", ov.Tensor(np.zeros((1, HEADS, args.context, DIM), np.float32)))
# The same three steps in each updating form: the caches hold the same rows, so the scores are equal.
values = {}
for form in FORMS[1:]:
    for step in range(3):
        requests[form].infer({"pos": np.array([args.context - 1 - step]), "new": new * (step + 1)})
    values[form] = float(requests[form].get_output_tensor(0).data)
if len(set(values.values())) != 1:
    print(f"COULD NOT TEST: the update forms disagree: {values}", file=sys.stderr)
    sys.exit(125)
steps = collections.defaultdict(list)
for _ in range(args.repeats):
    for form, request in requests.items():
        started = time.perf_counter()
        request.infer({"pos": np.array([args.context // 2]), "new": new})
        steps[form].append(time.perf_counter() - started)
floor = float(np.median(steps[FORMS[0]]))
ratios = {form: float(np.median(steps[form])) / floor for form in FORMS[1:]}
for form in FORMS:
    line = f"{form}: {np.median(steps[form]) * 1e3:.2f} ms a step (median of {args.repeats})"
    print(line + (f", {ratios[form]:.2f}x reading only" if form in ratios else ""))
    if args.profile:
        by_type = collections.Counter()
        for node in requests[form].get_profiling_info():
            by_type[node.node_type] += node.real_time.total_seconds() * 1e3
        print("    " + ", ".join(f"{kind} {ms:.2f} ms" for kind, ms in by_type.most_common(4)))
if min(ratios.values()) > THRESHOLD:
    print(f"COST REPRODUCED: every update form costs {min(ratios.values()):.2f}x or more of reading the caches "
          f"alone: each step copies every whole cache to write one row")
    sys.exit(1)
print("some form updates the caches in place")
sys.exit(0)
