"""`ha new <goal>`: write a goal folder's SPEC.md and PLAN.md from the packaged templates
(templates/goal/), so a new user starts from the exact headings and columns ha reads.

A file that exists is never touched: each one is created with O_EXCL, so even a file appearing
between the check and the write is kept. Only the missing ones are written; when none is
missing the command is refused (65) and nothing changes.
"""
from __future__ import annotations

import os

from .. import packaged
from . import goal as goalmod, safefs
from .errors import error

FILES = ("SPEC.md", "PLAN.md")  # in the order they are written and reported
_GOAL_MARK = "{{goal}}"         # the templates' one substitution: the goal's path


def new(repo, arg, cwd=None):
    """[(repository-relative path, "wrote" | "kept")] for FILES; the folder is created when
    missing (inside the worktree only, never the root or the git dir)."""
    folder = goalmod.resolve(repo, arg, cwd, create=True)
    existing = [name for name in FILES
                if safefs.kind(os.path.join(folder.abs_path, name)) != "missing"]
    if len(existing) == len(FILES):
        raise error("goal_exists", f"{folder.path}: {' and '.join(FILES)} already exist; "
                    "ha new never overwrites a file (nothing was written). Edit them, or "
                    "give ha new a new folder")
    done = []
    for name in FILES:
        rel = folder.rel(name)
        if name in existing:
            done.append((rel, "kept"))
            continue
        text = packaged.text("goal template", "goal", name).replace(_GOAL_MARK, folder.path)
        _create(os.path.join(folder.abs_path, name), rel, text.encode("utf-8"))
        done.append((rel, "wrote"))
    return done


def _create(path, rel, data):
    try:
        # O_EXCL: an existing name (a symlink included) is never opened, so never overwritten
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
    except FileExistsError:
        raise error("goal_exists", f"{rel}: appeared while ha new ran; it was kept "
                    "(nothing overwritten)") from None
    except OSError as exc:
        raise error("io_error", f"{rel}: cannot create: {exc.strerror or exc}; nothing was "
                    "written to it") from None
    try:
        safefs.write_all(fd, data)
        os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        os.unlink(path)  # our own file, just created: remove the partial copy
        raise error("io_error", f"{rel}: cannot write: {exc.strerror or exc}; the partial "
                    "file was removed") from None
    os.close(fd)
