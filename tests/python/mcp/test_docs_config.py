"""docs/mcp.md: each client configuration snippet starts a working server."""
import json
import re
import shutil
import tomllib

from helpers_mcp import BIN, ROOT, session

DOC = (ROOT / "docs" / "mcp.md").read_text()


def snippets(lang):
    return [json.loads(s) if lang == "json" else tomllib.loads(s)
            for s in re.findall(rf"```{lang}\n(.*?)```", DOC, re.S)]


def servers():
    found = [c["mcpServers"]["judgment-toolkit"] for c in snippets("json")]
    found += [c["mcp_servers"]["judgment-toolkit"] for c in snippets("toml")]
    assert len(found) == 3  # Claude Code (.mcp.json), Cursor, Codex
    return found


def test_repo_mcp_json_is_the_documented_snippet():
    assert json.loads((ROOT / ".mcp.json").read_text()) == snippets("json")[0]


def test_every_documented_config_starts_a_server_listing_the_tools(tmp_path):
    for server in servers():
        command = shutil.which(server["command"], path=str(BIN))
        tools, _ = session([], cwd=tmp_path, ledger=tmp_path / "l.jsonl",
                           args=server["args"], command=command)
        assert "recall_judgments" in {t.name for t in tools.tools}
