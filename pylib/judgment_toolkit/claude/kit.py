"""`judgment-kit`: the Claude Code side of the toolkit (docs/claude-kit.md).

    judgment-kit hook session-start|ask-recall|ask-capture   (stdin: the hook's JSON)
    judgment-kit setup-claude [--global] [--check|--remove] [--project-dir DIR] [--goal G]...

Standard library only, so a hook still runs (and says how to install) on a bare python3. The
facts every hook shares live here: how the tools are found, how the project is named, the
switch that turns capture on and the one line printed when nothing is installed.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

TOOLS = {"judgment-ledger": "judgment-ledger.sh", "judgment-card": "judgment-card.sh",
         "ha": "ha"}  # installed console script -> its scripts/ entry point in a checkout
CAPTURE_SWITCH, CAPTURE_ON = "JUDGMENT_CAPTURE", "1"  # the PostToolUse hook records answers
INSTALL_HINT = ("judgment-toolkit: its commands are not installed (looked on PATH, in ~/.local/bin, "
                "in the plugin folder); install them from a clone of the repository with: pipx install .")
USAGE = """usage: judgment-kit hook session-start|ask-recall|ask-capture
       judgment-kit setup-claude [--global] [--check | --remove] [--project-dir DIR] [--goal GOAL]...
Claude Code hooks (JSON on stdin; never fail, never block a tool call) and the setup command
that writes the hook wiring and the permissions into .claude/settings.local.json (or
~/.claude/settings.json with --global); --check says whether they are there.
exit codes:
  0   hook: always; setup: written (or unchanged); --check: set up; --remove: removed
  1   --check: not set up
  64  usage error
  65  the settings file is not JSON, or not settings setup can merge into (it is left as it is)
  70  the settings file cannot be read or written
"""


def checkout_root() -> Path:
    """The plugin's own folder: $CLAUDE_PLUGIN_ROOT, else the checkout this module runs from."""
    root = os.environ.get("CLAUDE_PLUGIN_ROOT")
    return Path(root) if root else Path(__file__).resolve().parents[3]


def tool_path(name: str) -> str | None:
    """Where `name` runs from, in the documented order: an installed copy on PATH,
    ~/.local/bin (pipx's default, missing from the PATH hooks get), the plugin's own folder
    (its scripts/ entry point). None when none exists, or when only the plugin's folder is left
    and this interpreter lacks the dependencies: its entry points would choose this same one
    (this runs from that folder's scripts/judgment-kit then), so they could not run either."""
    import shutil  # here: the recall and SessionStart never look for a tool
    found = shutil.which(name)
    if found:
        return found
    local = Path.home() / ".local" / "bin" / name
    if local.is_file() and os.access(local, os.X_OK):
        return str(local)
    script = checkout_root() / "scripts" / TOOLS[name]
    if not script.is_file():
        return None
    from judgment_toolkit.judgment import deps  # find_spec only: nothing heavy is imported
    return None if deps.missing() else str(script)


def project_dir(payload: dict) -> str:
    """The project folder: $CLAUDE_PROJECT_DIR, else the hook's `cwd`, else the current one."""
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    return os.environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()


PROJECT_RULE_SH = '${JUDGMENT_PROJECT:-$(basename "${CLAUDE_PROJECT_DIR}")}'  # project_name, as
# the skill and the commands print it (Claude Code fills in ${CLAUDE_PROJECT_DIR} there)


def project_name(payload: dict) -> str:
    """The ledger's project name for the hook's project folder (judgment.project, the one
    function every caller derives it with)."""
    from judgment_toolkit.judgment.project import project_name as derive
    return derive(project_dir(payload))
