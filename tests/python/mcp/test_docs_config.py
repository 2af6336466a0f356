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


def test_the_plugins_mcp_json_is_the_documented_snippet():
    assert json.loads((ROOT / "plugin" / ".mcp.json").read_text()) == snippets("json")[0]


def test_every_documented_config_starts_a_server_listing_the_tools(tmp_path):
    for server in servers():
        command = shutil.which(server["command"], path=str(BIN))
        tools, _ = session([], cwd=tmp_path, ledger=tmp_path / "l.jsonl",
                           args=server["args"], command=command)
        assert "recall_judgments" in {t.name for t in tools.tools}


def section(title):
    return DOC.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def real_session(tmp_path):
    """The session of docs/mcp.md, "A real session", as a user runs it: the documented append
    in a fresh git repository, then the documented client, with the installed commands on
    PATH and none of the developer's HARNESS_ variables. Returns what the client printed."""
    import os
    import shlex
    import subprocess
    import sys
    work = tmp_path / "work"
    work.mkdir()
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("HARNESS_")}
    env["PATH"] = f"{BIN}:{env['PATH']}"
    text = section("A real session")
    (append,) = re.findall(r"```sh\n(.*?)\n```", text, re.S)
    argv = shlex.split(append)
    subprocess.run([str(BIN / argv[0]), *argv[1:]], check=True, cwd=work, env=env,
                   capture_output=True, timeout=60)
    (client,) = re.findall(r"```python\n(.*?)```", text, re.S)
    p = subprocess.run([sys.executable, "-c", client], cwd=work, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return p.stdout


def without_time_and_id(text):
    text = re.sub(r'"decided_at": "[^"]*"', '"decided_at": "T"', text)
    return re.sub(r'"mem_id": "judgment-ledger:[^"]*"', '"mem_id": "judgment-ledger:ID"', text)


def test_the_documented_transcript_is_what_the_documented_session_prints(tmp_path):
    (transcript,) = re.findall(r"```text\n(.*?)```", section("A real session"), re.S)
    printed = real_session(tmp_path)
    assert "recall_judgments" in printed and "postgres" in printed
    assert without_time_and_id(printed) == without_time_and_id(transcript)


def test_a_bad_server_argument_exits_with_the_documented_code():
    import subprocess
    p = subprocess.run([str(BIN / "judgment-mcp"), "--projekt", "x"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == "" and "usage: judgment-mcp" in p.stderr
    assert "2 for a bad argument of `judgment-mcp` itself" in DOC
    help_text = subprocess.run([str(BIN / "judgment-mcp"), "--help"], capture_output=True,
                               text=True, timeout=60, check=True).stdout
    assert "2 bad arguments; 69 the `mcp` extra is missing" in help_text
    from judgment_toolkit.mcpserver.server import TOOLS
    for tool in TOOLS:  # --help names every tool, the project's and the ledger's sources
        assert tool.__name__ in help_text
    for word in ("--project", "HARNESS_JUDGMENT_LEDGER", "git top", "working directory"):
        assert word in help_text


def test_the_plugin_takes_its_mcp_server_from_its_mcp_json():
    """The marketplace's plugin is plugin/, and plugin.json declares no servers of its own,
    so plugin/.mcp.json is the plugin's one MCP configuration."""
    market = json.loads((ROOT / ".claude-plugin" / "marketplace.json").read_text())
    assert [p["source"] for p in market["plugins"]] == ["./plugin"]
    plugin = json.loads((ROOT / "plugin" / ".claude-plugin" / "plugin.json").read_text())
    assert "mcpServers" not in plugin
    config = json.loads((ROOT / "plugin" / ".mcp.json").read_text())
    assert "judgment-toolkit" in config["mcpServers"]
