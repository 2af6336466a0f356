"""What the tests of the real Claude Code share, whichever way they drive it (SDK mode in
drive.py, the terminal UI in terminal.py): the pinned client, the questions its scripted model
asks, a HOME with the plugin installed as a user installs it, a project, a past decision, and a
HOME whose only hooks print a fixed answer.

The fixtures `home` and `project` are imported by name into the test modules that use them."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from plugin.test_plugin_install import clone_of_the_working_tree

CLAUDE = ROOT / "tests" / "node" / "node_modules" / ".bin" / "claude"
VENV_BIN = Path(sys.executable).parent  # the toolkit installed: judgment-kit, judgment-ledger
QUEUE = {"question": "Should the job queue use Redis or Postgres?", "header": "Queue",
         "multiSelect": False,
         "options": [{"label": "Redis", "description": "fast, one more service"},
                     {"label": "Postgres", "description": "the database we run"}]}
SETTINGS = {"question": "Should the new settings page be a modal or a separate route?",
            "header": "Settings", "multiSelect": False,
            "options": [{"label": "Modal", "description": "stays on the page"},
                        {"label": "Route", "description": "a URL of its own"}]}


def require_claude():
    """Skips the calling test module when the client is missing; under CI a missing client
    is a failure."""
    if CLAUDE.exists():
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError(f"{CLAUDE} is missing: scripts/setup.sh installs the pinned Claude Code")
    pytest.skip("the pinned Claude Code is not installed (bash scripts/setup.sh)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """A HOME with the plugin installed from a marketplace that is a copy of this checkout's
    files (tracked, and new ones not ignored)."""
    base = tmp_path_factory.mktemp("claude-home")
    market, home = base / "market", base / "home"
    home.mkdir()
    clone_of_the_working_tree(market)  # a clone of this checkout as it is now, links kept
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "DISABLE_TELEMETRY": "1",
           "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}
    for argv in (["plugin", "marketplace", "add", str(market)],
                 ["plugin", "install", "judgment-toolkit@judgment-toolkit"]):
        r = subprocess.run([str(CLAUDE), *argv], env=env, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 0, (argv, r.stdout, r.stderr)
    installed = json.loads((home / ".claude" / "plugins" / "installed_plugins.json").read_text())
    assert "judgment-toolkit@judgment-toolkit" in json.dumps(installed)
    return home


@pytest.fixture
def project(tmp_path):
    shop = tmp_path / "shop"
    shop.mkdir()
    subprocess.run(["git", "init", "-q", str(shop)], check=True)
    return shop


def decide(project, question, answer, rationale):
    subprocess.run([str(VENV_BIN / "judgment-ledger"), "append", "--project", project.name,
                    "--question", question, "--answer", answer, "--card-ref", "c.json",
                    "--rationale", rationale], cwd=project, check=True, capture_output=True)


def fixed_hook_home(tmp_path, answer):
    """A HOME whose only hooks are a PreToolUse on AskUserQuestion that prints `answer` (the
    `hookSpecificOutput` without its event name) and a PostToolUse that keeps its payload, and
    a project beside it; returns (home, project, where the PostToolUse payload goes)."""
    home, project = tmp_path / "fixed-home", tmp_path / "p"
    (home / ".claude").mkdir(parents=True)
    project.mkdir()
    (tmp_path / "answer.json").write_text(json.dumps({"hookSpecificOutput": dict(
        hookEventName="PreToolUse", **answer)}))
    post = tmp_path / "post.json"
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {
        "PreToolUse": [{"matcher": "AskUserQuestion", "hooks": [
            {"type": "command", "command": f"cat >/dev/null; cat '{tmp_path / 'answer.json'}'"}]}],
        "PostToolUse": [{"matcher": "AskUserQuestion", "hooks": [
            {"type": "command", "command": f"cat > '{post}'"}]}]}}))
    return home, project, post


def shown_with_a_note():
    """QUEUE's input with a note on its second option, as a fixed hook returns it."""
    doc = json.loads(json.dumps({"questions": [QUEUE]}))
    doc["questions"][0]["options"][1]["description"] += " (chosen before)"
    return doc
