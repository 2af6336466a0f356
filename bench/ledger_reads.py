#!/usr/bin/env python3
"""Per-call CPU of the ledger reads, and the cost of one very long line.

1. search, recall, prime, list and show through scripts/judgment-ledger.sh over --records
   records in --projects projects, where every record of the asked project holds the query
   word (the worst case for a filter on bytes): the median CPU (user + system of the whole
   process tree, os.wait4) as a ratio to a bare `python -c pass` measured in the same run.
2. search over a ledger that is one line of --long-mb MB (over the record cap, so skipped)
   and over the same number of bytes of ordinary records of other projects: CPU and peak RSS
   of each, and their ratio. Figures are printed, never asserted.

    .venv/bin/python bench/ledger_reads.py [--records 10000] [--projects 4] [--runs 7] [--long-mb 120]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEDGER = str(ROOT / "scripts" / "judgment-ledger.sh")


def run(argv, env):
    """(CPU seconds, peak RSS in MiB, exit status) of one run of argv and its children."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=null, stderr=null)
        _, status, usage = os.wait4(p.pid, 0)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def median(argv, env, runs):
    results = [run(argv, env) for _ in range(runs)]
    if any(code != 0 for _, _, code in results):
        return None, None
    return statistics.median(c for c, _, _ in results), max(m for _, m, _ in results)


def record(i, project, pad=0):
    return json.dumps({
        "id": f"{i:08x}-0000-4000-8000-000000000000", "project": project,
        "decided_at": f"2026-01-{1 + i % 28:02d}T00:{i % 60:02d}:{i % 59:02d}Z",
        "question": f"Which queue for the worker path, given load {i % 97}?" + " x" * pad,
        "answer": "Postgres", "card_ref": "c.json", "rationale": "fewer services",
        "tags": ["judgment-card"]},
        separators=(",", ":")) + "\n"


def build(path, n, projects):
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(record(i, f"project-{i % projects}"))


def reads(n_projects):
    probe = f"{(3 % n_projects):08x}-0000-4000-8000-000000000000"
    p = f"project-{3 % n_projects}"
    return {
        "search": [LEDGER, "search", "--project", p, "--query", "worker queue"],
        "recall": [LEDGER, "recall", "--project", p, "--question", "which queue for the worker"],
        "prime": [LEDGER, "prime", "--project", p],
        "list": [LEDGER, "list", "--project", p, "--limit", "20"],
        "show": [LEDGER, "show", probe, "--project", p],
    }


def long_line(path, size):
    """One line of `size` bytes: a record of project-0 whose question is padded."""
    head = record(0, "project-0")
    pad = size - len(head)
    with open(path, "w", encoding="utf-8") as f:  # in pieces: this process stays small,
        f.write(head[:-3])                          # and a child's peak RSS starts from ours
        for _ in range(pad >> 20):
            f.write("x" * (1 << 20))
        f.write("x" * (pad & ((1 << 20) - 1)) + head[-3:])


def ordinary(path, size):
    i = 0
    with open(path, "w", encoding="utf-8") as f:
        while f.tell() < size:
            f.write(record(i, f"other-{i % 4}", pad=20))
            i += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10000)
    ap.add_argument("--projects", type=int, default=4)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--long-mb", type=int, default=120)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items()  # HARNESS_PYTHON: a checkout without .venv
               if not k.startswith("HARNESS_") or k == "HARNESS_PYTHON"}
        env["HOME"] = scratch
        floor, _ = median([sys.executable, "-c", "pass"], env, a.runs)
        print(f"floor: python -c pass = {floor * 1000:.1f} ms CPU (median of {a.runs})")
        ledger = Path(scratch) / "ledger.jsonl"
        build(ledger, a.records, a.projects)
        env["HARNESS_JUDGMENT_LEDGER"] = str(ledger)
        print(f"{a.records} records in {a.projects} projects, every record holds the query words")
        for name, argv in reads(a.projects).items():
            cpu, _ = median(argv, env, a.runs)
            print(f"  {name:<8}" + ("   (not available)" if cpu is None else f"{cpu / floor:>8.2f}x"))
        size = a.long_mb * 1000 * 1000
        rows = {}
        for label, make in (("one long line", long_line), ("ordinary lines", ordinary)):
            make(ledger, size)
            rows[label] = median([LEDGER, "search", "--project", "project-0", "--query", "queue"],
                                 env, max(1, a.runs // 3))
        print(f"search over {a.long_mb} MB:")
        for label, (cpu, rss) in rows.items():
            print(f"  {label:<15} {cpu * 1000:>8.0f} ms CPU {cpu / floor:>8.1f}x  peak RSS {rss:>6.0f} MiB")
        (lc, lr), (oc, orss) = rows["one long line"], rows["ordinary lines"]
        print(f"  long / ordinary: CPU {lc / oc:.2f}x, peak RSS {lr / orss:.2f}x")


if __name__ == "__main__":
    main()
