"""Does the gate notice? Break the workaround in one known way, run ``tox -e ov2026.4``, expect it red.

Each mutation is one exact edit of one file of ``workaround/`` or of the gate's own setup (the text must
occur exactly once, so a refactoring that moves it makes the mutation fail loudly instead of silently
testing nothing). It is
applied to a scratch copy of the project, never to the working tree, and the gate runs there with this
checkout's tox environment (``--workdir``), as ``tox -e ov2026.4`` would. By default the gate stops at
its first failure (``-x``): a red gate and the test that caught it; ``--all`` runs it whole and lists
every failing test.

    python -m tests.tools.mutations [--only a,c] [--all] [--json FILE] [--record] [-- PYTEST ARGUMENTS]

``--record`` keeps each mutation's run, with its commit, date and the pytest arguments it ran with, as the one
docs/ quote (``docs/data/mutation-runs.json``); the gate's ``test_figures`` holds every mutation to a recorded red
run of its current definition, so a mutation added or moved is run again before it lands.

Arguments after ``--`` go to the gate's pytest (``-- -m "not peer_suite"`` leaves out the op-test runs, whose two
minutes each mutation would otherwise wait for: a mutation red without them is red with them).

Exit status: 0 every mutation turned the gate red (a test failed), 1 some mutation left it green or the gate
did not run (tox missing, an environment error: no test failed), 2 usage error.
Not part of the gate itself (each mutation costs a gate run).
"""

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.tools.gate_runs import commit, read_record, today

