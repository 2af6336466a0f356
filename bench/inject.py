#!/usr/bin/env python3
"""Cost of recall for automatic injection (judgment.inject.answers), in-process, as the
PreToolUse hook pays it: in a fresh interpreter, from the import of judgment.inject to the
answer (its imports, the lexicon and the ledger pass included).

For each size the ledger of bench/ledger.py is built twice: its 20 projects (the asked project
holds 1 record in 20) and one project holding every record (the worst case: every line is
parsed and scored). Each run is a new `python` process that times the call with perf_counter and
prints it, in wall and CPU time; the floor is `python -c pass` measured in the same run, wall
and CPU (the child's user + sys). Printed: median and p90 of the call, and p90 of
(floor + call) / floor, the share of the hook's budget (at most 2.5x at 1k records and 3.5x at
10k for the whole hook). On a shared machine read the CPU figures: wall time there partly
measures the neighbours. Figures are printed, never asserted.

    .venv/bin/python bench/inject.py [--sizes 1000,10000] [--runs 21]
"""
import argparse
import os
import resource
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
t, c = time.perf_counter(), time.process_time()
sys.path.insert(0, {pylib!r})
from judgment_toolkit.judgment import inject
found = inject.answers({path!r}, {project!r}, {question!r}, {options!r})
print(time.perf_counter() - t, time.process_time() - c, len(found))
"""


def wall(argv, env):
    """(wall seconds, CPU seconds of the child, its stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    spent = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return spent, cpu, out


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
    print("| records | ledger | floor s wall (cpu), median | call s wall (cpu), median "
          "| call s wall (cpu), p90 | call / floor, p90: wall (cpu) "
          "| (floor + call) / floor, p90: wall (cpu) | answers |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            for shape, projects, project in (("20 projects", 20, "project-07"),
                                             ("one project", 1, "project-00")):
                path = work / f"ledger-{n}-{projects}.jsonl"
                build(path, n, projects)
                code = CALL.format(pylib=str(ROOT / "pylib"), path=str(path), project=project,
                                   question=QUESTION, options=OPTIONS)
                rows = []  # (floor wall, floor cpu, call wall, call cpu)
                found = ""
                for _ in range(args.runs):
                    floor, floor_cpu, _ = wall([sys.executable, "-c", "pass"], env)
                    _, _, out = wall([sys.executable, "-c", code], env)
                    call, call_cpu, found = out.split()
                    rows.append((floor, floor_cpu, float(call), float(call_cpu)))
                fw, fc, cw, cc = (list(col) for col in zip(*rows))
                share = [r[2] / r[0] for r in rows], [r[3] / r[1] for r in rows]
                print(f"| {n:,} | {shape} | {statistics.median(fw):.4f} ({statistics.median(fc):.4f}) "
                      f"| {statistics.median(cw):.4f} ({statistics.median(cc):.4f}) "
                      f"| {p90(cw):.4f} ({p90(cc):.4f}) | {p90(share[0]):.2f} ({p90(share[1]):.2f}) "
                      f"| {1 + p90(share[0]):.2f} ({1 + p90(share[1]):.2f}) | {found} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
