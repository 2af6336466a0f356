"""The ledger's project name, derived in one place for every caller: the hooks, the skill's
commands (`judgment-kit project`), setup-claude's rules and the MCP server (docs/claude-kit.md,
"The project name").

One name per repository, the same in every worktree and every clone: $JUDGMENT_PROJECT, else
the name committed in `.claude/judgment-project` (which `judgment-kit share` writes), else the
name of the repository's main worktree folder (a linked worktree's own folder name, such as
`shop-feature-x`, is never the project). Outside a repository: the folder's name.

Standard library only and no process: a hook calls this on every question.
"""
import os
import stat

from . import place

PROJECT_FILE_PARTS = (".claude", "judgment-project")
NAME_MAX = 200  # characters of a committed name; a longer first line is not a name


def project_name(start_dir=None, env=None):
    """$JUDGMENT_PROJECT, else the committed name (the main worktree's file, else this
    worktree's own checkout of it), else the main worktree's folder name, for the repository
    holding `start_dir` (default: the current folder); outside one, that folder's name."""
    env = os.environ if env is None else env
    if env.get("JUDGMENT_PROJECT"):
        return env["JUDGMENT_PROJECT"]
    start = os.path.realpath(start_dir or os.getcwd())
    repo = place.repository(start)
    if repo is None:
        return os.path.basename(start)
    for top in dict.fromkeys(t for t in (repo.main, repo.top) if t):
        name = committed_name(top)
        if name:
            return name
    if repo.main:
        return os.path.basename(repo.main)
    return _bare_name(repo.common)


def committed_name(top):
    """The name in `<top>/.claude/judgment-project`: its first line without surrounding white
    space, or None when the file is missing, behind a symlink, not a regular file, not UTF-8,
    empty, longer than NAME_MAX or holding a control character (then the folder name is used)."""
    path = place.Confined(top, PROJECT_FILE_PARTS)
    try:
        fd = path.open(os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, 4 * NAME_MAX + 2)
    except OSError:
        return None
    finally:
        os.close(fd)
    first = data.split(b"\n", 1)[0]
    if len(first) > 4 * NAME_MAX:
        return None
    try:
        name = first.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    return name if valid_name(name) else None


def valid_name(name):
    """A committed project name: 1 to NAME_MAX characters, no control characters."""
    return 0 < len(name) <= NAME_MAX and not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in name)


def _bare_name(common):
    """A bare repository has no main worktree: its folder's name without `.git`."""
    name = os.path.basename(common)
    return name[:-4] if name.endswith(".git") and len(name) > 4 else name
