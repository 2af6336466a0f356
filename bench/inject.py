#!/usr/bin/env python3
"""Cost of recall for automatic injection (judgment.inject.answers), in-process, as the
PreToolUse hook pays it: in a fresh interpreter, from the import of judgment.inject to the
answer (its imports, the lexicon and the ledger pass included).

For each size the ledger of bench/ledger.py is built twice: its 20 projects (the asked project
holds 1 record in 20) and one project holding every record (the worst case: every line is
parsed and scored). Each run is a new `python` process that times the call with perf_counter and
prints it; the floor is `python -c pass`'s wall time measured in the same run. Printed: median
and p90 of the call, and p90 of (floor + call) / floor, the share of the hook's budget (at most
2.5x at 1k records and 3.5x at 10k for the whole hook, docs/claude-kit.md). Figures are
printed, never asserted.

    .venv/bin/python bench/inject.py [--sizes 1000,10000] [--runs 21]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import ledger as bench_ledger  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUESTION = "Which retry approach should the worker path use under load?"
OPTIONS = ["exponential backoff", "a circuit breaker"]
CALL = """
import sys, time
t = time.perf_counter()
sys.path.insert(0, {pylib!r})
from judgment_toolkit.judgment import inject
found = inject.answers({path!r}, {project!r}, {question!r}, {options!r})
print(time.perf_counter() - t, len(found))
"""


def wall(argv, env):
    t = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - t, out


def p90(values):
    return sorted(values)[max(0, -(-len(values) * 9 // 10) - 1)]


def build(path, n, projects):
    saved = bench_ledger.PROJECTS
    bench_ledger.PROJECTS = projects
    try:
        bench_ledger.build(path, n)
    finally:
        bench_ledger.PROJECTS = saved


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    work = Path(tempfile.mkdtemp(prefix="inject-bench-"))
    print(f"# inject bench: python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average "
          f"{os.getloadavg()[0]:.1f} at start, {args.runs} runs each")
    print()
    print("| records | ledger | floor `python -c pass` s (median) | call s (median) | call s (p90) "
          "| call / floor (p90) | (floor + call) / floor (p90) | answers |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            for shape, projects, project in (("20 projects", 20, "project-07"),
                                             ("one project", 1, "project-00")):
                path = work / f"ledger-{n}-{projects}.jsonl"
                build(path, n, projects)
                code = CALL.format(pylib=str(ROOT / "pylib"), path=str(path), project=project,
                                   question=QUESTION, options=OPTIONS)
                floors, calls, ratios, found = [], [], [], ""
                for _ in range(args.runs):
                    floor, _ = wall([sys.executable, "-c", "pass"], env)
                    _, out = wall([sys.executable, "-c", code], env)
                    call, found = out.split()
                    floors.append(floor)
                    calls.append(float(call))
                    ratios.append((floor + float(call)) / floor)
                floor = statistics.median(floors)
                print(f"| {n:,} | {shape} | {floor:.4f} | {statistics.median(calls):.4f} "
                      f"| {p90(calls):.4f} | {p90([c / f for c, f in zip(calls, floors)]):.2f} "
                      f"| {p90(ratios):.2f} | {found} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
