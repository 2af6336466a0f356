"""The journal and the heal (docs/team-memory.md, "What git can still lose"): an append to a
repository's ledger is also written to a journal in the git common dir, and the git hooks that
`judgment-kit share` installs put back what a git operation overwrote.

git's own overwrite cannot be timed from a test (it happens between git's check and its
rewrite), so each test reproduces its effect: the record is appended through the real
`judgment-ledger append`, the ledger file is then replaced by its committed version (as git
replaces it), and a real git operation follows whose hook must bring the record back, exactly
once.
"""
import json
import os
import subprocess
import sys

import pytest

from conftest import GIT_ENV, ROOT, SCRIPTS

sys.path.insert(0, str(ROOT / "pylib"))
from judgment_toolkit.judgment import heal, journal, place, writer  # noqa: E402

LEDGER = ".claude/state/judgment-ledger.jsonl"
HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
RESTORED = "judgment-ledger: restored 1 record that the last git operation overwrote"


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("HARNESS_", "JUDGMENT_", "CLAUDE_", "PYTEST_", "GIT_"))}
    return dict(clean, **GIT_ENV, HOME=str(home))


def run(cwd, env, *argv, check=True):
    r = subprocess.run(list(map(str, argv)), cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=120)
    if check:
        assert r.returncode == 0, (argv, r.stdout, r.stderr)
    return r


def git(cwd, env, *args, check=True):
    return run(cwd, env, "git", *args, check=check)


def append(cwd, env, question, extra_env=None):
    r = run(cwd, dict(env, **(extra_env or {})), SCRIPTS / "judgment-ledger.sh", "append",
            "--project", "shop", "--question", question, "--answer", "yes", "--card-ref", "c",
            "--json")
    return json.loads(r.stdout)["id"], r


def count(clone, rec_id):
    return sum(1 for line in (clone / LEDGER).read_bytes().splitlines()
               if json.loads(line)["id"] == rec_id)


def journal_file(clone):
    return clone / ".git" / journal.FOLDER / journal.NAME


def overwrite_as_git_does(clone, env):
    """Replace the ledger by its committed version with a rename, as git's checkout does."""
    committed = git(clone, env, "show", f"HEAD:{LEDGER}").stdout.encode()
    tmp = clone / ".claude" / "state" / "tmp-from-git"
    tmp.write_bytes(committed)
    os.replace(tmp, clone / LEDGER)


@pytest.fixture
def team(tmp_path, env):
    """A bare remote; clone A shares the ledger and pushes one record; clone B (another folder
    name) pulls it and runs share, which installs its hooks."""
    remote, a, b = tmp_path / "origin.git", tmp_path / "alice", tmp_path / "bob-shop"
    git(tmp_path, env, "init", "-q", "--bare", "-b", "main", remote)
    git(tmp_path, env, "clone", "-q", remote, a)
    (a / "README.md").write_text("shop\n")
    run(a, env, SCRIPTS / "judgment-kit", "share", "--project", "shop")
    append(a, env, "first")
    git(a, env, "add", "-A")
    git(a, env, "commit", "-qm", "share")
    git(a, env, "push", "-q", "origin", "main")
    git(tmp_path, env, "clone", "-q", remote, b)
    run(b, env, SCRIPTS / "judgment-kit", "share")
    return a, b


def push_change(a, env, question):
    rec_id, _ = append(a, env, question)
    git(a, env, "commit", "-qam", question)
    git(a, env, "push", "-q", "origin", "main")
    return rec_id


