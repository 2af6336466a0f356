"""judgment-mcp driven by the real MCP Inspector CLI (the pinned npm version of
tests/node/package.json, installed by scripts/setup.sh, run under the machine's Node): it lists
the tools (with its schema portability check), then calls every tool with good and with bad
arguments, each call a fresh `mcp-inspector --cli` process as a user runs it. The Inspector
checks every result against the tool's outputSchema, error results too; a result that fails
that check is its exit 1 and hides the tool's message (docs/mcp.md, "Tools"). A good call is
exit 0; a refused one is exit 5 (the Inspector's "the tool returned isError") with the CLI's
message in the printed result.

Under CI=true a missing Inspector is a failure; elsewhere the tests are skipped."""
import json
import os
import shutil
import subprocess

import pytest

from helpers_mcp import GOAL, ROOT, SERVER, env_for
from test_sdk_schema import CALLS

INSPECTOR = ROOT / "tests" / "node" / "node_modules" / ".bin" / "mcp-inspector"
TOOL_IS_ERROR = 5  # the Inspector CLI's exit code for a result with isError: true


@pytest.fixture(scope="module")
def inspector():
    if not INSPECTOR.exists() or shutil.which("node") is None:
        message = f"the MCP Inspector CLI is not installed ({INSPECTOR}); run bash scripts/setup.sh"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return INSPECTOR


def run(inspector, tmp_path, cwd, method, *more):
    """One `mcp-inspector --cli` run against judgment-mcp: (exit code, the JSON it printed)."""
    home = tmp_path / "inspector-home"
    home.mkdir(exist_ok=True)
    env = env_for(cwd / "ledger.jsonl", HOME=str(home))
    argv = [str(inspector), "--cli", "--format", "json", "-q", "--cwd", str(cwd),
            "-e", f"HARNESS_JUDGMENT_LEDGER={cwd / 'ledger.jsonl'}", "-e", "JUDGMENT_PROJECT=demo",
            SERVER, "--method", method, *more]
    p = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, timeout=180)
    printed = json.loads(p.stdout) if p.stdout.strip() else json.loads(p.stderr)
    return p.returncode, printed


def test_the_inspector_lists_every_tool_with_portable_schemas(inspector, tmp_path):
    from judgment_toolkit.mcpserver.server import TOOLS
    rc, printed = run(inspector, tmp_path, tmp_path, "tools/list", "--strict")
    assert rc == 0, printed
    tools = printed["result"]["tools"] if "result" in printed else printed["tools"]
    assert {t["name"] for t in tools} == {fn.__name__ for fn in TOOLS}
    assert all(t["outputSchema"]["type"] == "object" for t in tools)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A repository with a started goal holding one decision (D1, request req-1) and a ledger
    holding one record (rec-1), so every call of CALLS stands alone (the writes replay)."""
    import shutil as sh
    from conftest import FIXTURE_GOAL, git
    from helpers_mcp import ha, session
    repo = tmp_path_factory.mktemp("served") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    sh.copytree(FIXTURE_GOAL, repo / GOAL)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "goal")
    for argv in (("start", GOAL, "--request", "빈 입력 처리"), ("check", GOAL, "AC-1")):
        assert ha(*argv, cwd=repo).returncode == 0
    _, results = session([(tool, args) for tool, args, refused in CALLS
                          if tool in ("record_judgment", "history_add") and not refused],
                         cwd=repo, ledger=repo / "ledger.jsonl", args=["--project", "demo"])
    assert not any(r.is_error for r in results)
    return repo


@pytest.mark.parametrize("tool,args,refused", CALLS,
                         ids=[f"{t}-{'bad' if r else 'good'}{i}" for i, (t, _, r) in enumerate(CALLS)])
def test_the_inspector_calls_every_tool_and_shows_every_refusal(inspector, served, tmp_path,
                                                                 tool, args, refused):
    rc, printed = run(inspector, tmp_path, served, "tools/call", "--tool-name", tool,
                      "--tool-args-json", json.dumps(args, ensure_ascii=False))
    assert "result" in printed, (rc, printed)  # not the Inspector's own error
    result = printed["result"]
    assert rc == (TOOL_IS_ERROR if refused else 0), printed
    assert result.get("isError", False) == refused, result
    if refused:
        text = result["content"][0]["text"]
        assert text.startswith(("judgment-ledger: ", "ha: ")), text
        assert result["structuredContent"] == {"exit_code": result["structuredContent"]
                                               ["exit_code"], "error": text}
