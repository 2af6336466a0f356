"""Helpers and fixtures for the history write side: a started goal (run seq 1 start, seq 2 check), and
helpers that call the real `scripts/ha history <goal> add` and read the real store files."""
import json
import os
import subprocess
import sys

import pytest

from conftest import (GIT_ENV, GOAL, ROOT, git, git_common_dir, ha, start_key,  # noqa: F401
                      store_dir)
from inproc import ha as ha_in  # the rules of the data, without a process each (inproc.py)
SAFETY_NET = 120  # seconds: a subprocess timeout against hangs, never an assertion on speed


def events(repo, goal=GOAL) -> list:
    path = store_dir(repo, goal) / "events.jsonl"
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def add(repo, *args, goal=GOAL, input=None, env=None):
    return ha_in("history", goal, "add", *args, cwd=repo, input=input, env=env,
                 timeout=SAFETY_NET)


def receipt(proc) -> dict:
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout
    return json.loads(lines[0])


def refused(proc, code: str, exit_code: int) -> str:
    """Assert a refusal with `ha: <code>: ...` on stderr and nothing on stdout."""
    assert proc.returncode == exit_code, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"ha: {code}: "), proc.stderr
    return proc.stderr


@pytest.fixture
def started(repo, goal):
    """The fixture goal started and checked once (AC-1 -> run seq 2), as in decision-history/v1 section 11."""
    p = ha_in("start", goal, "--request", "빈 입력 처리", cwd=repo)
    assert p.returncode == 0, p.stderr
    p = ha_in("check", goal, "AC-1", cwd=repo)
    assert p.returncode == 0, p.stderr
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "start")
    return repo


def snapshot(repo):
    """Bytes of every history file in the store (to prove a refusal changed nothing); None
    when no event was ever stored. The empty lock file an add creates is not history."""
    d = store_dir(repo)
    files = {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()
             and p.name != "lock"} if d.exists() else {}
    return files or None


def run(*argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, **kw)


# A writer for the concurrency tests: a Python process that runs the real
# `ha history <goal> add` (cli.main) n times, each add taking and releasing the OS lock as a
# process of its own would. The contention is between processes, which is what the lock is
# for, without an interpreter start per add (the entry point's command line has its own tests:
# tests/bats, tests/python/cli).
_WRITER = """
import sys
from judgment_toolkit.ha import cli
goal, prefix, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(1, n + 1):
    try:
        code = cli.main(["history", goal, "add", "--kind", "\uad00\uce21",
                         "--summary", f"{prefix} {i}", "--request-id", f"{prefix}-{i}"])
    except SystemExit as exit_:
        code = exit_.code
    if code != 0:
        sys.exit(1)
"""


def writer(cwd, prefix, n, goal=GOAL):
    """Starts a writer of n events ("<prefix> <i>", request id "<prefix>-<i>"); its exit
    status is 0 when every add was."""
    env = dict(os.environ, **GIT_ENV)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "pylib"),
                                                      env.get("PYTHONPATH")]))
    return subprocess.Popen([sys.executable, "-c", _WRITER, goal, prefix, str(n)], cwd=cwd,
                            env=env, stdout=subprocess.DEVNULL)
