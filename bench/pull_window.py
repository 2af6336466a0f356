#!/usr/bin/env python3
"""How often does git lose a record appended while a `git pull` rewrites the ledger?
(docs/team-memory.md, "What git can still lose".)

A bare remote and two clones that share the ledger (judgment-kit share). Clone A appends one
record, commits and pushes, so that every pull of clone B rewrites B's ledger. In clone B a
thread appends records without pause (judgment.appending.append, the function behind
`judgment-ledger append`, with a random gap of --gap-ms at most) while B's main loop commits
its ledger and pulls, --rounds times. At the end every record the thread was told it wrote is
looked up in B's ledger; the ones missing are the records git overwrote between its check that
the file is clean and its rewrite of it.

Pulls are counted by how they ended: merged; refused because the ledger changed since the
commit ("local changes would be overwritten"; git then puts its snapshot of the local changes
back, and whatever was appended meanwhile is gone); failed because an append created the file
between git's unlink and its create. Figures are printed, never asserted.

Clone B's share installs the git hooks that run `judgment-kit heal` (the journal, same section):
the figures then count what is still lost with them; --no-heal takes them out, and --floor
never runs share. The last line but one counts what is lost after one more heal by hand.

    .venv/bin/python bench/pull_window.py [--rounds 200] [--gap-ms 5] [--no-heal | --floor]
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pylib"))
from judgment_toolkit.judgment import appending, place, writer  # noqa: E402

LEDGER = ".claude/state/judgment-ledger.jsonl"
ENV = dict(os.environ, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@x", GIT_COMMITTER_NAME="b",
           GIT_COMMITTER_EMAIL="b@x", GIT_CONFIG_NOSYSTEM="1")


def git(cwd, *args, check=True):
    r = subprocess.run(["git", "-C", str(cwd), *args], env=ENV, capture_output=True, text=True)
    if check and r.returncode:
        sys.exit(f"git {' '.join(args)}: {r.stderr}")
    return r


def record(n, who):
    return {"project": "shop", "question": f"question {who} {n}", "answer": "yes",
            "card_ref": "c"}


def ids_in(path):
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        return set()
    out = set()
    for line in data.splitlines():
        try:
            out.add(json.loads(line)["id"])
        except (ValueError, KeyError, TypeError):
            pass
    return out


class Appender(threading.Thread):
    def __init__(self, clone, gap):
        super().__init__(daemon=True)
        self.path, self.gap = place.ledger_path(str(clone))[0], gap  # the repository's own
        self.written = []
        self.stop = threading.Event()

    def run(self):
        n = 0
        while not self.stop.is_set():
            n += 1
            try:
                rec, _ = appending.append(record(n, "b"), path=self.path)
            except writer.AppendSkipped:
                continue
            self.written.append((rec["id"], time.monotonic()))
            time.sleep(random.uniform(0, self.gap))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--gap-ms", type=float, default=5.0)
    ap.add_argument("--floor", action="store_true",
                    help="clone B never runs share: git's built-in union merges its ledger, "
                         "and no hook heals it")
    ap.add_argument("--no-heal", action="store_true",
                    help="clone B runs share, then its git hooks are taken out: the driver "
                         "merges, nothing heals")
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-pull-"))
    try:
        remote, a, b = root / "origin.git", root / "alice", root / "bob"
        git(root, "init", "-q", "--bare", "-b", "main", str(remote))
        git(root, "clone", "-q", str(remote), str(a))
        (a / "README.md").write_text("shop\n")
        kit = [str(ROOT / "scripts" / "judgment-kit"), "share", "--project", "shop"]
        subprocess.run(kit, cwd=a, env=ENV, check=True, capture_output=True)
        appending.append(record(0, "a"), path=str(a / LEDGER))
        git(a, "add", "-A")
        git(a, "commit", "-qm", "share")
        git(a, "push", "-q", "origin", "main")
        git(root, "clone", "-q", str(remote), str(b))
        if not args.floor:
            subprocess.run(kit[:2], cwd=b, env=ENV, check=True, capture_output=True)
            if args.no_heal:
                for hook in ("post-commit", "post-merge", "post-checkout", "post-rewrite"):
                    (b / ".git" / "hooks" / hook).unlink()

        thread = Appender(b, args.gap_ms / 1000)
        thread.start()
        pull_times, spans = [], []
        for n in range(1, args.rounds + 1):
            appending.append(record(n, "a"), path=str(a / LEDGER))
            git(a, "commit", "-qam", f"a{n}")
            git(a, "push", "-q", "origin", "main")
            git(b, "add", LEDGER)
            git(b, "commit", "-qm", f"b{n}", check=False)
            start = time.monotonic()
            r = git(b, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main", check=False)
            end = time.monotonic()
            pull_times.append(end - start)
            if r.returncode == 0:
                kind = "merged"
            elif "would be overwritten" in r.stderr:
                kind = "refused"
            elif "unable to create file" in r.stderr:
                kind = "failed"  # an append re-created the file between git's unlink and create
            else:
                sys.exit(f"pull failed: {r.stderr}")
            spans.append((kind, start, end))
        thread.stop.set()
        thread.join()
        have = ids_in(b / LEDGER)
        lost = [(i, t) for i, t in thread.written if i not in have]
        heal = subprocess.run([kit[0], "heal"], cwd=b, env=ENV, capture_output=True, text=True)
        have = ids_in(b / LEDGER)
        lost_at_end = [i for i, _ in thread.written if i not in have]
        pull_times.sort()
        mode = "union floor, no heal" if args.floor else "judgment-ledger merge" + (
            ", no heal" if args.no_heal else ", heal by share's git hooks")
        print(f"{args.rounds} pulls of a changed ledger while clone B appends (a gap of at most "
              f"{args.gap_ms} ms; {mode}); git "
              f"{git(root, 'version').stdout.split()[-1]}")
        for kind in ("merged", "refused", "failed"):
            mine = [(s0, s1) for k, s0, s1 in spans if k == kind]
            during = [i for i, t in thread.written if any(s0 <= t <= s1 for s0, s1 in mine)]
            gone = [i for i, t in lost if any(s0 <= t <= s1 for s0, s1 in mine)]
            print(f"  {kind}: {len(mine)} pulls; {len(during)} records appended during them, "
                  f"{len(gone)} lost")
        print(f"  all: {len(thread.written)} records appended, {len(lost)} lost "
              f"({100 * len(lost) / max(1, len(thread.written)):.2f}%)")
        print(f"  after one more judgment-kit heal (as the next commit or pull runs it): "
              f"{len(lost_at_end)} lost ({heal.stderr.strip() or 'nothing restored'})")
        print(f"  pull wall time: median {pull_times[len(pull_times) // 2] * 1000:.0f} ms, "
              f"max {pull_times[-1] * 1000:.0f} ms")
    finally:
        if not os.environ.get("KEEP"):
            shutil.rmtree(root, ignore_errors=True)
        else:
            print(root)


if __name__ == "__main__":
    main()
