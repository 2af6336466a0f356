"""The command line: goal resolution, usage errors (64), dispatch, internal errors (70)."""
import os

import pytest

from conftest import git, ha


def test_no_arguments_and_unknown_command(tmp_path):
    r = ha(cwd=tmp_path)
    assert r.returncode == 64 and r.stderr.startswith("usage: ha capabilities")
    r = ha("frobnicate", cwd=tmp_path)
    assert r.returncode == 64 and r.stderr.startswith("ha: unknown command 'frobnicate'")
    assert ha("--version", cwd=tmp_path).stdout == "ha 0.1.5\n"


def test_outside_a_repository(tmp_path):
    for args in (("status", "x"), ("start", "x", "--request", "q"), ("check", "x")):
        r = ha(*args, cwd=tmp_path)
        assert r.returncode == 64 and r.stderr == "ha: not inside a git repository\n"


@pytest.mark.parametrize("arg,words", [
    (".", "the repository root cannot be a goal"),
    ("src/..", "the repository root cannot be a goal"),
    ("nope", "no such folder"),
    ("n" * 300, "no such folder"),          # a name too long for any file: not a crash (70)
    ("README.md", "not a folder"),
    (".git", "inside the git dir"),
    ("/", "outside the worktree"),
    ("..", "outside the worktree"),
])
def test_goal_argument_errors(repo, arg, words):
    r = ha("status", arg, cwd=repo)
    assert r.returncode == 64, r.stderr
    assert r.stderr.startswith(f"ha: goal {arg!r}: ") and words in r.stderr


def test_absolute_goal_and_symlinked_cwd(repo, goal, tmp_path):
    r = ha("status", str(repo / goal), cwd=tmp_path)  # cwd outside: still needs a repository
    assert r.returncode == 64
    link = tmp_path / "link"
    link.symlink_to(repo)
    r = ha("status", "docs/specs/empty-input", cwd=link)
    assert r.returncode == 0 and r.stdout.startswith(f"# ha status: {goal}\n")
    r = ha("status", str(repo / goal), cwd=repo / "src")
    assert r.returncode == 0 and r.stdout.startswith(f"# ha status: {goal}\n")


@pytest.mark.parametrize("args,words", [
    (("start", "g", "--request"), "start: --request needs a value"),
    (("start", "g", "--request", "a", "--request", "b"), "start: --request given twice"),
    (("start", "g", "--bogus", "x"), "start: unknown option --bogus"),
    (("start", "g", "h", "--request", "a"), "start: unexpected argument 'h'"),
    (("start",), "start: missing the goal argument"),
    (("status", "-x", "g"), "status: unknown option -x"),
    (("check",), "check: missing the goal argument"),
])
def test_usage_errors(repo, args, words):
    r = ha(*args, cwd=repo)
    assert r.returncode == 64 and r.stderr == f"ha: {words}\n"


def test_option_equals_form(repo, goal):
    r = ha("start", goal, "--request=q", "--rules=run-rules/2", cwd=repo)
    assert r.returncode == 0 and r.stdout.endswith("rules run-rules/2\n")


def test_history_dispatch(repo, goal):
    # `ha history` goes to ha.history.cli.main with the remaining argv; not started is its refusal
    r = ha("history", goal, cwd=repo)
    assert r.returncode == 65, r.stderr
    assert "not available" not in r.stderr and "internal error" not in r.stderr


def test_io_failure_is_internal_error(repo, goal):
    git_dir = git(repo, "rev-parse", "--absolute-git-dir").stdout.strip()
    os.makedirs(os.path.join(git_dir, "ha"), exist_ok=True)
    os.mkdir(os.path.join(git_dir, "ha", "lock"))  # a folder where the lock file belongs
    r = ha("start", goal, "--request", "q", cwd=repo)
    assert r.returncode == 70 and r.stderr.startswith("ha: cannot lock ")
    assert not (repo / goal / "runs.jsonl").exists()
