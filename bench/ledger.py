#!/usr/bin/env python3
"""Benchmark of the Judgment Ledger through the real scripts.

Builds ledgers of 1k, 10k, 100k and 1M records over 20 projects (written directly, fast), then
times search, recall and append via scripts/judgment-ledger.sh at each size and prints wall
time (median of --runs) and peak RSS (the largest of those runs, from /usr/bin/time when it is
installed, else from os.wait4's rusage; see measure()). Also checks that search and recall import
neither jsonschema nor ulid. Figures are printed, never asserted.

    .venv/bin/python bench/ledger.py [--sizes 1000,10000,100000,1000000] [--runs 5] [--keep DIR]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER_SH = ROOT / "scripts" / "judgment-ledger.sh"
PROJECTS = 20
TOPICS = ["queue", "cache", "schema", "retry", "index", "deploy", "auth", "logging", "backup",
          "pagination", "rate limit", "feature flag", "migration", "timeout", "search"]
CHOICES = ["Postgres", "Redis", "SQLite", "Kafka", "a cron job", "the existing worker",
           "a new table", "an env var", "exponential backoff", "a circuit breaker"]
WHY = ["fewer moving parts", "the team already runs it", "cheaper to operate", "reversible later",
       "keeps the diff small", "measured faster in staging", "", "matches the DoD"]


def build(path, n):
    """Write n records; project = i % 20, one second apart, deterministic text."""
    base = 1767225600  # 2026-01-01T00:00:00Z
    questions = [f"Which {t} approach for the {c} path, given load {k}?"
                 for t in TOPICS for c in ("api", "worker", "cli", "admin") for k in range(10)]
    head = '{"id":"%08x-0000-4000-8000-%012x","project":"project-%02d","decided_at":"'
    with open(path, "w", encoding="utf-8", buffering=1 << 20) as f:
        batch = []
        for i in range(n):
            t = time.gmtime(base + i)
            q = questions[(i * 7919) % len(questions)]
            batch.append(
                (head % (i, i, i % PROJECTS))
                + "%04d-%02d-%02dT%02d:%02d:%02dZ" % t[:6]
                + '","question":' + json.dumps(q) + ',"answer":' + json.dumps(CHOICES[i % len(CHOICES)])
                + ',"rationale":' + json.dumps(WHY[i % len(WHY)] + (" (see PR %d)" % i if i % 3 else ""))
                + ',"card_ref":".claude/state/cards/%d.json","tags":["judgment-card","%s"]}\n'
                % (i, TOPICS[i % len(TOPICS)].replace(" ", "-")))
            if len(batch) == 10000:
                f.write("".join(batch))
                batch.clear()
        f.write("".join(batch))


TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def measure(argv, env, runs, scratch):
    """(median wall s, median CPU s, peak RSS MB). CPU (user + sys of the script's process tree)
    is shown because wall time on a shared machine mostly measures the neighbours. Peak RSS
    comes from /usr/bin/time (a small process, so the figure is the script's own tree); without
    it, from os.wait4's rusage, which on Linux can include this bench process's RSS at fork."""
    walls, cpus, peak = [], [], 0
    for _ in range(runs):
        out = scratch / "time.out"
        cmd = [TIME, "-o", str(out), "-f", "%M", *argv] if TIME else argv  # %M: max RSS KiB
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - start)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"{argv} failed: {err}")
        cpus.append(usage.ru_utime + usage.ru_stime)  # time's own share is negligible
        kib = int(out.read_text().split()[-1]) if TIME else usage.ru_maxrss
        peak = max(peak, kib)
    return statistics.median(walls), statistics.median(cpus), peak / 1024


PROBE = """
import sys
from judgment_toolkit.judgment import jobs
jobs.main(sys.argv[1:])
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in ("jsonschema", "ulid"))), file=sys.stderr)
"""


def heavy_imports(ledger_path, argv):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pylib"), HARNESS_JUDGMENT_LEDGER=str(ledger_path))
    r = subprocess.run([sys.executable, "-c", PROBE, *argv], env=env, capture_output=True, text=True)
    return r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="build the ledgers in DIR and keep them")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    query = "retry worker"
    question = "Which retry approach for the worker path, given load 3?"
    print(f"# judgment-ledger bench: {PROJECTS} projects, wall = median of {args.runs} runs, "
          f"peak RSS = max over runs ({'/usr/bin/time' if TIME else 'wait4 rusage'}); "
          f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.1f} at start")
    print()
    print("| records | file MB | build s | search s (cpu) | search MB | recall s (cpu) | recall MB "
          "| append s (cpu) | append MB | append --id s (cpu) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    try:
        for n in sizes:
            path = work / f"ledger-{n}.jsonl"
            t0 = time.perf_counter()
            build(path, n)
            built = time.perf_counter() - t0
            env = dict(os.environ, HARNESS_JUDGMENT_LEDGER=str(path))
            s = measure([str(LEDGER_SH), "search", "--project", "project-07", "--query", query], env, args.runs, work)
            r = measure([str(LEDGER_SH), "recall", "--project", "project-07", "--question", question], env, args.runs, work)
            a = measure([str(LEDGER_SH), "append", "--project", "project-07", "--question", question,
                         "--answer", "Redis", "--card-ref", "bench.json", "--tags", "bench"], env, args.runs, work)
            # --id: the idempotency check streams the ledger under the lock (the first run
            # writes, the later ones find the record at the end and write nothing)
            i = measure([str(LEDGER_SH), "append", "--project", "project-07", "--question", question,
                         "--answer", "Redis", "--card-ref", "bench.json", "--id", f"bench-{n}"],
                        env, args.runs, work)
            mb = path.stat().st_size / 1e6
            print(f"| {n:,} | {mb:.0f} | {built:.1f} | {s[0]:.3f} ({s[1]:.3f}) | {s[2]:.1f} "
                  f"| {r[0]:.3f} ({r[1]:.3f}) | {r[2]:.1f} | {a[0]:.3f} ({a[1]:.3f}) | {a[2]:.1f} "
                  f"| {i[0]:.3f} ({i[1]:.3f}) |",
                  flush=True)
        last = work / f"ledger-{sizes[-1]}.jsonl"
        for name, argv in [("search", ["search", "project-07", query, "3", "match"]),
                           ("recall", ["recall", "project-07", question, "match"])]:
            found = heavy_imports(last, argv)
            print(f"\n{name} imports jsonschema/ulid: {found or 'no'}", end="")
        print()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
