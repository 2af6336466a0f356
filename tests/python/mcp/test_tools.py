"""judgment-mcp tools against the CLI on the same store: every tool returns what the matching
command prints, and a refusal is an isError result with the CLI's message, leaving the store
byte-identical."""
import json

from helpers_mcp import (GOAL, goal, call, cli_json, error_text, ha, ledger_cli, session, snapshot,
                         started, structured)

EXPECTED = {"recall_judgments", "search_judgments", "record_judgment", "prime",
            "history_current", "history_list", "history_show", "history_add"}


def test_tools_listed_with_typed_input_and_output_schemas(tmp_path):
    tools, _ = session([], cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    by_name = {t.name: t for t in tools.tools}
    assert set(by_name) == EXPECTED
    for t in by_name.values():
        assert t.description and t.input_schema["type"] == "object"
        assert t.output_schema is not None
    assert by_name["record_judgment"].input_schema["required"] == ["question", "answer", "card_ref"]
    # docs/mcp.md, "Tools": each rank names its choices, answers only for the recall
    recall_rank = by_name["recall_judgments"].input_schema["properties"]["rank"]["description"]
    search_rank = by_name["search_judgments"].input_schema["properties"]["rank"]["description"]
    assert all(m in recall_rank for m in ("match", "relevance", "answers"))
    assert "relevance" in search_rank and "answers" not in search_rank


def test_ledger_tools_equal_the_cli(repo):
    ledger = repo / "ledger.jsonl"
    kw = dict(cwd=repo, ledger=ledger, args=["--project", "demo"])
    _, (stored, stored2) = session([
        ("record_judgment", {"question": "Indent with tabs?", "answer": "No, four spaces",
                             "card_ref": "cards/style.md", "tags": "style,format"}),
        ("record_judgment", {"question": "Squash merges?", "answer": "Yes",
                             "card_ref": "cards/git.md", "id": "fixed-id-1"}),
    ], **kw)
    lines = [json.loads(x) for x in ledger.read_text().splitlines()]
    assert [structured(stored)["stored"], structured(stored2)["stored"]] == lines
    _, (recall, search, prime) = session([
        ("recall_judgments", {"question": "tabs"}),
        ("search_judgments", {"query": "merges", "limit": 3}),
        ("prime", {}),
    ], **kw)
    assert structured(recall) == cli_json(ledger_cli("recall", "--project", "demo", "--question",
                                                     "tabs", cwd=repo, ledger=ledger))
    p = ledger_cli("search", "--project", "demo", "--query", "merges", "--limit", "3",
                   cwd=repo, ledger=ledger)
    assert structured(search) == [json.loads(x) for x in p.stdout.splitlines()]
    p = ledger_cli("prime", "--project", "demo", cwd=repo, ledger=ledger)
    assert structured(prime) == p.stdout and "Squash" in p.stdout


def test_invalid_record_is_a_tool_error_naming_the_field_and_ledger_unchanged(repo):
    """Judgment Ledger v1, section 'Fail-Open': a rejected record is an error, not a skip."""
    ledger = repo / "ledger.jsonl"
    ledger.write_text("")
    r = call("record_judgment", {"question": "", "answer": "a", "card_ref": "c"},
             cwd=repo, ledger=ledger, args=["--project", "demo"])
    p = ledger_cli("append", "--project", "demo", "--question", "", "--answer", "a",
                   "--card-ref", "c", cwd=repo, ledger=ledger)
    assert p.returncode != 0 and p.stderr.strip() in error_text(r) and "question" in p.stderr
    assert ledger.read_bytes() == b""


def test_unwritable_ledger_is_a_skipped_result_not_an_error(repo):
    """Judgment Ledger v1, section 'Fail-Open': an I/O problem skips the append."""
    ledger = repo / "no-such-dir" / "sub"
    (repo / "no-such-dir").write_text("a file where a folder should be")
    r = call("record_judgment", {"question": "q?", "answer": "a", "card_ref": "c"},
             cwd=repo, ledger=ledger / "l.jsonl", args=["--project", "demo"])
    assert "append skipped" in structured(r)["skipped"]


def test_history_tools_equal_the_cli(started):
    repo = started
    kw = dict(cwd=repo, ledger=repo / "l.jsonl")
    _, (receipt, current, listed, shown, by_request) = session([
        ("history_add", {"goal": GOAL, "kind": "결정", "summary": "Reject empty input",
                         "targets": ["AC-1"], "request_id": "req-1"}),
        ("history_current", {"goal": GOAL}),
        ("history_list", {"goal": GOAL, "limit": 10}),
        ("history_show", {"goal": GOAL, "id": "D1"}),
        ("history_show", {"goal": GOAL, "request_id": "req-1"}),
    ], **kw)
    assert structured(receipt)["schema"] == "decision-receipt/v1"
    for result, argv in ((current, ["current"]), (listed, ["list", "--limit", "10"]),
                         (shown, ["show", "D1"]), (by_request, ["show", "--request-id", "req-1"])):
        assert structured(result) == cli_json(ha("history", GOAL, *argv, "--format", "json",
                                                 cwd=repo))
    # A replay returns the CLI's receipt for the same request.
    again = call("history_add", {"goal": GOAL, "kind": "결정", "summary": "Reject empty input",
                                 "targets": ["AC-1"], "request_id": "req-1"},
                 **kw)
    p = ha("history", GOAL, "add", "--kind", "결정", "--summary", "Reject empty input",
           "--target", "AC-1", "--request-id", "req-1", cwd=repo)
    assert structured(again) == cli_json(p)


def test_not_started_is_a_tool_error_with_the_cli_message(repo):
    r = call("history_current", {"goal": "docs/specs/nowhere"}, cwd=repo, ledger=repo / "l.jsonl")
    p = ha("history", "docs/specs/nowhere", "current", "--format", "json", cwd=repo)
    assert p.returncode != 0 and p.stderr.strip() in error_text(r)


def test_history_refusals_carry_the_cli_code_and_leave_the_store_unchanged(started):
    repo = started
    kw = dict(cwd=repo, ledger=repo / "l.jsonl")
    before = snapshot(repo)
    r = call("history_add", {"goal": GOAL, "kind": "결정", "summary": "x",
                             "supersedes": ["D9"]}, **kw)
    p = ha("history", GOAL, "add", "--kind", "결정", "--summary", "x", "--supersedes", "D9",
           cwd=repo)
    assert p.returncode != 0 and p.stderr.strip() in error_text(r)
    assert snapshot(repo) == before


def _same_refusal(result, proc, code, exit_code):
    assert proc.returncode == exit_code and proc.stderr.startswith(f"ha: {code}: ")
    assert error_text(result) == proc.stderr.strip()
    assert result.structured_content == {"exit_code": exit_code, "error": proc.stderr.strip()}


def test_correction_conflict_and_history_corrupt_are_the_cli_refusals(started):
    """decision-history/v1: a correction must name the last correction (correction_conflict),
    and a damaged store stops every view (history_corrupt); both refusals change nothing."""
    from conftest import store_dir
    repo = started
    kw = dict(cwd=repo, ledger=repo / "l.jsonl")
    add = {"goal": GOAL, "kind": "결정"}
    session([("history_add", dict(add, summary="first")),
             ("history_add", dict(add, summary="corrects D1", supersedes=["D1"]))], **kw)
    before = snapshot(repo)
    _, (conflict,) = session([("history_add", dict(add, summary="again", supersedes=["D1"]))],
                             **kw)
    p = ha("history", GOAL, "add", "--kind", "결정", "--summary", "again", "--supersedes", "D1",
           cwd=repo)
    _same_refusal(conflict, p, "correction_conflict", 65)
    assert snapshot(repo) == before
    events = store_dir(repo) / "events.jsonl"
    events.write_bytes(events.read_bytes().replace(b"first", b"frist"))
    before = snapshot(repo)
    _, (current, added) = session([("history_current", {"goal": GOAL}),
                                   ("history_add", dict(add, summary="more"))], **kw)
    _same_refusal(current, ha("history", GOAL, "current", "--format", "json", cwd=repo),
                  "history_corrupt", 65)
    p = ha("history", GOAL, "add", "--kind", "결정", "--summary", "more", cwd=repo)
    _same_refusal(added, p, "history_corrupt", 65)
    assert snapshot(repo) == before
