"""`ha start`: the start line, refusals, warnings, and start identity."""
import json
import re
import shutil

from conftest import git, ha
from helpers_core import GOAL, lines, records, sha, started

from judgment_toolkit.ha import gitrepo, goal as goalmod, runs


def test_start_line_exact(repo, goal):
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    r = ha("start", goal, "--request", "빈 입력을 \"고쳐\" 줘", cwd=repo)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"started: seq 1, base {head[:12]}, rules run-rules/3\n"
    assert r.stderr == ""
    raw = lines(repo)
    assert len(raw) == 1
    rec = json.loads(raw[0])
    assert list(rec) == ["schema", "seq", "prev", "kind", "at", "ha_version", "goal",
                         "base_commit", "tree_clean", "spec_digest", "request", "rules"]
    assert rec["schema"] == "run/v1" and rec["seq"] == 1 and rec["prev"] is None
    assert rec["kind"] == "start" and rec["ha_version"] == "0.1.5"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", rec["at"])
    assert rec["goal"] == goal and rec["base_commit"] == head and rec["tree_clean"] is True
    assert rec["request"] == {"source": "conversation", "quote": "빈 입력을 \"고쳐\" 줘"}
    assert rec["rules"] == "run-rules/3"
    # compact, non-ASCII unescaped: the line is exactly what the serialiser gives
    assert raw[0] == json.dumps(rec, ensure_ascii=False, separators=(",", ":")).encode()
    assert "빈 입력".encode() in raw[0]


def test_rules_option(repo, goal):
    r = ha("start", goal, "--request", "q", "--rules", "run-rules/1", cwd=repo)
    assert r.returncode == 0 and r.stdout.endswith("rules run-rules/1\n")
    assert records(repo)[0]["rules"] == "run-rules/1"


def test_unknown_rules_is_66(repo, goal):
    r = ha("start", goal, "--request", "q", "--rules", "run-rules/7", cwd=repo)
    assert r.returncode == 66 and r.stderr.startswith("ha: unsupported run rules")
    assert not (repo / goal / "runs.jsonl").exists()


def test_already_started_is_refused(repo, goal):
    started(repo)
    before = (repo / goal / "runs.jsonl").read_bytes()
    r = ha("start", goal, "--request", "again", cwd=repo)
    assert r.returncode == 65
    assert r.stderr == f"ha: already started: {goal}/runs.jsonl has a start line (head seq 1)\n"
    assert (repo / goal / "runs.jsonl").read_bytes() == before


def test_no_commit_is_refused(tmp_path):
    from conftest import FIXTURE_GOAL
    repo = tmp_path / "r"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shutil.copytree(FIXTURE_GOAL, repo / "g")
    r = ha("start", "g", "--request", "q", cwd=repo)
    assert r.returncode == 65 and "no commit" in r.stderr
    assert not (repo / "g" / "runs.jsonl").exists()


def test_dirty_tree_warns_and_records_false(repo, goal):
    (repo / "src" / "count.go").write_text("package count // edited\n")
    r = ha("start", goal, "--request", "q", cwd=repo)
    assert r.returncode == 0
    assert r.stderr.startswith("ha: warning: worktree has changes")
    assert records(repo)[0]["tree_clean"] is False


def test_missing_spec_is_refused(repo):
    (repo / "g").mkdir()
    (repo / "g" / "PLAN.md").write_text("# PLAN\n")
    r = ha("start", "g", "--request", "q", cwd=repo)
    assert r.returncode == 65 and r.stderr == "ha: g/SPEC.md: not found; a goal needs a SPEC.md\n"


def test_request_is_required(repo, goal):
    r = ha("start", goal, cwd=repo)
    assert r.returncode == 64 and r.stderr.startswith("ha: start: --request QUOTE is required")
    r = ha("start", goal, "--request", "  ", cwd=repo)
    assert r.returncode == 64


def test_start_key_is_the_sha256_of_the_raw_start_line(repo, goal):
    started(repo)
    raw = lines(repo)[0]
    g = goalmod.resolve(gitrepo.discover(str(repo)), goal, cwd=str(repo))
    chain = runs.read_chain(g)
    assert runs.start_key(chain) == sha(raw)


def test_copied_or_moved_goal_keeps_the_start_key(repo, goal):
    started(repo)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "started")
    key = sha(lines(repo)[0])
    shutil.copytree(repo / goal, repo / "docs" / "specs" / "copy")
    git(repo, "mv", goal, "docs/specs/moved")
    for rel in ("docs/specs/copy", "docs/specs/moved"):
        g = goalmod.resolve(gitrepo.discover(str(repo)), rel, cwd=str(repo))
        assert runs.start_key(runs.read_chain(g)) == key


def test_a_different_start_gets_a_different_key(repo, goal):
    started(repo, quote="one")
    first = sha(lines(repo)[0])
    (repo / goal / "runs.jsonl").unlink()
    started(repo, quote="two")
    assert sha(lines(repo)[0]) != first


def test_start_from_a_subfolder_with_relative_goal(repo, goal):
    r = ha("start", "empty-input", "--request", "q", cwd=repo / "docs" / "specs")
    assert r.returncode == 0, r.stderr
    assert records(repo)[0]["goal"] == goal