def test_a_pull_after_git_overwrote_an_append_restores_it_once(team, env):
    a, b = team
    theirs = push_change(a, env, "from alice")
    mine, _ = append(b, env, "from bob, during the pull")
    overwrite_as_git_does(b, env)
    assert count(b, mine) == 0
    r = git(b, env, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert RESTORED in r.stderr
    assert count(b, mine) == 1 and count(b, theirs) == 1
    # the next heal finds nothing to restore
    r = run(b, env, SCRIPTS / "judgment-kit", "heal")
    assert r.stderr == "" and r.stdout == ""
    assert count(b, mine) == 1


def test_a_commit_of_a_ledger_git_left_short_is_healed_by_the_next_commit_hook(team, env):
    """git can leave a ledger without committed records (a merge that failed half-way, the file
    re-created by an append meanwhile); a commit of that file is followed by the heal."""
    _, b = team
    mine, _ = append(b, env, "committed, then lost")
    git(b, env, "commit", "-qam", "decision")
    (b / LEDGER).write_bytes(b"")
    r = git(b, env, "commit", "-qam", "the ledger as git left it")
    assert RESTORED in r.stderr
    assert count(b, mine) == 1


def test_a_file_checkout_restores_what_it_overwrote(team, env):
    _, b = team
    mine, _ = append(b, env, "appended, then checked out over")
    r = git(b, env, "checkout", "--", LEDGER)
    assert RESTORED in r.stderr
    assert count(b, mine) == 1


def test_a_rebase_restores_what_git_overwrote(team, env):
    a, b = team
    theirs = push_change(a, env, "from alice")
    (b / "notes.txt").write_text("bob's work\n")
    git(b, env, "add", "notes.txt")
    git(b, env, "commit", "-qm", "bob's work")
    mine, _ = append(b, env, "from bob, during the rebase")
    overwrite_as_git_does(b, env)
    r = git(b, env, "-c", "core.hooksPath=" + str(b / ".git" / "hooks"), "pull", "-q", "--rebase",
            "origin", "main")
    assert "restored" in r.stderr
    assert count(b, mine) == 1 and count(b, theirs) == 1


def test_a_branch_switch_does_not_bring_back_committed_records(team, env):
    """A record committed on the branch left is no record git overwrote: post-checkout leaves
    it with that branch, so the branch switched to stays clean; a switch back finds it there."""
    _, b = team
    mine, _ = append(b, env, "on main only")
    git(b, env, "commit", "-qam", "decision")
    r = git(b, env, "checkout", "-q", "-b", "old", "HEAD~1")
    assert "restored" not in r.stderr
    assert git(b, env, "status", "--porcelain").stdout == ""
    assert mine not in (b / LEDGER).read_text()
    git(b, env, "checkout", "-q", "main")
    assert count(b, mine) == 1


def test_share_installs_the_hooks_chains_a_users_hook_and_removes_exactly_its_lines(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    hooks = tmp_path / "my-hooks"  # core.hooksPath: share must use it, not .git/hooks
    hooks.mkdir()
    git(repo, env, "config", "core.hooksPath", str(hooks))
    mine = f"#!/bin/bash\necho user-hook-ran >> {tmp_path / 'ran'}\nexit 0\n"
    (hooks / "post-checkout").write_text(mine)
    os.chmod(hooks / "post-checkout", 0o755)
    assert run(repo, env, SCRIPTS / "judgment-kit", "share", "--check", check=False).returncode == 1
    out = run(repo, env, SCRIPTS / "judgment-kit", "share").stdout
    assert f"your git hooks post-checkout in {hooks}: also run judgment-kit heal" in out
    assert not (repo / ".git" / "hooks" / "post-merge").exists()
    for hook in HOOKS:
        text = (hooks / hook).read_text()
        assert text.count(share_mark()) == 1 and " heal" in text
        assert os.access(hooks / hook, os.X_OK)
    assert (hooks / "post-checkout").read_text().endswith("echo user-hook-ran >> "
                                                          f"{tmp_path / 'ran'}\nexit 0\n")
    assert run(repo, env, SCRIPTS / "judgment-kit", "share", "--check").returncode == 0
    # share again changes nothing; the user's hook still runs, and the heal with it
    run(repo, env, SCRIPTS / "judgment-kit", "share")
    assert (hooks / "post-checkout").read_text().count(share_mark()) == 1
    git(repo, env, "commit", "-q", "--allow-empty", "-m", "one")
    rec, _ = append(repo, env, "kept through a checkout")
    git(repo, env, "add", "-A")
    git(repo, env, "commit", "-qm", "two")
    git(repo, env, "checkout", "-q", "HEAD~0", "--", ".")
    assert (tmp_path / "ran").read_text() == "user-hook-ran\n"
    run(repo, env, SCRIPTS / "judgment-kit", "share", "--remove")
    assert (hooks / "post-checkout").read_text() == mine
    assert os.access(hooks / "post-checkout", os.X_OK)
    assert sorted(os.listdir(hooks)) == ["post-checkout"]
    assert run(repo, env, SCRIPTS / "judgment-kit", "share", "--check", check=False).returncode == 1


def test_share_leaves_a_hook_in_another_language_alone_and_names_it(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    theirs = "#!/usr/bin/env python3\nprint('mine')\n"
    (repo / ".git" / "hooks" / "post-merge").write_text(theirs)
    r = run(repo, env, SCRIPTS / "judgment-kit", "share", check=False)
    assert r.returncode == 70
    assert "post-merge is not an sh script" in r.stderr and "judgment-kit heal" in r.stderr
    assert (repo / ".git" / "hooks" / "post-merge").read_text() == theirs
    assert share_mark() in (repo / ".git" / "hooks" / "post-commit").read_text()


def share_mark():
    from judgment_toolkit.claude.share import HOOK_MARK
    return HOOK_MARK


def test_the_journal_is_not_written_for_a_ledger_outside_the_repository(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    own = tmp_path / "elsewhere" / "ledger.jsonl"
    rec, _ = append(repo, env, "mine", {"HARNESS_JUDGMENT_LEDGER": str(own)})
    assert rec in own.read_text()
    assert not (repo / ".git" / journal.FOLDER).exists()
    outside = tmp_path / "no-repo"
    outside.mkdir()
    append(outside, env, "no repository")
    assert (outside / LEDGER).exists()
    assert [p.name for p in tmp_path.rglob(journal.FOLDER)] == []


def test_the_append_stays_when_the_journal_cannot_be_written(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    (repo / ".git" / journal.FOLDER).write_text("a file where the journal's folder goes\n")
    rec, r = append(repo, env, "stored anyway")
    assert r.returncode == 0
    assert count(repo, rec) == 1
    assert r.stderr.count("\n") == 1 and "journal not written" in r.stderr
    assert "the append itself is stored" in r.stderr


def confined(repo):
    return place.ledger_path(str(repo))[0]


def line_of(n, project="shop"):
    return (json.dumps({"id": f"id-{n:05d}", "project": project, "question": f"q{n}",
                        "answer": "yes", "card_ref": "c", "decided_at": "2026-01-01T00:00:00Z"},
                       separators=(",", ":")) + "\n").encode()


def test_the_journal_stays_bounded_and_keeps_what_the_ledger_lacks(tmp_path, env, monkeypatch):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    monkeypatch.setattr(journal, "MAX_BYTES", 4000)
    path = confined(repo)
    for n in range(200):
        writer.append(path, line_of(n), fsync=False)
    size = journal_file(repo).stat().st_size
    assert 0 < size <= 4000
    assert (repo / LEDGER).read_bytes() == b"".join(line_of(n) for n in range(200))
    # entries the ledger lacks survive a trim; held ones go
    lost = line_of(999)
    fd = journal.open_locked(str(journal_file(repo)))
    try:
        os.write(fd, lost)
        journal.trim(fd, (repo / LEDGER).read_bytes(), len(lost) + 2 * len(line_of(100)))
    finally:
        os.close(fd)
    assert journal_file(repo).read_bytes() == line_of(198) + line_of(199) + lost


def test_heal_dedupes_by_project_and_id_and_never_recreates_a_removed_ledger(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    path = confined(repo)
    for n in range(3):
        writer.append(path, line_of(n), fsync=False)
    respelled = json.dumps(json.loads(line_of(1)), indent=None).encode() + b"\n"  # other bytes
    (repo / LEDGER).write_bytes(line_of(0) + respelled)
    fd = journal.open_locked(str(journal_file(repo)))
    try:
        os.write(fd, line_of(2) + line_of(7, project="other") + b"not json\n")
    finally:
        os.close(fd)
    assert heal.heal(path) == 2  # 2 (twice in the journal) and other's 7; 1 is held respelled
    data = (repo / LEDGER).read_bytes()
    assert data == line_of(0) + respelled + line_of(2) + line_of(7, project="other")
    assert heal.heal(path) == 0
    writer.append(path, line_of(8), fsync=False)
    (repo / LEDGER).unlink()
    assert heal.heal(path) == 0
    assert not (repo / LEDGER).exists()


def test_heal_from_a_linked_worktree_heals_the_main_ledger(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    git(repo, env, "commit", "-q", "--allow-empty", "-m", "init")
    git(repo, env, "worktree", "add", "-q", tmp_path / "feature", "-b", "feature")
    rec, _ = append(tmp_path / "feature", env, "from the linked worktree")
    (repo / LEDGER).write_bytes(b"")
    r = run(tmp_path / "feature", env, SCRIPTS / "judgment-kit", "heal")
    assert r.stderr.strip() == RESTORED and r.returncode == 0
    assert count(repo, rec) == 1


def test_heal_exits_0_and_says_so_when_the_ledger_is_refused(tmp_path, env):
    repo = tmp_path / "repo"
    git(tmp_path, env, "init", "-q", "-b", "main", repo)
    append(repo, env, "stored")
    (repo / LEDGER).unlink()
    (repo / LEDGER).symlink_to(tmp_path / "target")
    (tmp_path / "target").write_text("")
    r = run(repo, env, SCRIPTS / "judgment-kit", "heal")
    assert r.returncode == 0 and "heal skipped" in r.stderr
    assert (tmp_path / "target").read_text() == ""
