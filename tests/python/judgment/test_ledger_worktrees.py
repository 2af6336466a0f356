"""One ledger and one project name per repository (docs/judgment-ledger.md, "Where the ledger
lives"; docs/claude-kit.md, "The project name"), with real repositories: `git worktree add`,
two clones in folders of different names, appends from two worktrees at once, and an append
that waits on the lock while the ledger is replaced as git replaces it (docs/judgment-ledger.md,
"When git replaces the ledger")."""
import fcntl
import json
import os
import subprocess
import sys
import time

import pytest

from conftest import git
from ledger_helpers import LEDGER_SH, PYLIB, append_args, hermetic_env, ledger, records

from judgment_toolkit.judgment import ledger as ledger_mod, project, writer

REL = (".claude", "state", "judgment-ledger.jsonl")


@pytest.fixture
def worktrees(tmp_path, repo):
    """The repository `repo` (folder "repo") and a linked worktree in "repo-feature-x"."""
    linked = tmp_path / "repo-feature-x"
    git(repo, "worktree", "add", "-q", "-b", "feature-x", str(linked))
    return repo, linked


def test_every_worktree_names_the_same_project_and_ledger(worktrees):
    main, linked = worktrees
    (linked / "deep").mkdir()
    for where in (main, linked, linked / "deep"):
        assert project.project_name(str(where), env={}) == "repo"
        assert ledger_mod.default_path({}, str(where)) == str(main.joinpath(*REL))
    assert project.project_name(str(linked), env={"JUDGMENT_PROJECT": "x"}) == "x"


def test_two_clones_with_a_committed_name_are_one_project(tmp_path, repo):
    (repo / ".claude").mkdir()
    (repo / ".claude" / "judgment-project").write_text("shop\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "name the project")
    a, b = tmp_path / "shop-alice", tmp_path / "checkout-2"
    for clone in (a, b):
        git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert {project.project_name(str(c), env={}) for c in (a, b, repo)} == {"shop"}
    git(b, "worktree", "add", "-q", str(tmp_path / "wt-of-b"))
    assert project.project_name(str(tmp_path / "wt-of-b"), env={}) == "shop"
    # without the committed name, each clone is its folder
    os.unlink(a / ".claude" / "judgment-project")
    assert project.project_name(str(a), env={}) == "shop-alice"


@pytest.mark.parametrize("text", ["", "\n", " \n", "a\x1bb\n", "x" * 201 + "\n", "\xff"])
def test_a_committed_name_that_is_no_name_is_ignored(repo, text):
    (repo / ".claude").mkdir()
    (repo / ".claude" / "judgment-project").write_bytes(text.encode("latin-1"))
    assert project.project_name(str(repo), env={}) == "repo"


WORKER = """
import sys
from judgment_toolkit.judgment import ledger, record, writer
tag, count = sys.argv[1], int(sys.argv[2])
path = ledger.default_path()  # chosen from this worktree, as every append chooses it
for i in range(count):
    rec = record.build({"project": "repo", "question": "q %s %d" % (tag, i), "answer": "a",
                        "card_ref": "c"})
    writer.append(path, record.to_line(rec), timeout=120)  # a loaded machine: no skip
"""


def test_appends_from_two_worktrees_at_once_keep_every_record(tmp_path, worktrees):
    main, linked = worktrees
    env = hermetic_env(tmp_path, PYTHONPATH=PYLIB)
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, tag, "300"], cwd=cwd, env=env)
             for tag, cwd in (("main", main), ("linked", linked))]
    assert [p.wait(timeout=300) for p in procs] == [0] * 2
    # and the entry point, from both at once (after the workers: its lock wait is 2 s)
    script = [subprocess.Popen([str(LEDGER_SH), *append_args(project="repo", question=f"cli {i}")],
                               cwd=linked if i % 2 else main, env=hermetic_env(tmp_path))
              for i in range(6)]
    assert [p.wait(timeout=300) for p in script] == [0] * 6
    got = [r["question"] for r in records(main.joinpath(*REL))]
    assert sorted(got) == sorted([f"q {t} {i}" for t in ("main", "linked") for i in range(300)]
                                 + [f"cli {i}" for i in range(6)])
    assert not linked.joinpath(*REL).exists()
    r = ledger("verify", env=hermetic_env(tmp_path), cwd=linked)
    assert r.returncode == 0 and "ok: 606 records" in r.stdout


