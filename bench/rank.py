#!/usr/bin/env python3
"""Cost of the relevance ranking against the default (match) mode, through the real script.

Builds the ledgers of bench/ledger.py (20 projects, deterministic text) and times `search` and
`recall` for one project in both modes: wall time and CPU (user + sys) are medians of --runs
runs, peak RSS the largest. The ratio is relevance / match (target: at most 2 at 100k records).
Figures are printed, never asserted.

    .venv/bin/python bench/rank.py [--sizes 10000,100000] [--runs 7]
"""
import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ledger import LEDGER_SH, PROJECTS, TIME, build, measure  # noqa: E402

QUERY = "retry worker"
QUESTION = "Which retry approach for the worker path, given load 3?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rank-bench-"))
    print(f"# rank bench: {PROJECTS} projects, project-07, wall and CPU = median of {args.runs} runs, "
          f"peak RSS = max ({'/usr/bin/time' if TIME else 'wait4 rusage'}); python "
          f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start")
    print()
    print("| records | command | match s (cpu) | match MB | relevance s (cpu) | relevance MB "
          "| ratio wall | ratio cpu |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    try:
        for n in (int(s) for s in args.sizes.split(",")):
            path = work / f"ledger-{n}.jsonl"
            build(path, n)
            env = dict(os.environ, HARNESS_JUDGMENT_LEDGER=str(path))
            env.pop("HARNESS_JUDGMENT_RANK", None)
            for command, flag, text in (("search", "--query", QUERY), ("recall", "--question", QUESTION)):
                argv = [str(LEDGER_SH), command, "--project", "project-07", flag, text]
                m = measure(argv + ["--rank", "match"], env, args.runs, work)
                r = measure(argv + ["--rank", "relevance"], env, args.runs, work)
                print(f"| {n:,} | {command} | {m[0]:.3f} ({m[1]:.3f}) | {m[2]:.1f} | {r[0]:.3f} ({r[1]:.3f}) "
                      f"| {r[2]:.1f} | {r[0] / m[0]:.2f} | {r[1] / m[1]:.2f} |", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
