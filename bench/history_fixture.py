"""Write a VALID decision history of N events straight into a goal's store, fast.

Benchmarks (add and views) need stores of 1k-100k events; registering them with 100k CLI
calls would take hours. This module builds the same lines `ha history add` would, with the
store's own encoding (ha.history.model.event_line / last_bytes), so a later `ha history` call
verifies them like any other history.

    python bench/history_fixture.py <repo> <goal> <n>      # repo: a started goal's worktree
                                                           # (writes the index too)

Library use: make_started_repo(path) -> (repo_path, goal); write_history(repo, goal, n).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pylib"))

from judgment_toolkit.ha.history.store import indexwrite  # noqa: E402
from judgment_toolkit.ha.history import model  # noqa: E402
from judgment_toolkit.ha.history.store.verify import StoredEvent  # noqa: E402
from judgment_toolkit.ha.history.context import open_history  # noqa: E402

HA = str(ROOT / "scripts" / "ha")
FIXTURE_GOAL = ROOT / "tests" / "fixtures" / "goals" / "empty-input"
GOAL = "docs/specs/empty-input"
ENV = dict(os.environ, GIT_AUTHOR_NAME="Bench", GIT_AUTHOR_EMAIL="bench@example.invalid",
           GIT_COMMITTER_NAME="Bench", GIT_COMMITTER_EMAIL="bench@example.invalid",
           GIT_CONFIG_NOSYSTEM="1")
KINDS = [("관측", None), ("원인", "가설"), ("결정", None), ("조치", "반영"), ("검증", "통과"),
         ("원인", "기각"), ("막힘", None), ("재개", None)]
TARGETS = ["AC-1", "AC-2", "EX-1", "T001"]


def _run(*argv, cwd):
    subprocess.run(argv, cwd=cwd, env=ENV, check=True, capture_output=True)


def make_started_repo(path) -> tuple[str, str]:
    """A fresh repository at `path` with the fixture goal committed, started and checked
    (run seq 2), like tests/python/conftest.py's goal fixture."""
    path = Path(path)
    path.mkdir(parents=True)
    _run("git", "init", "-q", "-b", "main", cwd=path)
    (path / "README.md").write_text("demo\n")
    (path / "src").mkdir()
    (path / "src" / "count.go").write_text("package count\n")
    shutil.copytree(FIXTURE_GOAL, path / GOAL)
    _run("git", "add", "-A", cwd=path)
    _run("git", "commit", "-qm", "goal", cwd=path)
    _run(HA, "start", GOAL, "--request", "bench", cwd=path)
    _run(HA, "check", GOAL, "AC-1", cwd=path)
    return str(path), GOAL


def decision_for(seq: int) -> dict:
    """A varied decision for event `seq`: kinds, targets, evidence, builds_on and supersedes."""
    kind, status = KINDS[seq % len(KINDS)]
    d = {"kind": kind}
    if status:
        d["status"] = status
    d["summary"] = f"event {seq}: 빈 입력 경계 판단 keyword{seq % 97}"
    if seq % 3 == 0:
        d["reason"] = f"reason for {seq}\nsecond line"
    d["targets"] = [TARGETS[seq % len(TARGETS)]]
    d["evidence"] = [{"type": "run", "seq": 2},
                     {"type": "external", "ref": f"https://example.invalid/review/{seq}"}]
    if seq > 2 and seq % 2 == 0:
        d["builds_on"] = [f"D{seq - 1}"]
    if seq > 10 and seq % 10 == 0:
        d["supersedes"] = [{"id": f"D{seq - 5}"}]  # each target superseded once, no @after
    return d


def write_history(repo: str, goal: str, n: int, index: bool = False) -> str:
    """Write events D1..Dn (replacing any store) and `last`; returns the store folder.
    With `index`, also the store's index as an add would have written it (indexwrite.Writer);
    without, the store is one written before the index existed (read in full)."""
    ctx = open_history(goal, for_write=True, cwd=repo)
    store = ctx.store
    os.makedirs(store.dir, exist_ok=True)
    run2 = ctx.chain.line_sha256(2)
    base = {"start": ctx.start_key, "run_head": ctx.chain.head, "goal": ctx.goal.path,
            "commit": ctx.repo.head(), "tree_clean": True, "spec_digest": ctx.goal.digest()}
    prev = None
    at = "2026-12-02T12:00:00Z"
    facts, offset = [], 0
    head = (ctx.chain.head["seq"], ctx.chain.head["sha256"])
    for name in ("index", "index.tmp"):
        if os.path.exists(os.path.join(store.dir, name)):
            os.unlink(os.path.join(store.dir, name))
    with open(store.events_path, "wb") as f:
        for seq in range(1, n + 1):
            d = decision_for(seq)
            obs = [{"type": "run", "state": "matched", "version": run2},
                   {"type": "external", "state": "not_checked"}]
            line = model.event_line(seq, prev, f"bench-{seq}", at, d, {**base, "evidence": obs})
            f.write(line + b"\n")
            prev = hashlib.sha256(line).hexdigest()
            if index:
                facts.append(StoredEvent(
                    seq, offset, len(line), prev, f"bench-{seq}", head, tuple(d["targets"]),
                    tuple(int(i[1:]) for i in d.get("builds_on", ())),
                    tuple(int(i["id"][1:]) for i in d.get("supersedes", ()))))
            offset += len(line) + 1
    with open(store.last_path, "wb") as f:
        f.write(model.last_bytes(n, prev) if n else b"")
    if n == 0:
        os.unlink(store.last_path)
        os.unlink(store.events_path)
    open(store.lock_path, "ab").close()
    if index and n:
        dfd = store._open_dir()
        try:
            w = indexwrite.Writer(store, dfd)
            w.start_rebuild()
            for ev in facts[:-1]:
                w.add(ev)
            w.commit(facts[-1], cached=False)
        finally:
            os.close(dfd)
        assert os.path.exists(store.index_path), "the index was not written"
    return store.dir


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    print(write_history(sys.argv[1], sys.argv[2], int(sys.argv[3]), index=True))
