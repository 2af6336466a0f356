"""Latency of `scripts/ha history <goal> add` at 0, 1k, 10k and 100k stored events.

Each store is generated directly (bench/history_fixture.py, the store's own encoding), then
`add` runs RUNS times as a user runs it (a new process each time, flags form, auto request
id, one file evidence) and the median wall time is printed. Target: < 150 ms at 10k.
Bytecode caching is left on (PYTHONDONTWRITEBYTECODE is removed from the environment), as
for an installed tool.

    .venv/bin/python bench/history_add.py [--runs 7] [--sizes 0,1000,10000,100000]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import history_fixture as fx  # noqa: E402


def measure(repo: str, goal: str, runs: int) -> list[float]:
    env = {k: v for k, v in fx.ENV.items() if k != "PYTHONDONTWRITEBYTECODE"}
    argv = [fx.HA, "history", goal, "add", "--kind", "관측", "--summary", "bench add",
            "--target", "AC-1", "--ref", "run:2", "--checked-ref", "file:src/count.go"]
    subprocess.run(argv, cwd=repo, env=env, check=True, capture_output=True)  # warm caches
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(argv, cwd=repo, env=env, check=True, capture_output=True)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--sizes", default="0,1000,10000,100000")
    args = ap.parse_args()
    print(f"ha history add latency (median of {args.runs} runs, ms)")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            repo, goal = fx.make_started_repo(Path(tmp) / f"r{n}")
            t0 = time.perf_counter()
            fx.write_history(repo, goal, n)
            gen = time.perf_counter() - t0
            times = measure(repo, goal, args.runs)
            print(f"{n:>7} events: median {statistics.median(times):7.1f}  "
                  f"min {min(times):7.1f}  max {max(times):7.1f}  (store generated in "
                  f"{gen:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
