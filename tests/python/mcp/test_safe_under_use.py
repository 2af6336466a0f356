"""judgment-mcp under real use: concurrent servers, a vanishing client, oversized arguments,
and a history add overlapping a view."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from helpers_mcp import (GOAL, SERVER, call, env_for, error_text, goal, ledger_cli,  # noqa: F401
                         session, snapshot, started, structured)

SAFETY_NET = 60  # seconds; only so a hang fails the test instead of the run


def test_two_servers_appending_concurrently_keep_whole_lines(repo):
    """Judgment Ledger v1, section 'Append': concurrent appends are whole lines, none lost."""
    ledger = repo / "ledger.jsonl"
    n = 15

    def one(tag):
        calls = [("record_judgment", {"question": f"{tag} question {i}?", "answer": "x" * 2000,
                                      "card_ref": "cards/c.md", "project": "demo"})
                 for i in range(n)]
        _, results = session(calls, cwd=repo, ledger=ledger)
        assert all("stored" in structured(r) for r in results)

    threads = [threading.Thread(target=one, args=(t,)) for t in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SAFETY_NET)
    lines = ledger.read_text().splitlines()
    questions = sorted(json.loads(x)["question"] for x in lines)
    assert questions == sorted(f"{t} question {i}?" for t in "ab" for i in range(n))


def test_server_exits_when_its_client_disappears(tmp_path):
    p = subprocess.Popen([SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, cwd=tmp_path, env=env_for(tmp_path / "l.jsonl"))
    p.stdin.write(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n')
    p.stdin.flush()
    p.stdin.close()  # the client is gone: end of input
    assert p.wait(SAFETY_NET) == 0
    p.stdout.close()
    p.stderr.close()


CLIENT = """
import sys, anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

async def main():
    params = StdioServerParameters(command=sys.argv[1])
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        await s.call_tool("prime", {"project": "demo"})
        print("ready", flush=True)
        await anyio.sleep(3600)

