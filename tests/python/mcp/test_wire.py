"""judgment-mcp on the wire, as a client's bytes reach it (docs/mcp.md, "The wire", "Install",
"Which project, which ledger, which history"): raw lines written to a real process, its stdout
read back. Malformed lines get JSON-RPC's error reply with id null and the server goes on;
requests still running when stdin closes are all answered; serverInfo.version is the
toolkit's; a call without `project` gets the project the hooks derive."""
import json
import subprocess

import pytest

from helpers_mcp import SERVER, env_for, session, structured

INIT = {"jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def exchange(lines, *, cwd, ledger, args=("--project", "p"), env=None):
    """Write `lines` (dicts as JSON, bytes as they are) to a fresh server, close its stdin at
    once, and return its replies by id (a list per id) and its exit code."""
    data = b"".join((line if isinstance(line, bytes) else json.dumps(line).encode()) + b"\n"
                    for line in [INIT, INITIALIZED, *lines])
    p = subprocess.run([SERVER, *args], input=data, capture_output=True, cwd=cwd,
                       env=env_for(ledger, **(env or {})), timeout=120)
    replies = {}
    for line in p.stdout.splitlines():
        reply = json.loads(line)
        replies.setdefault(json.dumps(reply.get("id")), []).append(reply)
    return replies, p.returncode


MALFORMED = [  # (line, code): JSON-RPC 2.0, "Error object"
    (b"{not json", -32700),
    (b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"x": "\xff\xfe"}}', -32700),
    (b'[{"jsonrpc": "2.0", "id": 5, "method": "ping"}]', -32600),
    (b'{"jsonrpc": "1.0", "id": 6, "method": "ping"}', -32600),
    (b'"ping"', -32600),
    (b"42", -32600),
    (b'{"jsonrpc": "2.0", "id": 8}', -32600),
]


@pytest.mark.parametrize("line,code", MALFORMED, ids=[str(c) + ":" + l[:20].decode("latin-1")
                                                      for l, c in MALFORMED])
def test_a_malformed_line_gets_an_error_with_id_null_and_the_server_goes_on(tmp_path, line, code):
    replies, rc = exchange([line, {"jsonrpc": "2.0", "id": 99, "method": "ping"}],
                           cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    assert rc == 0
    (error,) = replies["null"]
    assert error["jsonrpc"] == "2.0" and error["error"]["code"] == code
    assert error["error"]["message"]
    assert replies["99"] == [{"jsonrpc": "2.0", "id": 99, "result": {}}]
    assert set(replies) == {'"init"', "null", "99"}  # the bad line's own id is never answered


def test_every_request_in_flight_when_stdin_closes_is_answered(tmp_path):
    calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "search_judgments", "arguments": {"query": "queue"}}}
             for i in range(10)]
    replies, rc = exchange(calls, cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    assert rc == 0
    assert sorted(k for k in replies if k != '"init"') == sorted(str(i) for i in range(10))
    for i in range(10):
        (reply,) = replies[str(i)]
        assert reply["result"]["structuredContent"] == {"result": []}


def test_a_cancelled_request_does_not_hold_the_exit(tmp_path):
    """MCP, "Cancellation": a cancelled request gets no reply, so the server does not wait."""
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "prime", "arguments": {}}}
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}
    replies, rc = exchange([call, cancel, {"jsonrpc": "2.0", "id": 2, "method": "ping"}],
                           cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    assert rc == 0 and replies["2"] == [{"jsonrpc": "2.0", "id": 2, "result": {}}]


def test_server_info_version_is_the_toolkits(tmp_path):
    from judgment_toolkit import version
    replies, _ = exchange([], cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    info = replies['"init"'][0]["result"]["serverInfo"]
    assert info == {"name": "judgment-toolkit", "version": version()} and version()


def derived(folder):
    from judgment_toolkit.judgment.project import project_name
    return project_name(str(folder), env={})


@pytest.fixture
def two_folders(repo, tmp_path):
    """(the Claude Code project folder, another folder the server is started in)."""
    other = tmp_path / "elsewhere"
    other.mkdir()
    return repo, other


def test_a_call_without_project_uses_the_project_the_hooks_derive(two_folders, tmp_path):
    project_dir, other = two_folders
    ledger = tmp_path / "ledger.jsonl"
    env = {k: "" for k in ("JUDGMENT_PROJECT",)}
    _, (stored,) = session([("record_judgment", {"question": "Tabs?", "answer": "spaces",
                                                 "card_ref": "c.md"})],
                           cwd=other, ledger=ledger, env=dict(env, CLAUDE_PROJECT_DIR=str(project_dir)))
    assert structured(stored)["stored"]["project"] == derived(project_dir) != derived(other)
    _, (recall, prime, search) = session(
        [("recall_judgments", {"question": "tabs"}), ("prime", {}),
         ("search_judgments", {"query": "tabs"})],
        cwd=other, ledger=ledger, env=dict(env, CLAUDE_PROJECT_DIR=str(project_dir)))
    assert structured(recall)[0]["decision"] == "spaces"
    assert derived(project_dir) in structured(prime)
    assert len(structured(search)) == 1
    # Without $CLAUDE_PROJECT_DIR, the server's working directory names the project.
    _, (recall, stored) = session([("recall_judgments", {"question": "tabs"}),
                                   ("record_judgment", {"question": "Q?", "answer": "a",
                                                        "card_ref": "c.md"})],
                                  cwd=other, ledger=ledger, env=env)
    assert structured(recall) == []
    assert structured(stored)["stored"]["project"] == derived(other)
    # --project and the tool's own argument still win.
    _, (recall,) = session([("recall_judgments", {"question": "tabs"})], cwd=other,
                           ledger=ledger, args=["--project", derived(project_dir)], env=env)
    assert structured(recall)[0]["decision"] == "spaces"


def test_judgment_project_names_the_project_as_for_the_hooks(repo, tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    _, (stored,) = session([("record_judgment", {"question": "Q?", "answer": "a", "card_ref": "c"})],
                           cwd=repo, ledger=ledger, env={"JUDGMENT_PROJECT": "shop"})
    assert structured(stored)["stored"]["project"] == "shop"


def test_the_tool_schemas_describe_project(tmp_path):
    tools, _ = session([], cwd=tmp_path, ledger=tmp_path / "l.jsonl")
    for tool in tools.tools:
        if "project" in tool.input_schema["properties"]:
            text = tool.input_schema["properties"]["project"]["description"]
            assert "CLAUDE_PROJECT_DIR" in text and "--project" in text, tool.name
            assert "project" not in tool.input_schema.get("required", [])

