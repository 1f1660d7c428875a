"""What the release matrix costs: cold vs warm, and warm against the floor.

Runs ``repro/matrix.py`` over the given releases (default: all on the index) twice with a fresh
environment cache — cold (every environment created), then warm (all reused) — and then the
floor: the plain reproducer run once per release in the ready environments, as many at a time
as the matrix runs (``-j``). Prints one JSON object and a summary line.

    python benchmarks/matrix_cost.py [--versions 2024.0.0,2026.4.1] [-j 2]
"""

import argparse
import concurrent.futures
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
MATRIX, REPRODUCER = PROJECT / "repro" / "matrix.py", PROJECT / "repro" / "plain_openvino.py"


def timed(command):
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=PROJECT)
    return time.perf_counter() - started


def floor(cache, jobs):
    pythons = sorted(cache.glob("ov-*/bin/python"))
    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda python: subprocess.run([str(python), str(REPRODUCER), "--json"], capture_output=True,
                                                    check=False, cwd=PROJECT), pythons))
    return time.perf_counter() - started, len(pythons)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", help="comma-separated releases (default: all on the index)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        cache, out = Path(folder) / "envs", Path(folder) / "out"
        command = [sys.executable, str(MATRIX), "--cache", str(cache), "--out", str(out), "-j", str(args.jobs)]
        command += ["--versions", args.versions] if args.versions else []
        cold, warm = timed(command), timed(command)
        floor_seconds, releases = floor(cache, args.jobs)
    result = {"benchmark": "matrix_cost", "releases": releases, "jobs": args.jobs, "cold_s": cold, "warm_s": warm,
              "floor_s": floor_seconds, "warm_over_floor": warm / floor_seconds}
    print(json.dumps(result, indent=1))
    print(f"matrix over {releases} releases: cold {cold:.1f} s, warm {warm:.1f} s, floor {floor_seconds:.1f} s "
          f"(warm = {warm / floor_seconds:.2f}x the floor, -j {args.jobs})", file=sys.stderr)


if __name__ == "__main__":
    main()