anyio.run(main)
"""


def _children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def _gone(pid):
    """True once `pid` has exited (a zombie not yet reaped by init counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_server_exits_when_its_client_is_killed(tmp_path):
    """A real fault: the client process is SIGKILLed while connected (no shutdown, no close);
    the server sees its input end and exits instead of lingering."""
    client = subprocess.Popen([sys.executable, "-c", CLIENT, SERVER], stdout=subprocess.PIPE,
                              cwd=tmp_path, env=env_for(tmp_path / "l.jsonl"))
    assert client.stdout.readline() == b"ready\n"
    (server,) = _children(client.pid)
    assert not _gone(server)
    os.kill(client.pid, signal.SIGKILL)
    client.wait(SAFETY_NET)
    client.stdout.close()
    deadline = time.monotonic() + SAFETY_NET
    while not _gone(server) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(server)


def test_a_1mib_question_to_a_read_gets_the_argument_limit_error_not_a_hang(repo):
    """A read takes what the CLI takes (docs/mcp.md, "Limits"): an argument past the
    kernel's limit for one argv string (128 KiB on Linux) is a tool error that says so and what
    to do, and the ledger is not touched."""
    ledger = repo / "ledger.jsonl"
    ledger.write_text("")
    _, (recall, search) = session([
        ("recall_judgments", {"question": "tabs " * (1 << 18), "project": "demo"}),
        ("search_judgments", {"query": "tabs " * (1 << 18), "project": "demo"})],
        cwd=repo, ledger=ledger)
    for r, command in ((recall, "recall"), (search, "search")):
        text = error_text(r)
        assert text.startswith(f"judgment-ledger: {command}: an argument of 1310720 bytes is over")
        assert "shorten it" in text and r.structured_content["exit_code"] == 64
    assert ledger.read_bytes() == b""


def test_a_1mib_question_is_recorded_whole_through_stdin(repo):
    """record_judgment gives its record on stdin (`append --input -`): no argv limit, and a
    record under the ledger's record cap is stored as the CLI stores it."""
    ledger = repo / "ledger.jsonl"
    question = "Which queue? " + "q" * (1 << 20)
    _, (r, found) = session([
        ("record_judgment", {"question": question, "answer": "postgres", "card_ref": "c",
                             "project": "demo"}),
        ("search_judgments", {"query": "postgres", "project": "demo"})], cwd=repo, ledger=ledger)
    stored = structured(r)["stored"]
    assert stored["question"] == question
    assert [json.loads(x) for x in ledger.read_text().splitlines()] == [stored]
    assert structured(found) == [stored]


def test_a_record_over_the_record_cap_gets_the_cli_limit_error_and_the_ledger_unchanged(repo):
    """Judgment Ledger v1, section 'Fail-Open': a record over the cap is the caller's fault, a
    rejected record (exit 1) with the message of `append --input -` on the same record."""
    lines = pytest.importorskip("judgment_toolkit.judgment.lines",
                                reason="the ledger's record cap is judgment.lines.RECORD_MAX")
    ledger = repo / "ledger.jsonl"
    ledger.write_text("")
    fields = {"question": "q" * (lines.RECORD_MAX + 1), "answer": "a", "card_ref": "c",
              "project": "demo"}
    r = call("record_judgment", fields, cwd=repo, ledger=ledger)
    p = ledger_cli("append", "--input", "-", cwd=repo, ledger=ledger, input=json.dumps(fields))
    assert p.returncode == 1 and p.stdout == ""
    assert error_text(r) == p.stderr.strip() and len(p.stderr) < 1000
    assert r.structured_content["exit_code"] == 1
    assert ledger.read_bytes() == b""


def test_oversized_summary_gets_limit_exceeded_and_the_history_unchanged(started):
    repo = started
    before = snapshot(repo)
    r = call("history_add", {"goal": GOAL, "kind": "결정", "summary": "s" * (300 << 10)},
             cwd=repo, ledger=repo / "l.jsonl")
    text = error_text(r)
    assert text.startswith("ha: limit_exceeded: ") and len(text) < 1000
    assert snapshot(repo) == before


def test_add_and_view_overlapping_through_mcp(started):
    """decision-history/v1: a view sees whole events only, never a half-written add."""
    repo = started
    n = 8
    views = []

    def adder():
        calls = [("history_add", {"goal": GOAL, "kind": "결정", "summary": f"decision {i}",
                                  "request_id": f"r{i}"}) for i in range(n)]
        _, results = session(calls, cwd=repo, ledger=repo / "l.jsonl")
        assert all(structured(x)["schema"] == "decision-receipt/v1" for x in results)

    def viewer():
        _, results = session([("history_list", {"goal": GOAL})] * n, cwd=repo,
                             ledger=repo / "l.jsonl")
        views.extend(structured(x) for x in results)

    threads = [threading.Thread(target=adder), threading.Thread(target=viewer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(SAFETY_NET)
    assert len(views) == n
    for v in views:
        assert v["schema"] == "decision-history-view/v1"
    final = structured(call("history_list", {"goal": GOAL}, cwd=repo, ledger=repo / "l.jsonl"))
    assert json.dumps(final).count("decision ") >= n


def test_base_package_never_imports_mcp():
    code = ("import sys, judgment_toolkit, judgment_toolkit.judgment.jobs, judgment_toolkit.ha.cli,"
            " judgment_toolkit.mcpserver.main; print(sorted(m for m in sys.modules"
            " if m == 'mcp' or m.startswith('mcp.')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.strip() == "[]"


def test_without_the_extra_one_line_how_to_install_and_exit_69():
    """docs/mcp.md, "Without the extra": the line on stderr, and to a client the same line over
    MCP (instructions, the one tool, its error result); malformed lines and unknown methods get
    JSON-RPC's errors; exit 69 when the input ends."""
    from judgment_toolkit import version
    from judgment_toolkit.mcpserver.main import NO_EXTRA_LINE
    code = ("import sys; sys.modules['mcp'] = None\n"  # the extra absent, as in a base install
            "from judgment_toolkit.mcpserver.main import main; sys.exit(main([]))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    assert p.returncode == 69 and p.stdout == "" and p.stderr == NO_EXTRA_LINE + "\n"
    lines = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-06-18", "capabilities": {}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
             {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
              "params": {"name": "how_to_install_the_mcp_extra", "arguments": {}}},
             {"jsonrpc": "2.0", "id": 4, "method": "resources/list"}]
    data = "".join(json.dumps(x) + "\n" for x in lines) + "[1]\n{bad\n"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, input=data)
    assert p.returncode == 69 and p.stderr == NO_EXTRA_LINE + "\n"
    init, listed, called, unknown, batch, bad = [json.loads(x) for x in p.stdout.splitlines()]
    assert init["result"]["protocolVersion"] == "2025-06-18"
    assert init["result"]["serverInfo"] == {"name": "judgment-toolkit", "version": version()}
    assert init["result"]["instructions"] == NO_EXTRA_LINE
    assert [t["description"] for t in listed["result"]["tools"]] == [NO_EXTRA_LINE]
    assert called["result"] == {"content": [{"type": "text", "text": NO_EXTRA_LINE}],
                                "isError": True}
    assert unknown["id"] == 4 and unknown["error"]["code"] == -32601
    assert (batch["id"], batch["error"]["code"]) == (None, -32600)
    assert (bad["id"], bad["error"]["code"]) == (None, -32700)
