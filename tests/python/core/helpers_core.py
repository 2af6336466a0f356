"""Helpers shared by the ha core tests (real repositories, real processes)."""
import json
import shutil
from pathlib import Path

from conftest import FIXTURE_GOAL, GOAL, git, ha, sha  # noqa: F401


def started(repo, goal=GOAL, quote="빈 입력을 고쳐 줘"):
    r = ha("start", goal, "--request", quote, cwd=repo)
    assert r.returncode == 0, r.stderr
    return r


def lines(repo, goal=GOAL):
    data = (Path(repo) / goal / "runs.jsonl").read_bytes()
    assert data.endswith(b"\n")
    return data.split(b"\n")[:-1]


def records(repo, goal=GOAL):
    return [json.loads(line) for line in lines(repo, goal)]


def write_goal(repo, rel, spec, plan=None, extra=None, commit=True):
    """Create a goal folder with the given SPEC.md / PLAN.md text (and other files)."""
    d = Path(repo) / rel
    d.mkdir(parents=True, exist_ok=True)
    (d / "SPEC.md").write_text(spec, encoding="utf-8")
    if plan is not None:
        (d / "PLAN.md").write_text(plan, encoding="utf-8")
    for name, text in (extra or {}).items():
        p = d / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    if commit:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"goal {rel}")
    return rel


def copy_fixture(repo, rel):
    shutil.copytree(FIXTURE_GOAL, Path(repo) / rel)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", f"goal {rel}")
    return rel


PLAN_HEAD = """# PLAN

## 조건표

| ID | 종류 | 검증 명령 | 검사 경로 | Task |
|---|---|---|---|---|
"""
TASKS = """
## Task

| ID | 목표 | 근거 | 제안 | 선행 | 필수 | 문서 |
|---|---|---|---|---|---|---|
| T001 | 목표 | AC-1 | 제안 | — | 예 | — |
"""


def plan_with(rows, tasks=TASKS):
    return PLAN_HEAD + "".join(r + "\n" for r in rows) + tasks
