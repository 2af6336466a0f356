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


def _regular_fd(fd: int, path: str, single_link: bool) -> int:
    """`fd` if it is a regular file (with one link when asked); else closed, FsError."""
    try:
        _check_regular(fd, path, single_link)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_error(exc: OSError, path: str) -> FsError:
    """The FsError for an os.open failure: a final symlink is not_regular, else unreadable."""
    if exc.errno in (errno.ELOOP, errno.EMLINK):
        return FsError("not_regular", path, "symlink")
    return FsError("unreadable", path, exc.strerror or str(exc))


def open_read(path: str, single_link: bool = False) -> int:
    """A read-only fd on a regular file; the final component must not be a symlink."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _CLOEXEC | _NONBLOCK | _NOCTTY)
    except FileNotFoundError:
        raise FsError("missing", path) from None
    except NotADirectoryError:
        raise FsError("missing", path, "a parent is not a folder") from None
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise FsError("not_regular", path, "folder") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise FsError("missing", path, "name too long") from None
        raise _open_error(exc, path) from None
    return _regular_fd(fd, path, single_link)


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


def read_or_empty(path: str) -> bytes:
    """Content of a regular file, or b'' when it is missing, not regular, or unreadable."""
    try:
        return read_file(path)
    except FsError:
        return b""


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
    flags = os.O_WRONLY | os.O_APPEND | _NOFOLLOW | _CLOEXEC | _NOCTTY
    created = False
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        if not create:
            raise FsError("missing", path) from None
        try:
            fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, 0o666)
            created = True
        except FileExistsError:
            fd = os.open(path, flags)
    except OSError as exc:
        raise _open_error(exc, path) from None
    return _regular_fd(fd, path, single_link=True), created


def open_lock(path: str) -> int:
    """An fd for advisory flock on `path` (created if missing; never a symlink)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC | _NOCTTY, 0o666)
    except OSError as exc:
        raise _open_error(exc, path) from None
    return _regular_fd(fd, path, single_link=False)


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


def replace_file(path: str, data: bytes) -> None:
    """Atomically replace `path` with `data`: temp file beside it, fsync, rename, fsync folder."""
    folder = os.path.dirname(path) or "."
    tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | _CLOEXEC, 0o666)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if kind(path) not in ("missing", "file"):
        os.unlink(tmp)
        raise FsError("not_regular", path, "expected a regular file")
    os.replace(tmp, path)
    fsync_dir(folder)
