"""The toolkit's own state is never code (docs/ha-core.md, "Worktree cleanliness
(`tree_clean`)"; docs/history-views.md, "Context"): the Judgment Ledger, untracked or tracked
and appended to, leaves `ha status`, `ha start` and a history event's `context.code` clean,
while a real code change next to it still counts."""
import json
import os
import subprocess

from conftest import SCRIPTS, git, ha
from helpers_core import GOAL

LEDGER = (".claude", "state", "judgment-ledger.jsonl")


def append(repo, question):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    r = subprocess.run([str(SCRIPTS / "judgment-ledger.sh"), "append", "--project", "shop",
                        "--question", question, "--answer", "yes", "--card-ref", "c"],
                       cwd=repo, env=env, capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    return repo.joinpath(*LEDGER)


def status(repo):
    r = ha("status", GOAL, "--json", cwd=repo)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_an_untracked_ledger_is_not_code_for_status_start_and_the_history(repo, goal):
    path = append(repo, "Redis or Postgres?")
    assert path.is_file() and git(repo, "status", "--porcelain").stdout.strip()  # git sees it
    assert status(repo)["tree_clean"] is True
    r = ha("start", goal, "--request", "q", cwd=repo)
    assert r.returncode == 0 and "not clean" not in r.stderr, r.stderr
    assert json.loads((repo / GOAL / "runs.jsonl").read_text().splitlines()[0])["tree_clean"]
    r = ha("history", goal, "add", "--kind", "관측", "--summary", "seen", cwd=repo)
    assert r.returncode == 0, r.stderr
    append(repo, "Cache at the edge?")  # a decision recorded after the event
    r = ha("history", goal, "show", "D1", "--json", cwd=repo)
    assert r.returncode == 0, r.stderr
    assert '"code": "same"' in r.stdout or '"code":"same"' in r.stdout, r.stdout


def test_a_tracked_ledger_appended_to_is_not_code_but_real_code_is(repo, goal):
    append(repo, "first")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "share the ledger")
    append(repo, "second")  # the tracked file is now modified
    assert git(repo, "status", "--porcelain").stdout.strip() == "M .claude/state/judgment-ledger.jsonl"
    assert status(repo)["tree_clean"] is True
    (repo / "src" / "count.go").write_text("package count // edited\n")
    assert status(repo)["tree_clean"] is False


def test_other_files_under_claude_still_count(repo, goal):
    (repo / ".claude").mkdir()
    (repo / ".claude" / "judgment-project").write_text("shop\n")  # a name to commit: code
    assert status(repo)["tree_clean"] is False
