"""Appends under the lock: many processes at once, one intact chain."""
import json
import subprocess
import sys

from conftest import GIT_ENV, ROOT, SCRIPTS, git, ha
from helpers_core import GOAL, lines, sha, started

import os


def test_parallel_checks_keep_one_intact_chain(repo, goal):
    started(repo)
    env = dict(os.environ, **GIT_ENV)
    procs = [subprocess.Popen([str(SCRIPTS / "ha"), "check", goal, "AC-1"], cwd=repo, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(8)]
    outs = [p.communicate() for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    raw = lines(repo)
    assert len(raw) == 9
    seqs = sorted(int(o.split("(seq ")[1].rstrip(")\n")) for o, _ in outs)
    assert seqs == list(range(2, 10))
    prev = None
    for i, line in enumerate(raw, 1):
        rec = json.loads(line)
        assert rec["seq"] == i and rec["prev"] == prev
        prev = sha(line)
    st = json.loads(ha("status", goal, "--format", "json", cwd=repo).stdout)
    assert st["chain"]["ok"] and st["head"]["seq"] == 9
    logs = os.listdir(os.path.join(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip(),
                                   "ha", "runs", "docs%2Fspecs%2Fempty-input"))
    assert sorted(logs) == sorted(f"{n}.log" for n in range(2, 10))


APPENDER = """
import sys
from judgment_toolkit.ha import gitrepo, goal, runs
g = goal.resolve(gitrepo.discover(sys.argv[1]), sys.argv[2], cwd=sys.argv[1])
for i in range(int(sys.argv[3])):
    runs.append(g, "note", {"who": sys.argv[4], "i": i})
"""


def test_parallel_library_appends(repo, goal):
    started(repo)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pylib"))
    procs = [subprocess.Popen([sys.executable, "-c", APPENDER, str(repo), goal, "15", f"p{n}"],
                              env=env, stderr=subprocess.PIPE, text=True) for n in range(6)]
    for p in procs:
        _, err = p.communicate()
        assert p.returncode == 0, err
    raw = lines(repo)
    assert len(raw) == 1 + 6 * 15
    prev = None
    seen = set()
    for i, line in enumerate(raw, 1):
        rec = json.loads(line)
        assert rec["seq"] == i and rec["prev"] == prev
        prev = sha(line)
        if i > 1:
            seen.add((rec["who"], rec["i"]))
    assert len(seen) == 90


def test_start_race_only_one_wins(repo, goal):
    env = dict(os.environ, **GIT_ENV)
    procs = [subprocess.Popen([str(SCRIPTS / "ha"), "start", goal, "--request", f"q{n}"],
                              cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for n in range(6)]
    codes = sorted(p.wait() for p in procs)
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    assert codes == [0, 65, 65, 65, 65, 65]
    assert len(lines(repo)) == 1


def test_write_failure_after_write_began_is_70(repo, goal):
    started(repo)
    size = (repo / goal / "runs.jsonl").stat().st_size
    limit = size + 40  # room for part of the next line only
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (%d, %d));"
            "from judgment_toolkit.ha import cli; sys.exit(cli.main(sys.argv[1:]))") % (limit, limit)
    env = dict(os.environ, PYTHONPATH=str(ROOT / "pylib"), **GIT_ENV)
    r = subprocess.run([sys.executable, "-c", code, "check", goal, "AC-1"], cwd=repo, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 70, r.stderr
    assert "may have applied; inspect before retrying" in r.stderr
    # the partial line now breaks the chain, and nothing repairs it
    r = ha("check", goal, "AC-1", cwd=repo)
    assert r.returncode == 65 and "record_integrity" in r.stderr


def test_append_waits_for_the_worktree_lock(repo, goal):
    import fcntl
    import time
    started(repo)
    lock = os.path.join(git(repo, "rev-parse", "--absolute-git-dir").stdout.strip(), "ha", "lock")
    env = dict(os.environ, **GIT_ENV)
    with open(lock, "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        p = subprocess.Popen([str(SCRIPTS / "ha"), "check", goal, "AC-1"], cwd=repo, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.0)
        assert p.poll() is None            # the command ran, but the append is waiting
        assert len(lines(repo)) == 1
        fcntl.flock(held, fcntl.LOCK_UN)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert out == "AC-1 check pass (seq 2)\n" and len(lines(repo)) == 2