PROJECT = Path(__file__).resolve().parents[2]
MUTATION_RUNS = PROJECT / "docs" / "data" / "mutation-runs.json"
OWN_TEXT_CHECK = "tests/gate/test_gate_setup.py::test_each_mutation_still_applies_to_exactly_one_place"
EMPTY_OR_SCALAR_DOC = '    """\'0-d\' or \'0-size\' for what the delegate cannot take at all, else None."""\n'
# name -> (what it breaks, file, the text, what replaces it)
MUTATIONS = {
    "a": ("the in-delegate input dim-order conversion disabled", "workaround/partitioner/hooks/preprocess.py",
          "            read_input_in(model, index, list(order))", "            pass"),
    "b": ("the in-delegate output dim-order conversion disabled", "workaround/partitioner/hooks/preprocess.py",
          "            write_output_in(model, index, list(order))", "            pass"),
    "c": ("blobs no longer kept inline", "workaround/partitioner/hooks/inline_blobs.py",
          "    if has_marked_openvino_delegate(self):", "    if False:"),
    "d": ("dim_order_ops._clone_dim_order removed from the copy op set",
          "workaround/partitioner/rules/copy_ops.py",
          "    torch.ops.dim_order_ops._clone_dim_order.default,\n", ""),
    "e": ("the 0-d / 0-size guard disabled", "workaround/partitioner/rules/delegate_limits.py",
          EMPTY_OR_SCALAR_DOC, EMPTY_OR_SCALAR_DOC + "    return None\n"),
    "f": ("the dynamic-output guard disabled", "workaround/partitioner/rules/delegate_limits.py",
          '        if is_dynamic(tensor):\n            return "dynamic-shaped output"\n', ""),
    "g": ("declare_ambiguous_layouts_default made a no-op", "workaround/partitioner/layouts/ambiguous_layouts.py",
          "    user_inputs = set(exported_program.graph_signature.user_inputs)\n",
          "    return\n    user_inputs = set(exported_program.graph_signature.user_inputs)\n"),
    "h": ("unused 0-size constants no longer dropped", "workaround/partitioner/hooks/inline_blobs.py",
          "            drop_unused_empty_constants(self.exported_program(name))", "            pass"),
    "i": ("the float64 / unmappable dtype guard disabled", "workaround/partitioner/rules/openvino_hand_back.py",
          "def unsupported_dtype(node: torch.fx.Node) -> str | None:\n",
          "def unsupported_dtype(node: torch.fx.Node) -> str | None:\n    return None\n"),
    "j": ("the int64-beyond-int32 guard disabled", "workaround/partitioner/rules/openvino_hand_back.py",
          "def int64_out_of_int32(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n",
          "def int64_out_of_int32(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n    return None\n"),
    "k": ("the uint8 / int8 wrap-around guard disabled", "workaround/partitioner/rules/openvino_hand_back.py",
          "def wraps_around(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n",
          "def wraps_around(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n    return None\n"),
    "l": ("the division and remainder guard disabled", "workaround/partitioner/rules/openvino_hand_back.py",
          "def divides_differently(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n",
          "def divides_differently(node: torch.fx.Node, ranges: ValueRanges) -> str | None:\n    return None\n"),
    "m": ("the Abs of a constant no longer rewritten in the delegate",
          "workaround/partitioner/exact_rewrites/constant_abs.py",
          "        if depends_on_no_parameter(source.get_node()):", "        if False:"),
    "n": ("the avg_pool guard disabled", "workaround/partitioner/rules/openvino_hand_back.py",
          "def pools_differently(node: torch.fx.Node) -> str | None:\n",
          "def pools_differently(node: torch.fx.Node) -> str | None:\n    return None\n"),
    "o": ("special_values='torch' no longer hands anything back",
          "workaround/partitioner/rules/openvino_hand_back.py",
          "        if torch_only and special_values != SpecialValues.TORCH:", "        if torch_only:"),
    "p": ("reflection_pad2d no longer kept undecomposed", "workaround/partitioner/rules/openvino_hand_back.py",
          "EXACT_WHEN_KEPT = (aten.reflection_pad2d.default,)", "EXACT_WHEN_KEPT = ()"),
    "q": ("indices no longer bounded by the table they index", "workaround/partitioner/rules/value_ranges.py",
          "        bounded_by_use = indices_bounded_by_shapes(exported_program.graph)",
          "        bounded_by_use = {}"),
    "r": ("the gate's f32 cap removed (OpenVINO at the CPU's default, bf16 here)", "tests/conftest.py",
          "    os.environ.setdefault(_variable, _value)\n", "    pass\n"),
    "s": ("the checker no longer compares a segment's extent with the file", "workaround/checker/pte/reader.py",
          "    if start + size > layout.file_size:", "    if False:"),
    "t": ("the checker no longer compares the extended header's program size with the file",
          "workaround/checker/pte/verifier.py", "    if not 8 <= program_size <= size:",
          "    if not 8 <= program_size:"),
    "u": ("a failure inside the checker is a traceback again", "workaround/checker/command_line.py",
          "    except Exception as error:\n        if show_traceback", "    except RuntimeError as error:\n"
          "        if show_traceback"),
    "v": ("the checker reads special files again", "workaround/checker/pte/file.py",
          "    if not stat.S_ISREG(status.st_mode):", "    if False:"),
    "w": ("the checker's IR depth limit removed", "workaround/checker/blob_model.py",
          "                    if len(open_elements) > MAX_DEPTH:", "                    if False:"),
    "x": ("the checker no longer checks where planned tensors end", "workaround/checker/pte/method_checks.py",
          "    if offset + nbytes > buffer_sizes[memory_id]:", "    if False:"),
    "y": ("a node is handed back to a runtime without its kernel again",
          "workaround/partitioner/rules/runtime_kernels.py",
          "        return name if name is not None and name not in self.registered() else None",
          "        return None"),
    "z": ("ExecuTorch's kernels trusted again where they compute otherwise",
          "workaround/partitioner/rules/exclusion.py",
          "        elif differs := kernel_differs(node, ranges, special_values):",
          "        elif differs := None:"),
    "aa": ("integer comparisons, extremes and powers through float32 left to OpenVINO",
           "workaround/partitioner/rules/openvino_hand_back.py",
           "    if op not in INTEGERS_THROUGH_FLOAT32 and op not in POWERS:", "    if True:"),
    "ab": ("float16 values computed inside a partition left unrounded",
           "workaround/partitioner/rules/openvino_hand_back.py",
           "        return differences.named(\"float16_rounding_dropped\").computes",
           "        return None"),
    "ac": ("the exact rewrites not applied (NaN dropped again, or handed back to no kernel)",
           "workaround/partitioner/exact_rewrites/__init__.py", "            rewrite_pass.rewrite(model)",
           "            pass"),
    "ad": ("the checker no longer flags an operator the named runtime lacks",
           "workaround/checker/program_check.py",
           "    if registered is None:\n        return []", "    if True:\n        return []"),
    "ae": ("the AVX2 class's expectation of NaN comparisons dropped (red where the gate reaches AVX2)",
           "repro/harness/models/catalogue.py", "stock=wrong(NAN_GREATER, right_on=frozenset({CpuClass.AVX2}))",
           "stock=wrong(NAN_GREATER)"),
    "af": ("ReLU under special_values='torch' turns -0.0 into +0.0 again",
           "workaround/partitioner/exact_rewrites/nan_propagating_extremes.py",
           "        return ops.select(ops.less(x, zero), zero, x).output(0)",
           "        return ops.select(ops.less_equal(x, zero), zero, x).output(0)"),
    "ag": ("special_values='torch' leaves x + 0 to OpenVINO, which keeps -0.0 where PyTorch makes it +0.0",
           "workaround/partitioner/exact_rewrites/signed_zeros.py",
           "        return ops.add(positive_zeros(x), zeros).output(0)", "        return None"),
    "ah": ("a KV cache's position read with .item() no longer bounded by torch.export's checks (the int64 guard "
           "hands it back, and the dynamic cache model splits)", "workaround/partitioner/rules/value_ranges.py",
           "            narrow(bounded_by_use, source, checked)\n", "            pass\n"),
    "ai": ("compressed weights' activations left to the importing CPU's dynamic quantization",
           "workaround/partitioner/hooks/preprocess.py",
           "        pin_dynamic_quantization(model, dynamic_quantization)\n",
           "        pass\n"),
    "aj": ("a compressed weight's float16 decompression handed back like float16 activations",
           "workaround/partitioner/rules/openvino_hand_back.py",
           "    if not is_float16(node) or decompressed_weight(node, ranges):",
           "    if not is_float16(node):"),
}
IGNORED = shutil.ignore_patterns(".git", ".tox", ".matrix", "out", "__pycache__", ".pytest_cache",
                                 ".hypothesis", ".ruff_cache")