def holders(path):
    """The pids (other than ours) with `path` open, from /proc."""
    found = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        if int(pid) == os.getpid():
            continue
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == str(path):
                    found.add(int(pid))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to see the waiter")
def test_an_append_waiting_while_git_replaces_the_ledger_lands_in_the_new_file(tmp_path, repo):
    """git checkout, pull and merge write a new file and rename it over the old one; an
    appender that opened the old one and waits for its lock must not write only there."""
    path = repo.joinpath(*REL)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    env = hermetic_env(tmp_path)
    held = os.open(path, os.O_RDWR)
    fcntl.flock(held, fcntl.LOCK_EX)
    try:
        appender = subprocess.Popen([str(LEDGER_SH), *append_args(question="survives git")],
                                    cwd=repo, env=env, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60  # a safety net against a hang, not a timing claim
        while not holders(path):
            assert appender.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        theirs = json.dumps({"id": "from-git", "project": "demo",
                             "decided_at": "2026-01-01T00:00:00Z", "question": "merged in",
                             "answer": "a", "rationale": "", "card_ref": "c", "tags": []})
        tmp = path.with_name("judgment-ledger.jsonl.lock")
        tmp.write_text(theirs + "\n")
        os.rename(tmp, path)  # as git's checkout does
    finally:
        os.close(held)  # the appender now gets the lock of the unlinked file
    assert appender.wait(timeout=60) == 0, appender.stderr.read()
    assert [r["question"] for r in records(path)] == ["merged in", "survives git"]


def test_a_replaced_ledger_that_already_holds_the_line_gets_no_second_copy(tmp_path):
    """_holds: a merge may carry our line over into the new file; no second copy then."""
    path = tmp_path / "l.jsonl"
    line = b'{"id":"x"}\n'
    path.write_bytes(b'{"id":"a"}\n' + line)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert writer._holds(fd, line)
        assert not writer._holds(fd, b'{"id":"y"}\n')
    finally:
        os.close(fd)
    path.write_bytes(b'x{"id":"x"}\n')  # only as the tail of another line: not held
    fd = os.open(path, os.O_RDONLY)
    try:
        assert not writer._holds(fd, line)
    finally:
        os.close(fd)


def test_the_hooks_in_a_linked_worktree_prime_and_recall_the_main_ones_decisions(tmp_path,
                                                                                 worktrees):
    from kit.test_plugin import ask_payload, run_hook
    main, linked = worktrees
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    r = ledger(*append_args(project="repo", question="Which queue backend: Redis or Postgres?"),
               env=hermetic_env(tmp_path), cwd=main)
    assert r.returncode == 0, r.stderr
    r = run_hook("SessionStart", {"session_id": "s", "hook_event_name": "SessionStart",
                                  "source": "startup"}, home, linked)
    assert r.stdout.startswith("## Recent judgments: repo\n") and "Redis or Postgres" in r.stdout
    r = run_hook("PreToolUse", ask_payload("PreToolUse", linked), home, linked)
    assert "Redis or Postgres" in r.stdout, r.stderr


def test_judgment_kit_project_checks_its_arguments(tmp_path, worktrees):
    from conftest import SCRIPTS
    main, linked = worktrees
    kit = str(SCRIPTS / "judgment-kit")
    env = {k: v for k, v in hermetic_env(tmp_path).items()
           if k not in ("JUDGMENT_PROJECT", "CLAUDE_PROJECT_DIR")}
    r = subprocess.run([kit, "project"], cwd=linked, env=env, capture_output=True, text=True)
    assert (r.returncode, r.stdout) == (0, "repo\n")
    for argv, code in ((["--dir", str(tmp_path / "nope")], 64), (["--colour"], 64),
                       (["--dir"], 64), (["--help"], 0)):
        r = subprocess.run([kit, "project", *argv], cwd=linked, env=env, capture_output=True,
                           text=True)
        assert r.returncode == code, (argv, r.stderr)
        assert (r.stderr == "") is (code == 0)
