"""A stateful program's methods under the loads deployments put on them, in a child process: methods used
interleaved and from several threads, and the program loaded again and again.

Why: a delegate that keeps state (``workaround.partitioner.delegate.state``) keeps it in the infer request it makes
for each loaded method. Each method must carry its own state, whatever runs beside it, and a program loaded and
dropped many times must give its memory back. ``executorch.runtime``'s ``Program`` caches the methods it loads
(``load_method`` twice gives one method, one state), so each method here comes from a program loaded by path of its
own, as two sessions of a server would hold them. Method ``k`` runs the calls of ``repro.harness.llm.pipeline`` (a
prefill and greedy decode steps) with each token moved by ``7 k``: method 0's are the reference's, the others'
differ, so a state two methods shared would show in both.

``python -m repro.harness.runtime.methods_under_load PTE CALLS_PT WAY N`` (WAY ``interleaved``: call by call in
turn; ``threads``: one thread a method, all at once; ``reloads``: N loads one after the other) writes, with
``torch.save``, ``{"alone": [[logits of each call] of each method, run by itself], "together": [... run the WAY],
"rss_kib": [after each load]}`` to ``CALLS_PT.out``.
"""

import sys
import threading
from pathlib import Path
from typing import Any

WAYS = ("interleaved", "threads", "reloads")


def resident_kib() -> int:
    """This process's resident memory (VmRSS)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc/self/status")


def moved(calls: list, method: int, vocabulary: int) -> list:
    """The calls of method ``method``: each token moved by ``7 * method`` in the vocabulary, positions kept."""
    return [[(call[0] + 7 * method) % vocabulary, *call[1:]] for call in calls]


def run_alone(pte: Path, calls: list) -> list[Any]:
    from executorch.runtime import Runtime

    program = Runtime.get().load_program(pte)
    method = program.load_method("forward")
    return [method.execute(call)[0].clone() for call in calls]


def run_interleaved(methods: list[Any], sequences: list[list]) -> list[list[Any]]:
    """Call by call in turn: A1 B1 A2 B2 ..."""
    outputs: list[list[Any]] = [[] for _ in methods]
    for step in range(len(sequences[0])):
        for method, calls, said in zip(methods, sequences, outputs, strict=True):
            said.append(method.execute(calls[step])[0].clone())
    return outputs


def run_threads(methods: list[Any], sequences: list[list]) -> list[list[Any]]:
    """One thread a method, released together."""
    outputs: list[list[Any]] = [[] for _ in methods]
    start = threading.Barrier(len(methods))

    def work(method: Any, calls: list, said: list[Any]) -> None:
        start.wait()
        said.extend(method.execute(call)[0].clone() for call in calls)

    threads = [threading.Thread(target=work, args=triple)
               for triple in zip(methods, sequences, outputs, strict=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outputs


def run_reloads(pte: Path, calls: list, count: int) -> tuple[list[list[Any]], list[int]]:
    """The program loaded by path ``count`` times, its method run through the calls once, then dropped: the first
    load's outputs and the last's, and the resident memory after each load."""
    from executorch.runtime import Runtime

    first: list[Any] = []
    resident = []
    for _ in range(count):
        program = Runtime.get().load_program(pte)
        method = program.load_method("forward")
        last = [method.execute(call)[0].clone() for call in calls]
        first = first or last
        del method, program
        resident.append(resident_kib())
    return [first, last], resident


def main(pte: str, calls_file: str, way: str, count: str) -> None:
    import torch
    from executorch.runtime import Runtime

    from workaround.contract.openvino_library import point_executorch_at_openvino

    point_executorch_at_openvino()
    reference = torch.load(calls_file)
    path, resident = Path(pte), []
    if way == "reloads":
        together, resident = run_reloads(path, reference["calls"], int(count))
        alone = together[:1]
    else:
        vocabulary = reference["outputs"][0].shape[-1]
        sequences = [moved(reference["calls"], method, vocabulary) for method in range(int(count))]
        alone = [run_alone(path, calls) for calls in sequences]
        programs = [Runtime.get().load_program(path) for _ in sequences]
        methods = [program.load_method("forward") for program in programs]
        together = (run_interleaved if way == "interleaved" else run_threads)(methods, sequences)
    torch.save({"alone": alone, "together": together, "rss_kib": resident}, f"{calls_file}.out")


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[3] not in WAYS:
        sys.exit(f"usage: python -m repro.harness.runtime.methods_under_load PTE CALLS_PT {'|'.join(WAYS)} N")
    main(*sys.argv[1:5])
