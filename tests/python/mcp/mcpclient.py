"""The real MCP client (mcp.client.stdio, the SDK's own) against a real `judgment-mcp` process."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[3]
CHECKOUT_BIN = Path(sys.executable).parent


def env_for(tmp, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    env.update(GIT_AUTHOR_NAME="U", GIT_AUTHOR_EMAIL="u@example.invalid",
               GIT_COMMITTER_NAME="U", GIT_COMMITTER_EMAIL="u@example.invalid")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def session_calls(bin_dir, cwd, env, calls, args=()):
    """Run `calls` (list of (tool, arguments)) in one session; returns (tool names, results)."""
    async def go():
        params = StdioServerParameters(command=str(Path(bin_dir) / "judgment-mcp"),
                                       args=list(args), env=env, cwd=str(cwd))
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as s:
                    await s.initialize()
                    names = [t.name for t in (await s.list_tools()).tools]
                    results = [await s.call_tool(name, arguments) for name, arguments in calls]
                    return names, results
    return anyio.run(go)


def structured(result):
    """A successful tool result's value, as the CLI printed it (lists come wrapped in result)."""
    assert not result.is_error, result.content
    sc = result.structured_content
    return sc["result"] if set(sc) == {"result"} else sc


def error_text(result):
    assert result.is_error
    return result.content[0].text


def cli(bin_dir, tool, *argv, cwd, env):
    return subprocess.run([str(Path(bin_dir) / tool), *map(str, argv)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


FIXTURE_GOAL = ROOT / "tests" / "fixtures" / "goals" / "empty-input"
GOAL = "docs/specs/empty-input"


def started_repo(path, env, bin_dir=CHECKOUT_BIN):
    """A git repository holding the fixture goal, started (`ha start`)."""
    shutil.copytree(FIXTURE_GOAL, path / GOAL)
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "goal"]):
        subprocess.run(["git", *argv], cwd=path, env=env, check=True, capture_output=True)
    r = cli(bin_dir, "ha", "start", GOAL, "--request", "ship the queue", cwd=path, env=env)
    assert r.returncode == 0, r.stderr
    return path