class MutationDoesNotApply(RuntimeError):
    """The text a mutation edits is not in its file exactly once: update MUTATIONS."""


def mutated_copy(name, folder):
    """A copy of the project in ``folder`` with mutation ``name`` applied."""
    _, relative, text, replacement = MUTATIONS[name]
    shutil.copytree(PROJECT, folder, ignore=IGNORED)
    target = folder / relative
    source = target.read_text()
    if source.count(text) != 1:
        raise MutationDoesNotApply(f"mutation {name}: {text.strip()!r} occurs {source.count(text)} times in "
                                   f"{relative}")
    target.write_text(source.replace(text, replacement))
    return folder


def definition(name):
    """A digest of what mutation ``name`` edits (file, text, replacement): a recorded run is of this definition."""
    return hashlib.sha256(json.dumps(MUTATIONS[name][1:]).encode()).hexdigest()[:12]


def record(results):
    """Keep these runs as their mutations' recorded ones (``MUTATION_RUNS``), in ``MUTATIONS``' order."""
    runs = read_record(MUTATION_RUNS)
    runs |= {result["mutation"]: {key: value for key, value in result.items() if key != "mutation"}
             for result in results}
    ordered = {name: runs[name] for name in MUTATIONS if name in runs}
    MUTATION_RUNS.parent.mkdir(parents=True, exist_ok=True)
    MUTATION_RUNS.write_text(json.dumps(ordered, indent=1) + "\n")


def recorded_runs():
    """{mutation: its recorded run, or None where there is none of its current definition}."""
    runs = read_record(MUTATION_RUNS)
    return {name: run if (run := runs.get(name)) and run["definition"] == definition(name) else None
            for name in MUTATIONS}


def run_gate(name, folder, stop_at_first, pytest_arguments=()):
    """(exit code, failing test ids, seconds) of ``tox -e ov2026.4`` in ``folder``, mutated by ``name``. The gate's
    check that the mutation's text is in its file fails in the mutated copy by construction, so it is deselected:
    it would otherwise catch every mutation."""
    started = time.monotonic()
    options = ["-x"] if stop_at_first else []
    options += ["--deselect", f"{OWN_TEXT_CHECK}[{name}]"]
    result = subprocess.run([sys.executable, "-m", "tox", "--workdir", str(PROJECT / ".tox"), "-e", "ov2026.4",
                             "--", "-p", "no:cacheprovider", "-q", *options, *pytest_arguments], cwd=folder,
                            capture_output=True, text=True, check=False)
    failing = re.findall(r"^(?:FAILED|ERROR) (\S+)", result.stdout, re.M)
    return result.returncode, failing, round(time.monotonic() - started)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="exit status: 0 every mutation turned the gate red, 1 some left it "
                                            "green, 2 usage error")
    parser.add_argument("--only", type=lambda text: text.split(","), default=list(MUTATIONS),
                        help=f"comma-separated mutations to run (default all: {','.join(MUTATIONS)})")
    parser.add_argument("--all", action="store_true", help="run the whole gate, listing every failing test")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--record", action="store_true",
                        help=f"keep the results as the recorded runs ({MUTATION_RUNS.relative_to(PROJECT)})")
    parser.add_argument("pytest_arguments", nargs="*", metavar="-- PYTEST ARGUMENTS",
                        help="passed to the gate's pytest after its own options")
    args = parser.parse_args(argv)
    if unknown := [name for name in args.only if name not in MUTATIONS]:
        parser.error(f"--only: no such mutation: {', '.join(unknown)}")
    results = []
    for name in args.only:
        with tempfile.TemporaryDirectory() as scratch:
            at = commit()
            code, failing, seconds = run_gate(name, mutated_copy(name, Path(scratch) / "project"), not args.all,
                                              args.pytest_arguments)
        results.append({"mutation": name, "what": MUTATIONS[name][0], "gate_exit": code, "caught_by": failing,
                        "seconds": seconds, "definition": definition(name), "commit": at,
                        "date": today(), "pytest_arguments": args.pytest_arguments})
        verdict = ("RED" if failing else "GREEN (not caught)" if code == 0
                   else f"NOT RUN (exit {code}, no test failed)")
        print(f"({name}) {MUTATIONS[name][0]}: gate {verdict} after {seconds} s; caught by "
              f"{', '.join(failing) or 'nothing'}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if args.record:
        record(results)
    return 0 if all(result["caught_by"] for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
