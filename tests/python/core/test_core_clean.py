"""The clean check: porcelain v2 with the goal's documents and run bundle excluded."""
import json
import os

from conftest import git, ha
from helpers_core import GOAL, copy_fixture, records, started

from judgment_toolkit.ha import gitrepo, goal as goalmod


def open_goal(repo, rel=GOAL):
    return goalmod.resolve(gitrepo.discover(str(repo)), rel, cwd=str(repo))


def clean(repo, rules="run-rules/3", rel=GOAL):
    return open_goal(repo, rel).is_clean(rules)


def test_bundle_and_document_edits_do_not_count(repo, goal):
    d = repo / goal
    for name in ("PLAN.md", "REVIEW.md", "PROGRESS.md", "notes.md"):
        (d / name).write_text("edited\n")
    (d / "SPEC.md").write_text((d / "SPEC.md").read_text() + "edited\n")
    (d / "tasks").mkdir()
    (d / "tasks" / "T001.md").write_text("t\n")
    (d / "runs.jsonl").write_text("")
    assert clean(repo)


def test_a_document_unlinked_from_spec_becomes_code(repo, goal):
    d = repo / goal
    (d / "SPEC.md").write_text("# no links now\n")
    assert clean(repo) is True  # SPEC.md is a document: editing it stays clean ...
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "unlink")
    (d / "notes.md").write_text("now code\n")
    assert clean(repo) is False  # ... but notes.md is no longer one


def test_code_in_the_goal_folder_counts(repo, goal):
    (repo / goal / "helper.py").write_text("x = 1\n")
    assert not clean(repo)


def test_untracked_and_modified_count_ignored_does_not(repo, goal):
    (repo / ".gitignore").write_text("build/\n")
    git(repo, "add", ".gitignore")
    git(repo, "commit", "-qm", "ignore")
    (repo / "build").mkdir()
    (repo / "build" / "out.bin").write_text("x")
    assert clean(repo)
    (repo / "src" / "count.go").write_text("changed\n")
    assert not clean(repo)
    git(repo, "checkout", "--", "src/count.go")
    assert clean(repo)
    (repo / "src" / "deep").mkdir()
    (repo / "src" / "deep" / "new.go").write_text("x")  # untracked-files=all sees inside folders
    assert not clean(repo)


def test_staged_change_counts(repo, goal):
    (repo / "src" / "count.go").write_text("changed\n")
    git(repo, "add", "src/count.go")
    assert not clean(repo)


def test_sibling_bundles_excluded_from_rules_2(repo, goal):
    sib = copy_fixture(repo, "docs/specs/other")
    (repo / sib / "REVIEW.md").write_text("sibling review edit\n")
    assert not clean(repo, "run-rules/1")
    assert clean(repo, "run-rules/2") and clean(repo, "run-rules/3")
    (repo / sib / "SPEC.md").write_text("sibling documents are code for this goal\n")
    assert not clean(repo, "run-rules/3")


def test_shared_bundle_declaration_keeps_siblings_as_inputs(repo, goal):
    sib = copy_fixture(repo, "docs/specs/other")
    plan = repo / goal / "PLAN.md"
    plan.write_text(plan.read_text(encoding="utf-8") + "- 다른 목표 실행 묶음: `검사 입력`\n",
                    encoding="utf-8")
    (repo / sib / "REVIEW.md").write_text("sibling review edit\n")
    assert not clean(repo, "run-rules/3")


def test_excludes_are_literal(repo):
    weird = "docs/specs/a*[b]"
    os.makedirs(repo / weird)
    (repo / weird / "SPEC.md").write_text("# s\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "weird")
    (repo / "docs" / "specs" / "aXb").mkdir()
    (repo / "docs" / "specs" / "aXb" / "PLAN.md").write_text("x")  # a glob would match this
    g = open_goal(repo, weird)
    assert f"{weird}/PLAN.md" in g.clean_excludes("run-rules/1")
    assert not g.is_clean("run-rules/1")
    os.remove(repo / "docs" / "specs" / "aXb" / "PLAN.md")
    (repo / weird / "PLAN.md").write_text("x")
    assert open_goal(repo, weird).is_clean("run-rules/1")


def test_clean_excludes_list(repo, goal):
    g = open_goal(repo)
    assert g.clean_excludes("run-rules/1") == sorted([
        ".claude/state/judgment-ledger.jsonl",  # the toolkit's own state (test_core_own_state.py)
        f"{goal}/PLAN.md", f"{goal}/PROGRESS.md", f"{goal}/REVIEW.md", f"{goal}/SPEC.md",
        f"{goal}/notes.md", f"{goal}/runs.jsonl", f"{goal}/tasks"])
