"""A real `judgment-mcp` process driven by the SDK's own client (mcp.client.stdio), and the
CLI run on the same store, so a test can compare the two."""
import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "history_write"))
from helpers_write import snapshot, started  # noqa: E402,F401  (fixtures)
from conftest import GIT_ENV, GOAL, ROOT, goal, ha  # noqa: E402,F401

BIN = Path(sys.executable).parent
SERVER = str(BIN / "judgment-mcp")


def env_for(ledger, **extra):
    return dict(os.environ, **GIT_ENV, HARNESS_JUDGMENT_LEDGER=str(ledger), **extra)


def session(calls, *, cwd, ledger, args=(), command=SERVER, env=None):
    """Start one server (`env`: variables added to its environment), run `calls` (a list of
    (tool, arguments)) in order, return the CallToolResults and the tool list."""
    async def go():
        params = StdioServerParameters(command=command, args=list(args),
                                       env=env_for(ledger, **(env or {})), cwd=str(cwd))
        async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            tools = await s.list_tools()
            return tools, [await s.call_tool(name, arguments) for name, arguments in calls]
    return anyio.run(go)


def call(tool, arguments, **kw):
    return session([(tool, arguments)], **kw)[1][0]


def ledger_cli(*args, cwd, ledger, env=None, input=None):
    return subprocess.run([str(BIN / "judgment-ledger"), *args], capture_output=True, text=True,
                          cwd=cwd, env=env_for(ledger, **(env or {})), input=input, timeout=60)


def structured(result):
    """The structured content of a successful call (a bare list comes wrapped in `result`)."""
    assert not result.is_error, result.content
    data = result.structured_content
    return data["result"] if set(data) == {"result"} else data


def error_text(result):
    assert result.is_error
    return result.content[0].text


def cli_json(proc):
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)
