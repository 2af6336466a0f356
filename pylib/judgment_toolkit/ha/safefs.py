"""Careful file access: no-follow opens, regular-file and link-count checks, bounded reads, fsync.

The run record, its lock and logs, and the decision history are read and written only through
these helpers, so a symlink or a hard link planted in a goal folder or git dir is refused
instead of being followed. Errors are `FsError` with a `state` a caller can report as is:
`missing`, `not_regular` (a symlink, folder, device, or a file with several links),
`unreadable` or `too_large`.
"""
from __future__ import annotations

import errno
import os
import stat

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)


class FsError(Exception):
    def __init__(self, state: str, path: str, detail: str = ""):
        super().__init__(f"{path}: {state}" + (f" ({detail})" if detail else ""))
        self.state = state
        self.path = path
        self.detail = detail


def kind(path: str) -> str:
    """'missing', 'file', 'dir', 'symlink' or 'other', without following a final symlink."""
    try:
        st = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return "missing"
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:  # no file can have this name
            return "missing"
        raise
    if stat.S_ISLNK(st.st_mode):
        return "symlink"
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    return "other"


def _check_regular(fd: int, path: str, single_link: bool):
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise FsError("not_regular", path, "not a regular file")
    if single_link and st.st_nlink > 1:
        raise FsError("not_regular", path, f"{st.st_nlink} hard links")
    return st


# errno of an os.open that met something other than a regular file: a final symlink (ELOOP;
# EMLINK on some BSDs), a folder, a socket or a FIFO without a writer (ENXIO), a device
_NOT_REGULAR = {errno.ELOOP: "symlink", errno.EMLINK: "symlink", errno.EISDIR: "folder",
                errno.ENXIO: "not a regular file", errno.ENODEV: "not a regular file"}


def open_file(path: str, flags: int = os.O_RDONLY, mode: int = 0o666, *,
              dir_fd: int | None = None, single_link: bool = False) -> int:
    """The one safe open of a file: `path` (relative to `dir_fd` when given) opened without
    following a final symlink, without blocking on a FIFO or device and without becoming a
    controlling terminal; the fd must be a regular file (with one link when `single_link`).

    FsError: `missing` (no such file, or a parent is not a folder, or the name is too long),
    `not_regular` (symlink, folder, FIFO, socket, device, more links than allowed) or
    `unreadable` (any other error, e.g. permissions or a read-only file system).
    """
    flags |= _NOFOLLOW | _CLOEXEC | _NONBLOCK | _NOCTTY
    try:
        fd = os.open(path, flags, mode, dir_fd=dir_fd)
    except FileNotFoundError:
        raise FsError("missing", path) from None
    except NotADirectoryError:
        raise FsError("missing", path, "a parent is not a folder") from None
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise FsError("missing", path, "name too long") from None
        if exc.errno in _NOT_REGULAR:
            raise FsError("not_regular", path, _NOT_REGULAR[exc.errno]) from None
        raise FsError("unreadable", path, exc.strerror or str(exc)) from None
    try:
        _check_regular(fd, path, single_link)
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_dir(path: str, *, dir_fd: int | None = None) -> int:
    """A folder fd, never through a final symlink (OSError as os.open raises it)."""
    return os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW | _CLOEXEC,
                   dir_fd=dir_fd)


def open_read(path: str, single_link: bool = False) -> int:
    """A read-only fd on a regular file; the final component must not be a symlink."""
    return open_file(path, os.O_RDONLY, single_link=single_link)


def read_file(path: str, limit: int | None = None, single_link: bool = False) -> bytes:
    """The whole content of a regular file; FsError('too_large') past `limit` bytes."""
    fd = open_read(path, single_link)
    try:
        chunks, total = [], 0
        while True:
            want = 1 << 20 if limit is None else min(1 << 20, limit + 1 - total)
            if want <= 0:
                raise FsError("too_large", path, f"over {limit} bytes")
            try:
                chunk = os.read(fd, want)
            except OSError as exc:
                raise FsError("unreadable", path, exc.strerror or str(exc)) from None
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if limit is not None and total > limit:
                raise FsError("too_large", path, f"over {limit} bytes")
    finally:
        os.close(fd)


def ensure_dir(path: str, mode: int = 0o777) -> None:
    """Create `path` and missing parents; every existing component must be a real folder."""
    path = os.path.abspath(path)
    missing = []
    probe = path
    while True:
        k = kind(probe)
        if k == "dir":
            break
        if k != "missing":
            raise FsError("not_regular", probe, f"{k}, expected a folder")
        missing.append(probe)
        parent = os.path.dirname(probe)
        if parent == probe:
            break
        probe = parent
    for p in reversed(missing):
        try:
            os.mkdir(p, mode)
        except FileExistsError:
            if kind(p) != "dir":
                raise FsError("not_regular", p, "expected a folder") from None
        except OSError as exc:
            raise FsError("unreadable", p, exc.strerror or str(exc)) from None


def open_append(path: str, create: bool = True) -> tuple[int, bool]:
    """(fd, created): O_APPEND write fd on a regular single-link file, never through a symlink."""
    flags = os.O_WRONLY | os.O_APPEND
    try:
        return open_file(path, flags, single_link=True), False
    except FsError as exc:
        if exc.state != "missing" or exc.detail or not create:
            raise
    try:
        return open_file(path, flags | os.O_CREAT | os.O_EXCL, single_link=True), True
    except FsError as exc:
        if exc.state != "unreadable" or kind(path) != "file":
            raise
        return open_file(path, flags, single_link=True), False   # created meanwhile


def open_lock(path: str) -> int:
    """An fd for advisory flock on `path` (created if missing; never a symlink)."""
    return open_file(path, os.O_RDWR | os.O_CREAT)


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def fsync_dir(path: str) -> None:
    """fsync a folder so a created or renamed entry in it survives a crash (best effort)."""
    try:
        fd = os.open(path, os.O_RDONLY | _CLOEXEC | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
