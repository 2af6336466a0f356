"""Linked worktrees (git worktree add): per-worktree git dir for lock and logs."""
import os

from conftest import git, ha
from helpers_core import GOAL, records, started

from judgment_toolkit.ha import gitrepo


def add_worktree(repo, tmp_path):
    wt = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(wt))
    return wt


def test_discover_linked_worktree(repo, goal, tmp_path):
    wt = add_worktree(repo, tmp_path)
    r = gitrepo.discover(str(wt / "src"))
    assert r.toplevel == os.path.realpath(wt)
    assert r.git_dir == os.path.realpath(repo / ".git" / "worktrees" / "wt")
    assert r.common_dir == os.path.realpath(repo / ".git")
    assert r.head() == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_start_and_check_in_a_linked_worktree(repo, goal, tmp_path):
    wt = add_worktree(repo, tmp_path)
    r = ha("start", GOAL, "--request", "worktree", cwd=wt)
    assert r.returncode == 0, r.stderr
    r = ha("check", GOAL, "AC-1", cwd=wt)
    assert r.returncode == 0 and r.stdout == "AC-1 check pass (seq 2)\n"
    wt_git = repo / ".git" / "worktrees" / "wt"
    assert (wt_git / "ha" / "lock").is_file()
    assert (wt_git / "ha" / "runs" / "docs%2Fspecs%2Fempty-input" / "2.log").is_file()
    assert not (repo / ".git" / "ha" / "runs").exists()
    assert records(wt)[1]["output_path"] == ".git/ha/runs/docs%2Fspecs%2Fempty-input/2.log"
    assert records(wt)[0]["tree_clean"] is True
    # the main worktree's goal is untouched and not started
    assert not (repo / GOAL / "runs.jsonl").exists()
    assert ha("check", GOAL, cwd=repo).returncode == 65


def test_same_start_line_in_two_worktrees_same_key(repo, goal, tmp_path):
    started(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "started")
    wt = add_worktree(repo, tmp_path)
    from judgment_toolkit.ha import goal as goalmod, runs
    keys = set()
    for top in (repo, wt):
        g = goalmod.resolve(gitrepo.discover(str(top)), GOAL, cwd=str(top))
        keys.add(runs.start_key(runs.read_chain(g)))
    assert len(keys) == 1
