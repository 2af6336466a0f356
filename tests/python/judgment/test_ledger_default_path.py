"""The default ledger path (docs/judgment-ledger.md, "Where the ledger lives"):
HARNESS_JUDGMENT_LEDGER, else .claude/state/judgment-ledger.jsonl in the main worktree of the
repository holding HARNESS_PROJECT_ROOT or the current directory (one ledger per repository,
from every linked worktree), else under that folder."""
import subprocess

from conftest import git
from ledger_helpers import append_args, hermetic_env, ledger, records

from judgment_toolkit.judgment import ledger as ledger_mod

REL = (".claude", "state", "judgment-ledger.jsonl")


def under(root):
    return root.joinpath(*REL)


def test_explicit_path_wins_and_parents_are_created(tmp_path):
    target = tmp_path / "a" / "b" / "c" / "l.jsonl"
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=target, HARNESS_PROJECT_ROOT=tmp_path / "p")
    assert ledger(*append_args(), env=env, cwd=tmp_path).returncode == 0
    assert len(records(target)) == 1
    assert not (tmp_path / "p").exists()


def test_project_root(tmp_path, repo):
    root = tmp_path / "project"
    env = hermetic_env(tmp_path, HARNESS_PROJECT_ROOT=root)
    assert ledger(*append_args(), env=env, cwd=repo).returncode == 0
    assert len(records(under(root))) == 1
    assert not under(repo).exists()


def test_git_top_level_from_a_subdirectory(tmp_path, repo):
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(), env=env, cwd=repo / "src").returncode == 0
    assert len(records(under(repo))) == 1
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=repo / "src",
                         capture_output=True, text=True).stdout.strip()
    assert ledger_mod.git_toplevel(str(repo / "src")) == top


def test_a_linked_worktree_uses_the_main_worktrees_ledger(tmp_path, repo):
    wt = tmp_path / "wt"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(wt)], check=True,
                   capture_output=True)
    assert (wt / ".git").is_file()
    (wt / "deep" / "er").mkdir(parents=True)
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(question="from the linked one"), env=env,
                  cwd=wt / "deep" / "er").returncode == 0
    assert ledger(*append_args(question="from the main one"), env=env, cwd=repo).returncode == 0
    assert [r["question"] for r in records(under(repo))] == ["from the linked one",
                                                             "from the main one"]
    assert not under(wt).exists()
    r = ledger("search", "--project", "demo", "--query", "from", env=env, cwd=wt)
    assert r.stdout.count("\n") == 2
    assert ledger_mod.chosen_path(env, str(wt))[1] == "under the main worktree"


def test_project_root_in_a_linked_worktree_is_resolved_to_the_main_one(tmp_path, repo):
    wt = tmp_path / "wt2"
    subprocess.run(["git", "-C", str(repo), "worktree", "add", "-q", str(wt)], check=True,
                   capture_output=True)
    env = hermetic_env(tmp_path, HARNESS_PROJECT_ROOT=wt)
    assert ledger_mod.default_path(env, str(tmp_path)) == str(under(repo))


def test_a_bare_repositorys_worktree_keeps_its_own_ledger(tmp_path, repo):
    bare = tmp_path / "shop.git"
    git(tmp_path, "clone", "-q", "--bare", str(repo), str(bare))
    wt = tmp_path / "feature"
    git(bare, "worktree", "add", "-q", str(wt))
    env = hermetic_env(tmp_path)
    assert ledger_mod.default_path(env, str(wt)) == str(under(wt))


def test_git_submodule_with_a_dot_git_file(tmp_path, repo):
    sub = tmp_path / "sub"
    sub.mkdir()
    git(sub, "init", "-q")
    git(sub, "commit", "-q", "--allow-empty", "-m", "s")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(sub), "mod")
    assert (repo / "mod" / ".git").is_file()
    (repo / "mod" / "deep").mkdir()
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(), env=env, cwd=repo / "mod" / "deep").returncode == 0
    assert len(records(under(repo / "mod"))) == 1
    assert not under(repo).exists()


def test_current_directory_outside_git(tmp_path):
    plain = tmp_path / "plain"
    plain.mkdir()
    assert ledger_mod.git_toplevel(str(plain)) is None  # tmp_path is not inside a repository
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(), env=env, cwd=plain).returncode == 0
    assert len(records(under(plain))) == 1


def test_read_paths_use_the_same_default(tmp_path, repo):
    env = hermetic_env(tmp_path)
    assert ledger(*append_args(question="where is it"), env=env, cwd=repo).returncode == 0
    r = ledger("search", "--project", "demo", "--query", "where", env=env, cwd=repo / "src")
    assert r.stdout.count("\n") == 1 and "where is it" in r.stdout


def test_empty_variables_count_as_unset(tmp_path, repo):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER="", HARNESS_PROJECT_ROOT="")
    assert ledger_mod.default_path(env, str(repo)) == str(under(repo))
