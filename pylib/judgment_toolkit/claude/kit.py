"""`judgment-kit`: the Claude Code side of the toolkit (docs/claude-kit.md).

    judgment-kit hook session-start|ask-recall|ask-capture   (stdin: the hook's JSON)
    judgment-kit setup-claude [--global] [--check|--remove] [--project-dir DIR] [--goal G]...
    judgment-kit share [--check|--remove] [--project NAME]

Standard library only, so a hook still runs (and says how to install) on a bare python3. The
facts every hook shares live here: how the tools are found, how the project is named, the
switch that turns capture on and the one line printed when nothing is installed.
"""
from __future__ import annotations

import os
import sys

TOOLS = {"judgment-ledger": "judgment-ledger.sh", "judgment-card": "judgment-card.sh",
         "ha": "ha"}  # installed console script -> its scripts/ entry point in a checkout
CAPTURE_SWITCH, CAPTURE_ON = "JUDGMENT_CAPTURE", "1"  # the PostToolUse hook records answers
INSTALL_HINT = ("judgment-toolkit: its commands are not installed (looked on PATH, in ~/.local/bin, "
                "in the plugin folder); install them from a clone of the repository with: pipx install .")
USAGE = """usage: judgment-kit hook session-start|ask-recall|ask-capture
       judgment-kit setup-claude [--global] [--check | --remove] [--project-dir DIR] [--goal GOAL]...
       judgment-kit share [--check | --remove] [--project NAME]
       judgment-kit heal
       judgment-kit project [--dir DIR]
Claude Code hooks (JSON on stdin; never fail, never block a tool call) and the setup command
that writes the hook wiring and the permissions into .claude/settings.local.json (or
~/.claude/settings.json with --global); --check says whether they are there.
share (run in a git repository) opts it into a team ledger committed with the code: the
ledger's merge rule in .gitattributes (git's union, for every clone) and this clone's merge
driver (a union by record), the ledger un-ignored, the project name in .claude/judgment-project;
it makes no commit and prints the one that does. It also installs this clone's git hooks
post-commit, post-merge, post-checkout and post-rewrite, which run heal.
heal appends again to the repository's ledger the records that a git operation overwrote
(kept in a journal in the git dir); quiet unless it restored some.
project prints the ledger's project name for DIR (default $CLAUDE_PROJECT_DIR, else the
current folder), exactly as the hooks derive it.
exit codes:
  0   hook, heal: always; setup, share: written (or unchanged); --check: set up; --remove: removed;
      project: printed
  1   --check: not set up
  64  usage error (share: also outside a git worktree)
  65  the settings file is not JSON, or not settings setup can merge into (it is left as it is)
  70  the settings file cannot be read or written; share: a file or git config cannot be
      written, or the ledger stays ignored by a rule share cannot override
"""


def checkout_root() -> Path:
    """The plugin's own folder: $CLAUDE_PLUGIN_ROOT, else the checkout this module runs from."""
    from pathlib import Path  # here: a hook pays for pathlib (and fnmatch, urllib) otherwise
    root = os.environ.get("CLAUDE_PLUGIN_ROOT")
    return Path(root) if root else Path(__file__).resolve().parents[3]


def tool_path(name: str) -> str | None:
    """Where `name` runs from, in the documented order: an installed copy on PATH, beside the
    running judgment-kit or its interpreter (the bin folder of a venv that is not on PATH),
    ~/.local/bin (pipx's default, missing from the PATH hooks get), the plugin's own folder
    (its scripts/ entry point). None when none exists, or when only the plugin's folder is left
    and this interpreter lacks the dependencies: its entry points would choose this same one
    (this runs from that folder's scripts/judgment-kit then), so they could not run either."""
    import shutil  # here: the recall and SessionStart never look for a tool
    from pathlib import Path
    found = shutil.which(name)
    if found:
        return found
    for folder in _beside() + [Path.home() / ".local" / "bin"]:
        if (folder / name).is_file() and os.access(folder / name, os.X_OK):
            return str(folder / name)
    script = checkout_root() / "scripts" / TOOLS[name]
    if not script.is_file():
        return None
    from judgment_toolkit.judgment import deps  # find_spec only: nothing heavy is imported
    return None if deps.missing() else str(script)


def _beside() -> list:
    """The folders of the running judgment-kit and of sys.executable, unresolved: a venv's
    python is a symlink out of the venv, and its bin folder is what holds the commands."""
    from pathlib import Path
    folders = []
    if sys.argv and Path(sys.argv[0]).name == "judgment-kit":
        folders.append(Path(os.path.abspath(sys.argv[0])).parent)
    if sys.executable:
        folders.append(Path(os.path.abspath(sys.executable)).parent)
    return folders


def project_dir(payload: dict) -> str:
    """The project folder: $CLAUDE_PROJECT_DIR, else the hook's `cwd`, else the current one."""
    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
    return os.environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd()


PROJECT_COMMAND = 'judgment-kit project --dir "${CLAUDE_PROJECT_DIR}"'  # project_name, as the
# skill and the commands print it (Claude Code fills in ${CLAUDE_PROJECT_DIR} there; empty: unset)


def project_name(payload: dict) -> str:
    """The ledger's project name for the hook's project folder (judgment.project, the one
    function every caller derives it with)."""
    from judgment_toolkit.judgment.project import project_name as derive
    return derive(project_dir(payload))


def print_project(argv) -> int:
    """`judgment-kit project [--dir DIR]`: project_name for DIR (an empty DIR, as an unset
    ${CLAUDE_PROJECT_DIR} renders, counts as not given), else for the hooks' project folder."""
    if argv[:1] in (["-h"], ["--help"]):
        sys.stdout.write(USAGE)
        return 0
    if len(argv) not in (0, 2) or (argv and argv[0] != "--dir"):
        sys.stderr.write(f"judgment-kit: project: unexpected arguments {argv!r}; "
                         "usage: judgment-kit project [--dir DIR]\n")
        return 64
    given = argv[1] if argv else ""
    if given and not os.path.isdir(given):
        sys.stderr.write(f"judgment-kit: project: --dir {given!r} is not a folder\n")
        return 64
    if given:
        from judgment_toolkit.judgment.project import project_name as derive
        name = derive(given)
    else:
        name = project_name({})
    sys.stdout.write(name + "\n")
    return 0
