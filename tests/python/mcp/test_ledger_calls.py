"""How the ledger tools reach the ledger (mcpserver/backend.py): a read runs the CLI's Python
job in this server's process, a call the CLI refuses goes through the CLI's script and comes
back with its message and exit code, and record_judgment hands its record to
`judgment-ledger append --input -` on stdin. Processes are counted with a `bash` on PATH that
logs each start before it runs the real one."""
import json
import os
import shutil

import pytest

from helpers_mcp import error_text, ledger_cli, session, structured

SEED = [("record_judgment", {"question": "Indent with tabs or spaces?", "answer": "spaces",
                             "card_ref": "cards/style.md", "rationale": "house style"}),
        ("record_judgment", {"question": "Squash merges on main?", "answer": "yes",
                             "card_ref": "cards/git.md", "tags": "git,merge"})]


@pytest.fixture
def counted(tmp_path):
    """(PATH whose bash logs every start, the log)."""
    bin_dir, log = tmp_path / "counting-bin", tmp_path / "bash-starts.log"
    bin_dir.mkdir()
    wrapper = bin_dir / "bash"
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\n'
                       f'exec {shutil.which("bash")} "$@"\n')
    wrapper.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}", log


def starts(log):
    return log.read_text().splitlines() if log.exists() else []


def test_reads_start_no_process_and_an_append_starts_the_entry_point_once(repo, counted):
    path, log = counted
    ledger = repo / "ledger.jsonl"
    kw = dict(cwd=repo, ledger=ledger, args=["--project", "demo"], env={"PATH": path})
    _, results = session(SEED, **kw)
    assert [s.split()[1:3] for s in starts(log)] == [["append", "--json"]] * 2
    assert all("--input -" in s for s in starts(log))
    assert [structured(r)["stored"] for r in results] == [
        json.loads(x) for x in ledger.read_text().splitlines()]
    log.unlink()
    _, results = session([("recall_judgments", {"question": "tabs"}),
                          ("search_judgments", {"query": "merges", "limit": 2}),
                          ("prime", {"limit": 1})] * 3, **kw)
    assert starts(log) == []
    assert all(not r.is_error for r in results)


# (tool, arguments, the same call as CLI arguments): each one the script refuses.
REFUSED = [
    ("recall_judgments", {"question": "tabs", "project": ""},
     ["recall", "--project", "", "--question", "tabs"]),
    ("search_judgments", {"query": "x", "project": ""},
     ["search", "--project", "", "--query", "x"]),
    ("search_judgments", {"query": "x", "project": "demo", "limit": 4},
     ["search", "--project", "demo", "--query", "x", "--limit", "4"]),
    ("search_judgments", {"query": "x", "project": "demo", "limit": 0},
     ["search", "--project", "demo", "--query", "x", "--limit", "0"]),
    ("prime", {"project": "demo", "limit": 51}, ["prime", "--project", "demo", "--limit", "51"]),
    ("recall_judgments", {"question": "x", "project": "demo", "rank": "bm25"},
     ["recall", "--project", "demo", "--question", "x", "--rank", "bm25"]),
]


def test_refused_reads_carry_the_cli_message_and_exit_code(repo, counted):
    path, log = counted
    ledger = repo / "ledger.jsonl"
    _, results = session(SEED, cwd=repo, ledger=ledger, args=["--project", "demo"])
    before = ledger.read_bytes()
    _, results = session([(tool, args) for tool, args, _ in REFUSED], cwd=repo, ledger=ledger,
                         env={"PATH": path})
    assert len(starts(log)) == len(REFUSED)
    for (tool, _, argv), r in zip(REFUSED, results):
        p = ledger_cli(*argv, cwd=repo, ledger=ledger)
        assert p.returncode == 64 and p.stdout == "", argv
        assert error_text(r) == p.stderr.strip(), argv
        assert r.structured_content == {"exit_code": 64, "error": p.stderr.strip()}
    assert ledger.read_bytes() == before


def test_a_bad_rank_in_the_environment_is_refused_as_the_cli_refuses_it(repo):
    env = {"HARNESS_JUDGMENT_RANK": "fuzzy"}
    ledger = repo / "ledger.jsonl"
    _, (r,) = session([("recall_judgments", {"question": "x"})], cwd=repo, ledger=ledger,
                      args=["--project", "demo"], env=env)
    p = ledger_cli("recall", "--project", "demo", "--question", "x", cwd=repo, ledger=ledger,
                   env=env)
    assert p.returncode == 64 and error_text(r) == p.stderr.strip()


