"""The ledger's project name, derived in one place for every caller: the hooks, the skill's
commands, setup-claude's rules and the MCP server (docs/claude-kit.md, "The project name").

Standard library only and no process: a hook calls this on every question.
"""
import os


def project_name(start_dir=None, env=None):
    """$JUDGMENT_PROJECT, else the name of the folder `start_dir` (default: the current one)."""
    env = os.environ if env is None else env
    if env.get("JUDGMENT_PROJECT"):
        return env["JUDGMENT_PROJECT"]
    return os.path.basename(os.path.realpath(start_dir or os.getcwd()))
