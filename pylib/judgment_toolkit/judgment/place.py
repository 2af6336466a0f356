"""Where a repository keeps its one ledger, and how that file is opened without leaving the
repository (docs/judgment-ledger.md, "Where the ledger lives" and "The trust boundary").

One ledger per repository: every worktree of a repository (the main one and each linked one
that `git worktree add` made) uses the main worktree's `.claude/state/judgment-ledger.jsonl`.
The repository is found the way git finds it, from the files alone (a `.git` folder, or a `.git`
file naming a git dir whose `commondir` names the shared one); no git process is started,
because the hooks call this on every question.

Inside a repository the path is `Confined`: `.claude`, `.claude/state` and the ledger are opened
one component at a time from the worktree's top, each without following a symlink, so a
repository that commits `.claude` or the ledger as a symlink (to a shell start-up file, say)
cannot make an append write outside it. A refusal is `Refused`, an OSError, so every reader's
"cannot read the ledger" path reports it and append skips with its one line (fail-open).

Standard library only.
"""
import errno
import os
import stat

LEDGER_PARTS = (".claude", "state", "judgment-ledger.jsonl")
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class Repository:
    """A worktree's top (`top`) and the repository's main worktree top (`main`, None for a
    bare repository, which has none), with the common git dir (`common`)."""

    def __init__(self, top, main, common):
        self.top, self.main, self.common = top, main, common

    @property
    def home(self):
        """The worktree whose `.claude` holds the repository's ledger: the main one."""
        return self.main or self.top


def worktree_top(start):
    """The nearest folder at or above `start` holding a `.git` folder or a `.git` file (the
    worktree top level git would find), or None."""
    path = os.path.abspath(start)
    while True:
        dot_git = os.path.join(path, ".git")
        if os.path.isdir(dot_git) or _gitdir_of(dot_git) is not None:
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def repository(start):
    """The Repository holding `start`, or None outside any."""
    top = worktree_top(start)
    if top is None:
        return None
    dot_git = os.path.join(top, ".git")
    if os.path.isdir(dot_git):
        return Repository(top, top, dot_git)
    git_dir = _gitdir_of(dot_git)
    common_ref = _first_line(os.path.join(git_dir, "commondir"))
    if common_ref is None:  # a submodule or a separate git dir: its own main worktree
        return Repository(top, top, git_dir)
    common = os.path.normpath(os.path.join(git_dir, common_ref))
    main = os.path.dirname(common) if os.path.basename(common) == ".git" else None
    if main is not None and not os.path.isdir(os.path.join(main, ".git")):
        main = None
    return Repository(top, main, common)


def _gitdir_of(path):
    """The git dir a `.git` file names (made absolute), or None when `path` is not one."""
    line = _first_line(path, 4096)
    if line is None or not line.startswith("gitdir: "):
        return None
    return os.path.normpath(os.path.join(os.path.dirname(path), line[len("gitdir: "):]))


def _first_line(path, limit=4096):
    """The first line of a small regular file, or None (never blocks on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8").split("\n", 1)[0].rstrip("\r")
    except UnicodeDecodeError:
        return None


class Refused(OSError):
    """A component of a confined path is a symlink or not what it must be."""


class Confined(str):
    """A path under a repository's worktree top (`base`) that is opened one component at a
    time, never through a symlink (`parts`, relative to `base`). It is the path string too."""

    def __new__(cls, base, parts):
        self = super().__new__(cls, os.path.join(base, *parts))
        self.base, self.parts = base, tuple(parts)
        return self

    def open(self, flags, mode=0o644, create_dirs=False):
        """os.open of the file, walking from `base` without following any symlink below it;
        FileNotFoundError when a folder is missing and not `create_dirs`, Refused when a
        component is a symlink or not a folder."""
        fd = os.open(self.base, os.O_RDONLY | _DIRECTORY | os.O_CLOEXEC)
        try:
            for depth, name in enumerate(self.parts[:-1]):
                inner = self._enter(fd, name, depth, create_dirs)
                os.close(fd)
                fd = inner
            try:
                return os.open(self.parts[-1], flags | _NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=fd)
            except OSError as e:
                raise self._why(fd, len(self.parts) - 1, e) from None
        finally:
            os.close(fd)

    def _enter(self, fd, name, depth, create):
        flags = os.O_RDONLY | _DIRECTORY | _NOFOLLOW | os.O_CLOEXEC
        try:
            try:
                inner = os.open(name, flags, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                try:
                    os.mkdir(name, 0o777, dir_fd=fd)
                except FileExistsError:
                    pass  # made meanwhile: opened (and checked) below
                inner = os.open(name, flags, dir_fd=fd)
        except OSError as e:
            raise self._why(fd, depth, e) from None
        return inner

    def _why(self, fd, depth, error):
        """The error to raise for `error` met at parts[depth]: Refused naming the component
        when it is a symlink or (for a folder) not a folder, else `error` as it is."""
        rel = os.path.join(*self.parts[:depth + 1])
        try:
            st = os.stat(self.parts[depth], dir_fd=fd, follow_symlinks=False)
        except OSError:
            return error
        if stat.S_ISLNK(st.st_mode):
            what = "a symbolic link"
        elif depth < len(self.parts) - 1 and not stat.S_ISDIR(st.st_mode):
            what = "not a folder"
        else:
            return error
        return Refused(errno.ELOOP, f"{rel} in {self.base} is {what}; the repository's ledger "
                       "must be a real file in real folders inside it (set "
                       "HARNESS_JUDGMENT_LEDGER to keep the ledger elsewhere)", str(self))


def ledger_path(start):
    """(the default ledger path for a process in `start`, how it was chosen): Confined under
    the main worktree of the repository holding `start`, else a plain path under `start`."""
    repo = repository(start)
    if repo is None:
        return os.path.join(start, *LEDGER_PARTS), None
    how = "under the main worktree" if repo.home != repo.top else "under the git top level"
    return Confined(repo.home, LEDGER_PARTS), how
