"""Shared fixtures: real git repositories, real goal folders, the real `ha` entry point.

Every test that needs a repository gets a fresh one under tmp_path; nothing is mocked.
"""
import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
FIXTURE_GOAL = ROOT / "tests" / "fixtures" / "goals" / "empty-input"

GOAL = "docs/specs/empty-input"  # where the fixture goal is copied in every test repository

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd, *args, check=True):
    env = dict(os.environ, **GIT_ENV)
    return subprocess.run(["git", "-C", str(cwd), *args], check=check, env=env,
                          capture_output=True, text=True)


def run_script(name, *args, cwd=None, env=None, input=None, timeout=None):
    """Run scripts/<name> as a user would; returns CompletedProcess with text output.
    `timeout` is only a safety net against a hang, never an assertion about speed."""
    full_env = dict(os.environ, **GIT_ENV)
    full_env.update(env or {})
    return subprocess.run([str(SCRIPTS / name), *map(str, args)], cwd=cwd, env=full_env,
                          input=input, capture_output=True, text=True, timeout=timeout)


def ha(*args, cwd, env=None, input=None, timeout=None):
    return run_script("ha", *args, cwd=cwd, env=env, input=input, timeout=timeout)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def runs_lines(repo, goal=GOAL) -> list:
    """The raw lines of the goal's run record, without their LF."""
    return (Path(repo) / goal / "runs.jsonl").read_bytes().split(b"\n")[:-1]


def start_key(repo, goal=GOAL) -> str:
    """The history store key: sha256 of the raw start line."""
    return sha(runs_lines(repo, goal)[0])


def git_common_dir(repo) -> Path:
    out = git(repo, "rev-parse", "--path-format=absolute", "--git-common-dir").stdout.strip()
    return Path(out)


def store_dir(repo, goal=GOAL) -> Path:
    return git_common_dir(repo) / "ha" / "history" / start_key(repo, goal)


@pytest.fixture
def repo(tmp_path):
    """A fresh git repository with one commit (README.md) and a src/ file."""
    path = tmp_path / "repo"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / "README.md").write_text("demo\n")
    (path / "src").mkdir()
    (path / "src" / "count.go").write_text("package count\n")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "initial")
    return path


@pytest.fixture
def goal(repo):
    """The fixture goal copied to GOAL (docs/specs/empty-input) and committed (not started)."""
    shutil.copytree(FIXTURE_GOAL, repo / GOAL)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    return GOAL
