"""Helpers for the read-side tests: real repositories, the real `ha`, and a writer of synthetic
stores in the exact event line format of docs/internals.md (for shapes `add` cannot produce,
such as events registered at a run head this worktree never had)."""
import json
import os

import pytest

from conftest import GOAL, git, ha, runs_lines, sha, start_key, store_dir  # noqa: F401
from inproc import ha as ha_in  # the rules of the data, without a process each (inproc.py)


def ok(r):
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    return r


def start(repo, goal=GOAL, check=True, commit=True, quote="빈 입력을 고쳐 줘"):
    """ha start (+ commit) and, by default, ha check AC-1 (run seq 2)."""
    ok(ha_in("start", goal, "--request", quote, cwd=repo))
    if commit:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", "start")
    if check:
        ok(ha_in("check", goal, "AC-1", cwd=repo))


def add(repo, *args, goal=GOAL):
    """ha history add; returns the receipt."""
    r = ok(ha_in("history", goal, "add", *args, cwd=repo))
    return json.loads(r.stdout)


def note(repo, summary, *args, kind="관측", goal=GOAL):
    return add(repo, "--kind", kind, "--summary", summary, *args, goal=goal)["id"]


def seed_example(repo):
    """The decision-history/v1 section 11 example on a started goal: D1..D4; returns the receipts."""
    return [
        add(repo, "--kind", "원인", "--status", "가설", "--summary", "첫 항목이 항상 있다고 가정했다",
            "--target", "AC-1", "--ref", "run:2", "--request-id", "cause-1"),
        add(repo, "--kind", "관측", "--summary", "빈 파일에서 오류가 재현된다", "--target", "AC-1",
            "--checked-ref", "file:src/count.go"),
        add(repo, "--kind", "결정", "--summary", "빈 입력이면 0을 반환한다", "--target", "T001",
            "--builds-on", "D1", "--builds-on", "D2"),
        add(repo, "--kind", "원인", "--status", "기각", "--summary",
            "첫 항목 가정이 아니라 입력 버퍼 경계가 원인이다", "--target", "AC-1", "--supersedes", "D1"),
    ]


@pytest.fixture
def example(repo, goal):
    """A started goal holding the example of decision-history/v1 section 11, D1..D4 (import it into a test module)."""
    start(repo)
    receipts = seed_example(repo)
    assert [r["id"] for r in receipts] == ["D1", "D2", "D3", "D4"]
    return repo


def event_lines(text):
    """The event lines (`- D...`) of a Markdown view."""
    return [line for line in text.splitlines() if line.startswith("- D")]


def view(repo, *args, goal=GOAL):
    """A view as JSON (decision-history-view/v1)."""
    r = ok(ha_in("history", goal, *args, "--format", "json", cwd=repo))
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    return json.loads(r.stdout)


def md(repo, *args, goal=GOAL):
    return ok(ha_in("history", goal, *args, cwd=repo)).stdout


def fails(repo, *args, goal=GOAL):
    """(exit code, error code) of a refused view."""
    r = ha_in("history", goal, *args, cwd=repo)
    assert r.returncode != 0 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    assert r.stderr.startswith("ha: ") and r.stderr.count("\n") == 1, r.stderr
    return r.returncode, r.stderr.split(":")[1].strip()


def ids(items):
    return [i["id"] for i in items]


def context(repo, goal=GOAL, run_head=None, **over):
    """A registration context like add would record now (run head: the current head)."""
    lines = runs_lines(repo, goal)
    head = run_head or {"seq": len(lines), "sha256": sha(lines[-1])}
    spec = view_basis(repo, goal)
    ctx = {"start": start_key(repo, goal), "run_head": head, "goal": goal,
           "commit": spec["commit"], "tree_clean": spec["tree_clean"],
           "spec_digest": spec["spec_digest"], "evidence": []}
    ctx.update(over)
    return ctx


def view_basis(repo, goal=GOAL):
    r = ok(ha_in("status", goal, "--format", "json", cwd=repo))
    s = json.loads(r.stdout)
    return {"commit": s["commit"], "tree_clean": s["tree_clean"],
            "spec_digest": s["spec_digest"]["now"]}


def write_store(repo, events, goal=GOAL, ascii=False):
    """Write events.jsonl and last from (decision, context) pairs; returns the line hashes.
    `ascii` writes non-ASCII as \\u escapes (valid JSON, not the canonical encoding)."""
    d = store_dir(repo, goal)
    d.mkdir(parents=True, exist_ok=True)
    prev, out, shas = None, [], []
    for seq, (decision, ctx) in enumerate(events, 1):
        ev = {"schema": "decision-history/v1", "id": f"D{seq}", "seq": seq, "prev": prev,
              "request_id": f"req-{seq}", "at": "2026-12-02T10:00:00Z",
              "decision": decision, "context": ctx}
        line = json.dumps(ev, ensure_ascii=ascii, separators=(",", ":")).encode()
        out.append(line + b"\n")
        prev = sha(line)
        shas.append(prev)
    (d / "events.jsonl").write_bytes(b"".join(out))
    (d / "last").write_bytes(json.dumps({"seq": len(events), "sha256": prev},
                                        separators=(",", ":")).encode() + b"\n")
    return shas


def tree_snapshot(root):
    """Every path under root with its size and mtime, to prove a view changed nothing."""
    snap = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            st = os.lstat(p)
            snap[p] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return snap
