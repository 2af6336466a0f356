"""judgment-kit share [--check|--remove] [--project NAME] (docs/team-memory.md, "How a team
shares"): what it writes, that --remove takes out exactly that, and its bad input."""
import os
import subprocess

import pytest

from conftest import GIT_ENV, SCRIPTS, git

LEDGER = ".claude/state/judgment-ledger.jsonl"


def kit(*args, cwd, env=None):
    full = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "JUDGMENT_"))}
    full.update(GIT_ENV, **(env or {}))
    return subprocess.run([str(SCRIPTS / "judgment-kit"), *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def shop(tmp_path):
    """A repository whose .gitattributes and .gitignore the user already wrote (no final LF in
    one), and that ignores .claude/state/ as a folder."""
    path = tmp_path / "shop"
    path.mkdir()
    git(path, "init", "-q", "-b", "main")
    (path / ".gitattributes").write_text("*.png binary\n*.sh text eol=lf")
    (path / ".gitignore").write_text("*.log\n.claude/state/\n")
    git(path, "add", "-A")
    git(path, "commit", "-qm", "initial")
    return path


def snapshot(repo):
    return {p: (repo / p).read_bytes() if (repo / p).exists() else None
            for p in (".gitattributes", ".gitignore", ".claude/judgment-project",
                      ".git/info/attributes", ".git/config")}


def test_share_writes_every_piece_and_keeps_the_users_lines(shop):
    before = snapshot(shop)
    r = kit("share", cwd=shop)
    assert r.returncode == 0, r.stderr
    attrs = (shop / ".gitattributes").read_text()
    assert attrs.startswith("*.png binary\n*.sh text eol=lf\n# judgment-kit share:")
    assert attrs.endswith(f"\n{LEDGER} merge=union\n")
    assert (shop / ".git/info/attributes").read_text().endswith(
        f"\n{LEDGER} merge=judgment-ledger\n")
    assert (shop / ".gitignore").read_text().startswith("*.log\n.claude/state/\n")
    assert (shop / ".claude/judgment-project").read_text() == "shop\n"
    driver = git(shop, "config", "--get", "merge.judgment-ledger.driver").stdout
    assert " merge %O %A %B || git merge-file --union %A %O %B" in driver
    # git's own view: the driver applies in this clone; the ledger and the name are committable
    assert git(shop, "check-attr", "merge", "--", LEDGER).stdout.endswith(": judgment-ledger\n")
    for path in (LEDGER, ".claude/judgment-project", ".claude/state/other.json"):
        ignored = git(shop, "check-ignore", "-q", "--no-index", path, check=False).returncode == 0
        assert ignored is (path.endswith("other.json")), path  # the folder's other files stay
    assert "next: git add .gitattributes .gitignore .claude/judgment-project && git commit" \
        in r.stdout
    assert git(shop, "status", "--porcelain").stdout.count("\n") == 3  # no commit was made
    assert git(shop, "rev-list", "--count", "HEAD").stdout == "1\n"
    again = kit("share", cwd=shop)
    assert again.returncode == 0 and again.stdout.startswith("unchanged: ")
    assert kit("share", "--check", cwd=shop).returncode == 0
    r = kit("share", "--remove", cwd=shop)
    assert r.returncode == 0
    after = snapshot(shop)
    assert after[".gitignore"] == before[".gitignore"]
    assert after[".gitattributes"] == before[".gitattributes"] + b"\n"  # its missing final LF
    assert after[".claude/judgment-project"] is None and after[".git/info/attributes"] is None
    assert after[".git/config"] == before[".git/config"]


def test_check_says_what_is_missing(shop):
    r = kit("share", "--check", cwd=shop)
    assert r.returncode == 1
    assert r.stdout.startswith(f"not shared: {shop}: .gitattributes has no ")
    for gap in ("git config has no merge.judgment-ledger.driver", f"{LEDGER} is ignored by git",
                ".claude/judgment-project is missing or empty"):
        assert gap in r.stdout
    assert kit("share", cwd=shop).returncode == 0
    git(shop, "config", "--unset", "merge.judgment-ledger.driver")
    r = kit("share", "--check", cwd=shop)
    assert r.returncode == 1 and "git config has no merge.judgment-ledger.driver" in r.stdout


def test_the_project_name_given_kept_or_derived(shop):
    assert kit("share", "--project", "team shop", cwd=shop).returncode == 0
    assert (shop / ".claude/judgment-project").read_text() == "team shop\n"
    kit("share", cwd=shop)  # a later share keeps the committed name
    assert (shop / ".claude/judgment-project").read_text() == "team shop\n"
    assert kit("share", "--project=shop2", cwd=shop).returncode == 0
    assert (shop / ".claude/judgment-project").read_text() == "shop2\n"


def test_share_in_a_linked_worktree_registers_for_the_whole_clone(shop, tmp_path):
    git(shop, "worktree", "add", "-q", str(tmp_path / "shop-feature"), "-b", "feature")
    r = kit("share", cwd=tmp_path / "shop-feature")
    assert r.returncode == 0, r.stderr
    common = shop / ".git" / "info" / "attributes"
    assert common.read_text().endswith(f"{LEDGER} merge=judgment-ledger\n")
    assert git(shop, "check-attr", "merge", "--", LEDGER).stdout.endswith(": judgment-ledger\n")


def test_a_nested_ignore_rule_share_cannot_override_is_named(shop):
    (shop / ".claude" / "state").mkdir(parents=True)
    (shop / ".claude" / "state" / ".gitignore").write_text("*\n")
    before = snapshot(shop)
    r = kit("share", cwd=shop)
    assert r.returncode == 70
    assert r.stderr.startswith(f"judgment-kit: share: {LEDGER} is still ignored (.claude/state/"
                               ".gitignore:1:*")
    assert r.stderr.endswith("then run share again (nothing was changed)\n")
    assert snapshot(shop) == before


@pytest.mark.parametrize("args, message", [
    (["--check", "--remove"], "--check and --remove exclude each other"),
    (["--project"], "--project needs a value"),
    (["--project", ""], "--project '': one line of 1 to 200 characters, no control characters"),
    (["--project", "a\nb"], "--project 'a\\nb': one line of 1 to 200 characters, no control "
                            "characters"),
    (["--check", "--project", "x"], "--project goes with share itself, not --check or --remove"),
    (["--force"], "unknown argument: --force"),
])
def test_usage_errors_change_nothing(shop, args, message):
    before = snapshot(shop)
    r = kit("share", *args, cwd=shop)
    assert (r.returncode, r.stderr) == (64, f"judgment-kit: share: {message}; see judgment-kit "
                                            "--help\n")
    assert snapshot(shop) == before


def test_outside_a_git_repository_is_a_usage_error(tmp_path):
    r = kit("share", cwd=tmp_path)
    assert r.returncode == 64
    assert r.stderr == (f"judgment-kit: share: {tmp_path} is not inside a git worktree; run "
                        "share from the repository whose ledger the team shares\n")
    assert list(tmp_path.iterdir()) == []


def test_help_names_share():
    r = kit("--help", cwd="/")
    assert "judgment-kit share [--check | --remove] [--project NAME]" in r.stdout


def test_remove_keeps_a_line_the_user_wrote_even_when_share_writes_the_same(shop):
    """Only lines under share's own comment are share's."""
    own = f"{LEDGER} merge=union\n"
    (shop / ".gitattributes").write_text(own)
    assert kit("share", cwd=shop).returncode == 0
    assert (shop / ".gitattributes").read_text().count(own) == 2
    assert kit("share", "--remove", cwd=shop).returncode == 0
    assert (shop / ".gitattributes").read_text() == own
