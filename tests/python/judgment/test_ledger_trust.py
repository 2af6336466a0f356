"""The trust boundary (docs/judgment-ledger.md, "The trust boundary"), tried as a hostile
repository would: inside a repository the default ledger and each folder on its way
(`.claude`, `.claude/state`) must be real folders and a real file inside it. A symlink there,
committed and cloned, is refused: append skips with one stderr line and exit 0 (Judgment
Ledger v1, section 'Fail-Open'), the reads fail with their documented exit 1 and name it,
prime skips with one line, verify names it; nothing outside the repository is written or
read. A path given by HARNESS_JUDGMENT_LEDGER is the user's own and may be a symlink."""
import json
import os

import pytest

from conftest import git
from ledger_helpers import append_args, hermetic_env, ledger, records

from judgment_toolkit.judgment import ledger as ledger_mod, place, project, writer

VICTIM = b"export PATH=/usr/bin\n"  # a shell start-up file outside the repository


def hostile(tmp_path, repo, kind):
    """A clone of a repository that committed one symlink on the ledger's way; (clone, what
    must stay untouched outside it)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "bashrc"
    victim.write_bytes(VICTIM)
    (outside / "state").mkdir()
    if kind == "ledger":
        (repo / ".claude" / "state").mkdir(parents=True)
        os.symlink(victim, repo / ".claude" / "state" / "judgment-ledger.jsonl")
    elif kind == "state":
        (repo / ".claude").mkdir()
        os.symlink(outside, repo / ".claude" / "state")
    elif kind == "claude":
        os.symlink(outside, repo / ".claude")
    elif kind == "inside":  # a symlink that stays inside the repository is refused too
        (repo / "docs" / "state").mkdir(parents=True)
        os.symlink("../docs", repo / ".claude")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "hostile")
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(repo), str(clone))
    assert os.path.islink(clone.joinpath(*{"ledger": (".claude", "state", "judgment-ledger.jsonl"),
                                           "state": (".claude", "state"),
                                           "claude": (".claude",),
                                           "inside": (".claude",)}[kind]))
    return clone, outside


def snapshot(folder):
    return {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}


KINDS = ["ledger", "state", "claude", "inside"]


@pytest.mark.parametrize("kind", KINDS)
def test_append_skips_with_one_line_and_writes_nothing_outside(tmp_path, repo, kind):
    clone, outside = hostile(tmp_path, repo, kind)
    before = snapshot(outside), snapshot(repo)
    r = ledger(*append_args(question="secret question"), env=hermetic_env(tmp_path), cwd=clone)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("judgment-ledger: append skipped (refused ")
    assert "is a symbolic link" in r.stderr and "HARNESS_JUDGMENT_LEDGER" in r.stderr
    assert (snapshot(outside), snapshot(repo)) == before
    assert b"secret question" not in b"".join(snapshot(tmp_path).values())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", [["search", "--query", "x"], ["recall", "--question", "x"],
                                     ["list"], ["show", "some-id"]])
def test_reads_fail_with_exit_1_and_name_the_link(tmp_path, repo, kind, command):
    clone, _ = hostile(tmp_path, repo, kind)
    r = ledger(*command, "--project", "demo", env=hermetic_env(tmp_path), cwd=clone)
    assert (r.returncode, r.stdout) == (1, "")
    assert f"judgment-ledger: {command[0]}: cannot read the ledger " in r.stderr
    assert "is a symbolic link" in r.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_prime_skips_and_verify_names_it(tmp_path, repo, kind):
    clone, _ = hostile(tmp_path, repo, kind)
    env = hermetic_env(tmp_path)
    r = ledger("prime", "--project", "demo", env=env, cwd=clone)
    assert (r.returncode, r.stdout) == (0, "") and r.stderr.count("\n") == 1
    assert r.stderr.startswith("judgment-ledger: prime: skipped (") and "symbolic link" in r.stderr
    r = ledger("verify", env=env, cwd=clone)
    assert r.returncode == 1 and "is a symbolic link" in r.stderr and "verify" in r.stderr


def test_the_users_own_path_may_be_a_symlink(tmp_path, repo):
    clone, outside = hostile(tmp_path, repo, "claude")
    mine = tmp_path / "mine.jsonl"
    os.symlink(outside / "bashrc", mine)  # the user's choice: followed
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=mine)
    assert ledger(*append_args(), env=env, cwd=clone).returncode == 0
    data = (outside / "bashrc").read_bytes()
    assert data.startswith(VICTIM) and json.loads(data[len(VICTIM):])["question"]


def test_a_linked_worktree_of_a_hostile_repository_is_refused_too(tmp_path, repo):
    clone, outside = hostile(tmp_path, repo, "state")
    linked = tmp_path / "linked"
    git(clone, "worktree", "add", "-q", str(linked))
    r = ledger(*append_args(), env=hermetic_env(tmp_path), cwd=linked)
    assert r.returncode == 0 and "append skipped (refused" in r.stderr
    assert snapshot(outside) == {outside / "bashrc": VICTIM}


def test_a_regular_ledger_in_real_folders_is_used(tmp_path, repo):
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(question="fine"), env=env, cwd=repo).returncode == 0
    path = ledger_mod.default_path(env, str(repo))
    assert isinstance(path, place.Confined)
    assert [r["question"] for r in records(repo / ".claude/state/judgment-ledger.jsonl")] == ["fine"]


def test_the_writer_refuses_a_link_swapped_in_after_the_path_was_chosen(tmp_path, repo):
    """The check is the open itself (no symlink followed at any step), not an earlier look."""
    path = ledger_mod.default_path({}, str(repo))
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    os.symlink(outside, repo / ".claude")
    with pytest.raises(writer.AppendSkipped, match="is a symbolic link"):
        writer.append(path, b'{"x":1}\n')
    assert list(outside.iterdir()) == []


def test_a_committed_project_name_behind_a_symlink_is_not_read(tmp_path, repo):
    name = tmp_path / "name"
    name.write_text("stolen\n")
    (repo / ".claude").mkdir()
    os.symlink(name, repo / ".claude" / "judgment-project")
    assert project.project_name(str(repo), env={}) == "repo"
    os.unlink(repo / ".claude" / "judgment-project")
    os.mkfifo(repo / ".claude" / "judgment-project")  # never waited on
    assert project.project_name(str(repo), env={}) == "repo"
