"""gitrepo: discovery, HEAD, commit resolution, errors outside a repository."""
import os

import pytest

from conftest import git

from judgment_toolkit.ha import gitrepo
from judgment_toolkit.ha.errors import HaError


def test_discover_from_a_subfolder(repo):
    r = gitrepo.discover(str(repo / "src"))
    assert r.toplevel == os.path.realpath(repo)
    assert r.git_dir == os.path.realpath(repo / ".git") == r.common_dir
    assert r.head() == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_unborn_head(tmp_path):
    git(tmp_path, "init", "-q", "-b", "main")
    r = gitrepo.discover(str(tmp_path))
    assert r.head() is None
    assert r.toplevel == os.path.realpath(tmp_path)


def test_outside_a_repository(tmp_path):
    with pytest.raises(HaError) as exc:
        gitrepo.discover(str(tmp_path))
    assert exc.value.exit_code == 64 and exc.value.message == "not inside a git repository"


def test_inside_the_git_dir_is_not_a_worktree(repo):
    with pytest.raises(HaError) as exc:
        gitrepo.discover(str(repo / ".git"))
    assert exc.value.exit_code == 64 and "worktree" in exc.value.message


def test_a_file_named_HEAD_does_not_confuse_discovery(repo):
    (repo / "HEAD").write_text("not a ref\n")
    r = gitrepo.discover(str(repo))
    assert r.head() == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_resolve_commit(repo):
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    r = gitrepo.discover(str(repo))
    assert r.resolve_commit(head[:10]) == head
    assert r.resolve_commit("main") == head
    tree = git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()
    assert r.resolve_commit(tree) is None          # a tree is not a commit
    assert r.resolve_commit("0" * 40) is None
    assert r.resolve_commit("--all") is None        # never an option
    assert r.resolve_commit("") is None


def test_commit_by_id_ignores_refs_spelled_in_hex(repo):
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "commit", "-q", "--allow-empty", "-m", "second")
    second = git(repo, "rev-parse", "HEAD").stdout.strip()
    git(repo, "branch", head[:8], second)
    git(repo, "branch", "cafebabe", second)
    git(repo, "tag", "-a", "-m", "t", "v1", head)
    tag = git(repo, "rev-parse", "v1").stdout.strip()
    r = gitrepo.discover(str(repo))
    assert r.resolve_commit(head[:8]) == second      # what rev-parse itself does
    assert r.commit_by_id(head[:8].upper()) == head
    assert r.commit_by_id(second[:7]) == second
    assert r.commit_by_id("cafebabe") is None
    assert r.commit_by_id(tag) == head               # an annotated tag peels to its commit
    assert r.commit_by_id(git(repo, "rev-parse", "HEAD^{tree}").stdout.strip()) is None


def test_head_is_cached_until_refresh(repo):
    r = gitrepo.discover(str(repo))
    first = r.head()
    git(repo, "commit", "-q", "--allow-empty", "-m", "next")
    assert r.head() == first
    r.refresh()
    assert r.head() != first and r.head() == git(repo, "rev-parse", "HEAD").stdout.strip()


def test_git_failure_is_internal(repo):
    r = gitrepo.discover(str(repo))
    with pytest.raises(HaError) as exc:
        r.git("cat-file", "-p", "0" * 40)
    assert exc.value.exit_code == 70
    assert r.git("cat-file", "-p", "0" * 40, check=False) == b""


def test_git_env_is_plumbing_safe(repo):
    r = gitrepo.discover(str(repo))
    out = r.git("var", "GIT_COMMITTER_IDENT", check=False)
    assert isinstance(out, bytes)
    assert gitrepo._git_env()["LC_ALL"] == "C" and gitrepo._git_env()["GIT_OPTIONAL_LOCKS"] == "0"
