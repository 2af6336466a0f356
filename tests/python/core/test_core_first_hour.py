"""The first hour of a new user: ha new, a missing PLAN.md, near-miss headings, did-you-mean,
--version (docs/ha-core.md, "ha new" and "Goal folders and ids")."""
from pathlib import Path

import pytest

from conftest import git, ha

from helpers_core import write_goal


def test_ha_new_writes_a_goal_that_ha_start_accepts_and_never_overwrites(repo):
    r = ha("new", "docs/specs/first", cwd=repo)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "wrote docs/specs/first/SPEC.md\nwrote docs/specs/first/PLAN.md\n"
    spec = (repo / "docs/specs/first/SPEC.md").read_text()
    plan = (repo / "docs/specs/first/PLAN.md").read_text()
    assert "## Acceptance Criteria" in spec and "- **AC-1**" in spec
    assert "| ID | 종류 | 검증 명령 | 검사 경로 | Task |" in plan
    assert "| ID | 목표 | 근거 | 제안 | 선행 | 필수 | 문서 |" in plan
    for column in ("종류", "검증 명령", "검사 경로", "목표", "필수", "문서"):
        assert f"  {column}" in plan  # each column explained in a comment
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    r = ha("start", "docs/specs/first", "--request", "q", cwd=repo)
    assert r.returncode == 0, r.stderr
    status = ha("status", "docs/specs/first", cwd=repo).stdout
    assert "- criteria: AC-1\n" in status and "- tasks: T001\n" in status
    before = spec
    r = ha("new", "docs/specs/first", cwd=repo)
    assert r.returncode == 65 and "never overwrites" in r.stderr
    assert (repo / "docs/specs/first/SPEC.md").read_text() == before


@pytest.mark.quick  # the quick loop's test of this module (docs/internals.md)
def test_ha_new_writes_only_the_missing_file(repo):
    write_goal(repo, "g", "# g\n", commit=False)
    r = ha("new", "g", cwd=repo)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "kept g/SPEC.md (already there, left as it is)\nwrote g/PLAN.md\n"
    assert (repo / "g/SPEC.md").read_text() == "# g\n"
    r = ha("new", "README.md/x", cwd=repo)
    assert r.returncode == 64 and "is not a folder" in r.stderr


def test_check_without_plan_says_it_is_missing_and_how_to_create_it(repo):
    write_goal(repo, "g", "# g\n\n## Acceptance Criteria\n\n- AC-1 a\n")
    assert ha("start", "g", "--request", "q", cwd=repo).returncode == 0
    r = ha("check", "g", cwd=repo)
    assert r.returncode == 65
    assert r.stderr.startswith("ha: g/PLAN.md: not found;") and "ha new g" in r.stderr


def test_near_miss_headings_are_named(repo):
    write_goal(repo, "g", "# g\n\n## Acceptance criteria\n\n- AC-1 a\n")
    r = ha("start", "g", "--request", "q", cwd=repo)
    assert r.returncode == 65
    assert "g/SPEC.md:3: heading '## Acceptance criteria' is not '## Acceptance Criteria'" \
        in r.stderr
    assert "- ids: error: g/SPEC.md:3: heading '## Acceptance criteria'" in \
        ha("status", "g", cwd=repo).stdout
    plan = "# P\n\n## Conditions\n\n| ID | 종류 | 검증 명령 | Task |\n|---|---|---|---|\n"
    write_goal(repo, "h", "# h\n", plan)
    out = ha("status", "h", cwd=repo).stdout
    assert "h/PLAN.md:3: heading '## Conditions' is not '## 조건표'" in out
    assert "'ID | 종류 | 검증 명령 | 검사 경로 | Task'" in out
    write_goal(repo, "k", "# k\n", "# P\n\n## 조건표\n\nID | 종류\n---|---\n")
    assert "k/PLAN.md:5: ## 조건표 has no table ha can read" in ha("status", "k", cwd=repo).stdout


def test_did_you_mean_and_version(repo):
    r = ha("stauts", "g", cwd=repo)
    assert r.returncode == 64 and "(did you mean 'status'?)" in r.stderr
    r = ha("status", "g", "--fromat", "md", cwd=repo)
    assert r.returncode == 64 and "unknown option --fromat (did you mean '--format'?)" in r.stderr
    root = Path(__file__).resolve().parents[3]
    version = next(line.split('"')[1] for line in (root / "pyproject.toml").read_text()
                   .splitlines() if line.startswith("version"))
    assert ha("--version", cwd=repo).stdout == f"ha {version}\n"
