#!/usr/bin/env python3
"""Benchmark of the team ledger's two whole-file jobs, as ratios to a floor measured in the same
run (docs/team-memory.md, "Cost"):

- `judgment-ledger merge` on two 50k-record sides (disjoint, and sharing 40k records), against
  the time to json.loads every line of the result;
- `judgment-ledger verify` at 100k records, against the time to json.loads every line.

Both jobs run in this process (the command adds one interpreter start, bench/ledger.py's
subject); each figure is the best of --runs. Figures are printed, never asserted.

    .venv/bin/python bench/team.py [--runs 3] [--records 100000]
"""
import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pylib"))
sys.path.insert(0, str(ROOT / "bench"))

from ledger import build  # noqa: E402  (bench/ledger.py: the same deterministic records)
from judgment_toolkit.judgment import merge, verify  # noqa: E402


def best(fn, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def loads_all(path):
    def run():
        with open(path, "rb") as f:
            for line in f:
                json.loads(line)
    return run


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--records", type=int, default=100_000)
    args = ap.parse_args()
    n, half = args.records, args.records // 2
    scratch = Path(tempfile.mkdtemp(prefix="bench-team-"))
    try:
        full = scratch / "full.jsonl"
        build(full, n)
        lines = full.read_bytes().splitlines(keepends=True)

        report = verify.verify(full)
        assert report.ok and report.records == n, report.as_json()
        floor = best(loads_all(full), args.runs)
        took = best(lambda: verify.verify(full), args.runs)
        print(f"verify, {n} records: {took:.3f} s; json.loads of every line {floor:.3f} s; "
              f"ratio {took / floor:.2f} (bound: 10)")

        shared = (half * 4) // 5
        for name, ours, theirs in (
                ("disjoint", lines[:half], lines[half:]),
                ("sharing 80%", lines[:half], lines[:shared] + lines[half:half + half - shared])):
            base, a, b = scratch / "base", scratch / "a", scratch / "b"
            base.write_bytes(b"".join(ours[:shared] if name != "disjoint" else []))
            b.write_bytes(b"".join(theirs))

            def run():
                a.write_bytes(b"".join(ours))
                merge.merge(base, a, b)
            took = best(run, args.runs)
            result = scratch / "result"
            shutil.copy(a, result)
            count = len(result.read_bytes().splitlines())
            floor = best(loads_all(result), args.runs)
            print(f"merge, two sides of {half} ({name}) -> {count} records: {took:.3f} s; "
                  f"json.loads of every result line {floor:.3f} s; ratio {took / floor:.2f} "
                  "(bound: 3)")
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