def test_in_process_reads_equal_the_cli_in_both_ranking_modes_and_for_an_empty_project(repo):
    ledger = repo / "ledger.jsonl"
    session(SEED, cwd=repo, ledger=ledger, args=["--project", "demo"])
    calls = [("recall_judgments", {"question": "tabs or spaces", "rank": "relevance"}),
             ("search_judgments", {"query": "squash merges", "rank": "relevance", "limit": 1}),
             ("search_judgments", {"query": ""}),
             ("prime", {"project": ""})]
    _, (recall, search, newest, blank) = session(calls, cwd=repo, ledger=ledger,
                                                 args=["--project", "demo"])
    cli = dict(cwd=repo, ledger=ledger)
    p = ledger_cli("recall", "--project", "demo", "--question", "tabs or spaces", "--rank",
                   "relevance", **cli)
    assert structured(recall) == json.loads(p.stdout) != []
    for result, argv in ((search, ["--query", "squash merges", "--rank", "relevance",
                                   "--limit", "1"]), (newest, ["--query", ""])):
        p = ledger_cli("search", "--project", "demo", *argv, **cli)
        assert structured(result) == [json.loads(x) for x in p.stdout.splitlines()] != []
    # No record has an empty project (the schema refuses one), so both digests are empty.
    p = ledger_cli("prime", "--project", "", **cli)
    assert p.returncode == 0 and p.stderr == "" and structured(blank) == p.stdout == ""


def test_a_rejected_record_leaves_a_full_ledger_byte_identical(repo):
    """Judgment Ledger v1, section 'Fail-Open': a record the caller got wrong is refused (exit
    1), with the CLI's message, and nothing is written."""
    ledger = repo / "ledger.jsonl"
    kw = dict(cwd=repo, ledger=ledger, args=["--project", "demo"])
    session([("record_judgment", {"question": "q?", "answer": "a", "card_ref": "c",
                                  "id": "fixed-1"})], **kw)
    before = ledger.read_bytes()
    _, (clash, blank) = session([
        ("record_judgment", {"question": "q?", "answer": "other", "card_ref": "c",
                             "id": "fixed-1"}),
        ("record_judgment", {"question": "q?", "answer": "", "card_ref": "c"})], **kw)
    p = ledger_cli("append", "--project", "demo", "--question", "q?", "--answer", "other",
                   "--card-ref", "c", "--id", "fixed-1", cwd=repo, ledger=ledger)
    assert p.returncode == 1 and error_text(clash) == p.stderr.strip()
    assert clash.structured_content["exit_code"] == 1
    p = ledger_cli("append", "--project", "demo", "--question", "q?", "--answer", "",
                   "--card-ref", "c", cwd=repo, ledger=ledger)
    assert p.returncode == 1 and error_text(blank) == p.stderr.strip() and "answer" in p.stderr
    assert ledger.read_bytes() == before


def test_recall_with_rank_answers_equals_the_cli_and_is_silent_on_an_unrelated_question(repo):
    """docs/mcp.md, "Tools": recall_judgments with rank "answers" is `judgment-ledger recall
    --rank answers` (only the decisions that answer the question), run in-process; a bad rank
    is the CLI's usage error, naming answers among the recall's modes."""
    ledger = repo / "ledger.jsonl"
    session(SEED, cwd=repo, ledger=ledger, args=["--project", "demo"])
    calls = [("recall_judgments", {"question": "Do we indent with tabs or with spaces?", "rank": "answers"}),
             ("recall_judgments", {"question": "Which CSS framework for the site?", "rank": "answers"}),
             ("recall_judgments", {"question": "x", "rank": "fuzzy"})]
    _, (answered, silent, bad) = session(calls, cwd=repo, ledger=ledger, args=["--project", "demo"])
    cli = dict(cwd=repo, ledger=ledger)
    p = ledger_cli("recall", "--project", "demo", "--question",
                   "Do we indent with tabs or with spaces?", "--rank", "answers", **cli)
    assert structured(answered) == json.loads(p.stdout)
    assert [i["decision"] for i in structured(answered)] == ["spaces"]
    assert structured(silent) == []
    p = ledger_cli("recall", "--project", "demo", "--question", "x", "--rank", "fuzzy", **cli)
    assert p.returncode == 64 and error_text(bad) == p.stderr.strip()
    assert "must be match, relevance or answers, not 'fuzzy'" in p.stderr
