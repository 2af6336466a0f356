#!/usr/bin/env python3
"""Per-call CPU of the ledger and card commands, from the checkout scripts and installed.

For append, search, recall, card record-answer and card recall, runs each call --runs times
through scripts/*.sh (the checkout) and through the console commands of an installed
environment (--bin, default .venv/bin: the editable install scripts/setup.sh makes), over a
ledger of --records records in 10 projects, and prints the median CPU (user + system of the
whole process tree, from os.wait4's rusage) as a ratio to a bare `python -c pass` measured in
the same run (tests/python/install counts the interpreter starts). Figures are printed, never asserted.

    .venv/bin/python bench/ledger_calls.py [--records 10000] [--runs 7] [--bin DIR]
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
SCRIPTS = ROOT / "scripts"
# the card the install tests use too: one fixture file
CARD = json.loads((ROOT / "tests" / "fixtures" / "cards" / "queue.json").read_text(encoding="utf-8"))


def cpu(argv, env, stdin=None):
    """CPU seconds (user + sys) of one run of argv and its children."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL if stdin is None else stdin,
                             stdout=null, stderr=null)
        _, _, usage = os.wait4(p.pid, 0)
    return usage.ru_utime + usage.ru_stime


def median_cpu(argv, env, runs):
    return statistics.median(cpu(argv, env) for _ in range(runs))


def build(path, n):
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps({
                "id": f"{i:08x}-0000-4000-8000-000000000000", "project": f"project-{i % 10}",
                "decided_at": f"2026-01-{1 + i % 28:02d}T00:00:{i % 60:02d}Z",
                "question": f"Which queue for the worker path, given load {i % 97}?",
                "answer": "Postgres", "card_ref": "c.json", "rationale": "fewer services",
                "tags": ["judgment-card"], "schema_version": "judgment-ledger.v1"},
                separators=(",", ":")) + "\n")


def calls(tool, card_path):
    ledger, card = tool("judgment-ledger"), tool("judgment-card")
    return {
        "append": [ledger, "append", "--project", "bench", "--question", "q", "--answer", "a",
                   "--card-ref", "c"],
        "search": [ledger, "search", "--project", "project-3", "--query", "worker queue"],
        "recall": [ledger, "recall", "--project", "project-3", "--question", "worker queue"],
        "record-answer": [card, "record-answer", card_path, "--answer", "postgres", "--why", "w",
                          "--project", "bench", "--session", "s"],
        "card recall": [card, "recall", card_path, "--project", "project-3"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--bin", default=str(ROOT / ".venv" / "bin"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        ledger = Path(scratch) / "ledger.jsonl"
        build(ledger, a.records)
        card_path = Path(scratch) / "card.json"
        card_path.write_text(json.dumps(CARD))
        env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
        env.update(HARNESS_JUDGMENT_LEDGER=str(ledger), HOME=scratch)
        floor = median_cpu([sys.executable, "-c", "pass"], env, a.runs)
        print(f"floor: python -c pass = {floor * 1000:.1f} ms CPU ({a.records} records, "
              f"median of {a.runs})")
        routes = {"checkout": lambda t: str(SCRIPTS / f"{t}.sh"),
                  "installed": lambda t: str(Path(a.bin) / t)}
        print(f"{'call':<14}" + "".join(f"{r:>12}" for r in routes))
        table = {r: calls(f, str(card_path)) for r, f in routes.items()}
        for name in table["checkout"]:
            row = [median_cpu(table[r][name], env, a.runs) / floor for r in routes]
            print(f"{name:<14}" + "".join(f"{x:>11.2f}x" for x in row))


if __name__ == "__main__":
    main()
