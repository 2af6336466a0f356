"""judgment-mcp from the checkout: every tool returns what the matching CLI command returns on
the same store, and a refused call is an MCP tool error with the CLI's code and message, the
store left byte-identical (Judgment Ledger v1, section 'Fail-open' for record_judgment)."""
import json
import shutil
from pathlib import Path

import pytest

from mcpclient import (CHECKOUT_BIN, GOAL, cli, env_for, error_text, session_calls, started_repo,
                       structured)


@pytest.fixture
def store(tmp_path):
    env = env_for(tmp_path)
    repo = started_repo(tmp_path / "repo", env)
    for q, a in (("Use Redis or Postgres for the job queue?", "postgres"),
                 ("Which log format?", "json lines")):
        r = cli(CHECKOUT_BIN, "judgment-ledger", "append", "--project", "shop", "--question", q,
                "--answer", a, "--card-ref", "card-1", cwd=repo, env=env)
        assert r.returncode == 0, r.stderr
    return repo, env


def ledger_bytes(repo):
    return (repo / ".claude/state/judgment-ledger.jsonl").read_bytes()


def test_lists_the_eight_tools_and_reads_match_the_cli(store):
    repo, env = store
    names, (recall, search, prime) = session_calls(CHECKOUT_BIN, repo, env, [
        ("recall_judgments", {"question": "job queue", "project": "shop"}),
        ("search_judgments", {"query": "format", "project": "shop", "limit": 5}),
        ("prime", {"project": "shop"})])
    assert sorted(names) == sorted(["recall_judgments", "search_judgments", "record_judgment",
                                    "prime", "history_current", "history_list", "history_show",
                                    "history_add"])
    want = cli(CHECKOUT_BIN, "judgment-ledger", "recall", "--project", "shop", "--question",
               "job queue", cwd=repo, env=env)
    assert structured(recall) == json.loads(want.stdout) != []
    want = cli(CHECKOUT_BIN, "judgment-ledger", "search", "--project", "shop", "--query",
               "format", "--limit", "5", cwd=repo, env=env)
    assert structured(search) == [json.loads(l) for l in want.stdout.splitlines()] != []
    want = cli(CHECKOUT_BIN, "judgment-ledger", "prime", "--project", "shop", cwd=repo, env=env)
    assert structured(prime) == want.stdout != ""


def test_project_default_comes_from_the_command_line(store):
    repo, env = store
    _, (recall,) = session_calls(CHECKOUT_BIN, repo, env, [
        ("recall_judgments", {"question": "log format"})], args=["--project", "shop"])
    want = cli(CHECKOUT_BIN, "judgment-ledger", "recall", "--project", "shop", "--question",
               "log format", cwd=repo, env=env)
    assert structured(recall) == json.loads(want.stdout) != []


def test_record_returns_the_stored_record_and_rejects_naming_the_field(store):
    repo, env = store
    _, (ok, bad) = session_calls(CHECKOUT_BIN, repo, env, [
        ("record_judgment", {"question": "Tabs or spaces?", "answer": "spaces",
                             "card_ref": "card-2", "project": "shop", "id": "j-1"}),
        ("record_judgment", {"question": "", "answer": "a", "card_ref": "c",
                             "project": "shop"})])
    stored = structured(ok)["stored"]
    last = json.loads(ledger_bytes(repo).splitlines()[-1])
    assert stored == last and stored["id"] == "j-1"
    before = ledger_bytes(repo)
    want = cli(CHECKOUT_BIN, "judgment-ledger", "append", "--project", "shop", "--question", "",
               "--answer", "a", "--card-ref", "c", cwd=repo, env=env)
    assert want.returncode == 1 and error_text(bad) == want.stderr.strip()
    assert "question" in error_text(bad)
    assert ledger_bytes(repo) == before


def test_record_is_fail_open_on_an_unwritable_ledger(store, tmp_path):
    """Judgment Ledger v1, section 'Fail-open': an I/O problem is a result, not an error."""
    repo, env = store
    env = dict(env, HARNESS_JUDGMENT_LEDGER="/dev/full")
    _, (res,) = session_calls(CHECKOUT_BIN, repo, env, [
        ("record_judgment", {"question": "q", "answer": "a", "card_ref": "c",
                             "project": "shop"})])
    want = cli(CHECKOUT_BIN, "judgment-ledger", "append", "--project", "shop", "--question", "q",
               "--answer", "a", "--card-ref", "c", cwd=repo, env=env)
    assert want.returncode == 0 and "append skipped" in want.stderr
    assert structured(res) == {"skipped": want.stderr.strip()}


def test_history_add_and_views_match_the_cli(store):
    repo, env = store
    _, (add, current, lst, show, bad) = session_calls(CHECKOUT_BIN, repo, env, [
        ("history_add", {"goal": GOAL, "kind": "결정", "summary": "Use Postgres",
                         "targets": ["AC-1"], "request_id": "r-1"}),
        ("history_current", {"goal": GOAL}),
        ("history_list", {"goal": GOAL, "limit": 5}),
        ("history_show", {"goal": GOAL, "request_id": "r-1"}),
        ("history_add", {"goal": GOAL, "kind": "결정", "summary": "x",
                         "builds_on": ["D9"]})])
    receipt = structured(add)
    assert (receipt["schema"], receipt["id"]) == ("decision-receipt/v1", "D1")
    for view, res, extra in (("current", current, []), ("list", lst, ["--limit", "5"]),
                             ("show", show, ["--request-id", "r-1"])):
        want = cli(CHECKOUT_BIN, "ha", "history", GOAL, view, *extra, "--format", "json",
                   cwd=repo, env=env)
        assert want.returncode == 0, want.stderr
        assert structured(res) == json.loads(want.stdout)
    history = sorted(p.read_bytes() for p in repo.rglob("*") if p.is_file() and ".git/" not in str(p))
    want = cli(CHECKOUT_BIN, "ha", "history", GOAL, "add", "--kind", "결정", "--summary", "x",
               "--builds-on", "D9", cwd=repo, env=env)
    assert want.returncode != 0 and error_text(bad) == want.stderr.strip()
    assert history == sorted(p.read_bytes() for p in repo.rglob("*")
                             if p.is_file() and ".git/" not in str(p))


def test_not_started_goal_is_a_tool_error_with_the_cli_code(store):
    repo, env = store
    _, (res,) = session_calls(CHECKOUT_BIN, repo, env, [("history_current", {"goal": "nope"})])
    want = cli(CHECKOUT_BIN, "ha", "history", "nope", "current", "--format", "json",
               cwd=repo, env=env)
    assert want.returncode != 0 and error_text(res) == want.stderr.strip()
