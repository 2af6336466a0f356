"""The decision-history store: <git-common-dir>/ha/history/<start-sha256>/{events.jsonl,last,lock}.

Every path component is opened relative to its parent's fd without following symlinks and
checked with fstat/lstat: a symlink, a non-regular file or folder, or a file with more than
one link anywhere in the store path is history_unreadable, for reads and writes alike.
Reads never create anything; when the lock file exists they hold a shared flock on it so a
read that overlaps an add sees the history before or after it. Every read and every write
verifies the whole chain first (verify.py: seq, prev hashes, schema and fields, relations,
line size, `last`); damage is history_corrupt and nothing is ever repaired or truncated.
"""
from __future__ import annotations

import collections
import errno
import fcntl
import hashlib
import json
import os
import stat

from . import model
from .errors import HistoryError, corrupt, unreadable
from .verify import StoredEvent, check_last, fast_check, parse_last, parse_line  # noqa: F401

EVENTS, LAST, LOCK, TMP = "events.jsonl", "last", "lock", "last.tmp"
_R = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_sha256 = hashlib.sha256


def locate(repo, start_sha: str) -> "Store":
    return Store(repo.common_dir, start_sha)


def _why(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Store:
    def __init__(self, common_dir: str, key: str):
        self.common_dir = common_dir
        self.key = key
        self.dir = os.path.join(common_dir, "ha", "history", key)
        self.events_path = os.path.join(self.dir, EVENTS)
        self.last_path = os.path.join(self.dir, LAST)
        self.lock_path = os.path.join(self.dir, LOCK)
        self.tmp_path = os.path.join(self.dir, TMP)

    # -- path walking ------------------------------------------------------------------
    def _open_dir(self, create: bool = False):
        """fd of the store folder, or None when (some part of) it does not exist."""
        try:
            fd = os.open(self.common_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise unreadable(f"cannot open git dir {self.common_dir}: {_why(exc)}") from None
        shown = self.common_dir
        for part in ("ha", "history", self.key):
            shown = os.path.join(shown, part)
            try:
                try:
                    nfd = os.open(part, _DIR, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        return None
                    try:
                        os.mkdir(part, 0o777, dir_fd=fd)
                    except FileExistsError:
                        pass
                    nfd = os.open(part, _DIR, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise unreadable(f"{shown} is a symlink or not a folder") from None
                raise unreadable(f"cannot open {shown}: {_why(exc)}") from None
            finally:
                os.close(fd)
            fd = nfd
        return fd

    def _open_file(self, dfd: int, name: str, flags: int = _R, mode: int = 0o666):
        """fd of a regular single-link file in the store folder, or None when missing."""
        try:
            fd = os.open(name, flags, mode, dir_fd=dfd)
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR, errno.ENOTDIR):
                raise unreadable(f"{os.path.join(self.dir, name)} is a symlink or not a "
                                 "regular file") from None
            raise unreadable(f"cannot open {os.path.join(self.dir, name)}: {_why(exc)}") from None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode):
                raise unreadable(f"{os.path.join(self.dir, name)} is not a regular file")
            if st.st_nlink > 1:
                raise unreadable(f"{os.path.join(self.dir, name)} has {st.st_nlink} links")
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _check_tmp(self, dfd: int) -> bool:
        """The temp file may only be absent or a regular single-link file (True if present)."""
        try:
            st = os.stat(TMP, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise unreadable(f"cannot inspect {self.tmp_path}: {_why(exc)}") from None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            raise unreadable(f"{self.tmp_path} is a symlink, not a regular file or has links")
        return True

    # -- reads -------------------------------------------------------------------------
    def exists(self) -> bool:
        """True when events.jsonl or `last` exists (a `last` without events is a damaged
        history, which scan reports); every component is checked on the way."""
        dfd = self._open_dir()
        if dfd is None:
            return False
        try:
            self._check_tmp(dfd)
            found = False
            for name in (LOCK, LAST, EVENTS):
                fd = self._open_file(dfd, name)
                if fd is not None:
                    os.close(fd)
                    found = found or name != LOCK
            return found
        finally:
            os.close(dfd)

    def scan(self, full: bool = False) -> "Scan":
        """Iterate verified events in seq order (see Scan); `full` checks every line field
        by field, trusting nothing `last` vouches for (`ha history <goal> verify`)."""
        return Scan(self, full=full)

    def read_at(self, offset: int, length: int) -> dict:
        """Re-read one stored event located by a previous scan (length without the LF)."""
        dfd = self._open_dir()
        if dfd is None:
            raise corrupt(f"{self.events_path} disappeared")
        try:
            fd = self._open_file(dfd, EVENTS)
        finally:
            os.close(dfd)
        if fd is None:
            raise corrupt(f"{self.events_path} disappeared")
        try:
            raw = os.pread(fd, length + 1, offset)
        except OSError as exc:
            raise unreadable(f"cannot read {self.events_path}: {_why(exc)}") from None
        finally:
            os.close(fd)
        if len(raw) != length + 1 or not raw.endswith(b"\n"):
            raise corrupt(f"{self.events_path} changed: no event line at byte {offset}")
        try:
            return json.loads(raw[:-1])
        except ValueError:
            raise corrupt(f"{self.events_path}: no event line at byte {offset}") from None

    # -- writes ------------------------------------------------------------------------
    def write_lock(self) -> "WriteLock":
        return WriteLock(self)


class Scan:
    """One verified pass over the store. Iterate it to the end before trusting any event;
    afterwards `count`, `head_sha256` (of the last line) and `last_behind` (the `last` file
    names the event before the last one, as after a crash between write and update) are set.
    `request_seqs` maps every request id to its event's seq (not the event: a scan must not
    keep what it hands out, so a view's memory follows its page), and `last_correction` maps
    each superseded event id to the id of its last correction (both filled while iterating).
    """

    def __init__(self, store: Store, dfd: int | None = None, full: bool = False):
        self.store = store
        self.full = full
        self._held_dfd = dfd           # set when the caller holds the exclusive lock
        self.request_seqs: dict = {}
        self.last_correction: dict = {}
        self.count = 0
        self.head_sha256 = None
        self.last_behind = False
        self.done = False

    def __iter__(self):
        return self._run()

    def run(self) -> "Scan":
        """Verify the whole store without handing events out."""
        collections.deque(self._run(), maxlen=0)
        return self

    def _run(self):
        st = self.store
        if self._held_dfd is not None:
            st._check_tmp(self._held_dfd)
            yield from self._verify_fd(self._held_dfd)
            return
        dfd = st._open_dir()
        if dfd is None:
            self.done = True
            return
        lfd = None
        try:
            st._check_tmp(dfd)
            lfd = st._open_file(dfd, LOCK)
            if lfd is None:
                # No add has taken the lock yet: read everything, then look again; a lock
                # that appeared meanwhile means an add may be writing, so re-read under it.
                data, last = self._read_all(dfd)
                lfd = st._open_file(dfd, LOCK)
                if lfd is None:
                    yield from self._verify(None if data is None else _Lines(data), last)
                    return
            try:
                fcntl.flock(lfd, fcntl.LOCK_SH)
            except OSError as exc:
                raise unreadable(f"cannot lock {st.lock_path}: {_why(exc)}") from None
            yield from self._verify_fd(dfd)
        finally:
            if lfd is not None:
                os.close(lfd)
            os.close(dfd)

    def _read_last(self, dfd):
        fd = self.store._open_file(dfd, LAST)
        if fd is None:
            return None
        try:
            data = os.read(fd, model.LAST_MAX + 1)
        except OSError as exc:
            raise unreadable(f"cannot read {self.store.last_path}: {_why(exc)}") from None
        finally:
            os.close(fd)
        return data

    def _read_all(self, dfd):
        fd = self.store._open_file(dfd, EVENTS)
        last = self._read_last(dfd)
        if fd is None:
            return None, last
        try:
            with os.fdopen(fd, "rb", closefd=True) as f:
                return f.read(), last
        except OSError as exc:
            raise unreadable(f"cannot read {self.store.events_path}: {_why(exc)}") from None

    def _verify_fd(self, dfd):
        fd = self.store._open_file(dfd, EVENTS)
        last = self._read_last(dfd)
        if fd is None:
            yield from self._verify(None, last)
            return
        with os.fdopen(fd, "rb", buffering=0, closefd=True) as f:
            yield from self._verify(_Lines(f, self.store.events_path), last)

    def _verify(self, lines, last_raw):
        key, path = self.store.key, self.store.events_path
        last = parse_last(last_raw, self.store.last_path)
        # Lines up to the one `last` names were verified in full by the add that wrote
        # `last`; their bytes are pinned by the hash chain, so they get the cheap checks
        # (size, sha256, prev, header, request id, relations). Lines after it and any line
        # not in our canonical form are parsed and checked field by field.
        vouched = last[0] if last and not self.full else 0
        ctx_mark = b',"context":{"start":"' + key.encode() + b'","run_head":'
        prev = before = None
        seq = offset = 0
        request_ids = self.request_seqs
        corrections = self.last_correction
        if lines is not None:
            for raw in lines:
                seq += 1
                if len(raw) > model.LINE_MAX:
                    raise corrupt(f"{path} line {seq} is longer than {model.LINE_MAX} bytes")
                sha = _sha256(raw).hexdigest()
                ev = sup = None
                fast = fast_check(raw, seq, prev, ctx_mark, path) if seq <= vouched else None
                if fast is None:
                    ev = parse_line(raw, seq, prev, key, path)
                    rid = ev["request_id"]
                else:
                    rid, sup = fast
                if rid in request_ids:
                    raise corrupt(f"{path} line {seq}: request id {rid!r} is used twice")
                se = StoredEvent(seq, offset, len(raw), sha, raw, ev, rid, sup)
                request_ids[rid] = seq
                if sup is None:
                    sup = se.superseded_ids()
                for target in sup:
                    corrections[target] = f"D{seq}"
                yield se
                offset += len(raw) + 1
                before, prev = prev, sha
            if lines.tail:
                seq += 1
                if len(lines.tail) > model.LINE_MAX:
                    raise corrupt(f"{path} line {seq} is longer than {model.LINE_MAX} bytes")
                raise corrupt(f"{path} line {seq} is incomplete (no final newline)")
        self.count, self.head_sha256 = seq, prev
        self.last_behind = check_last(last, seq, prev, before, self.store.last_path,
                                       lines is None)
        self.done = True


class _Lines:
    """The LF-terminated lines of a file (or bytes), without their LF, read in large chunks;
    `tail` holds what follows the last LF once iterated. A piece longer than LINE_MAX without
    an LF stops the read (history_corrupt) instead of growing without bound."""
    CHUNK = 1 << 20  # larger chunks cost memory (8 MiB: 84 MB peak at 100k events) and no speed

    def __init__(self, source, path=EVENTS):
        self.source, self.path, self.tail = source, path, b""

    def __iter__(self):
        if isinstance(self.source, bytes):
            parts = self.source.split(b"\n")
            self.tail = parts.pop()
            yield from parts
            return
        rest, n = b"", 0
        while True:
            try:
                chunk = self.source.read(self.CHUNK)
            except OSError as exc:
                raise unreadable(f"cannot read {self.path}: {_why(exc)}") from None
            if not chunk:
                break
            parts = (rest + chunk if rest else chunk).split(b"\n")
            rest = parts.pop()
            n += len(parts)
            if len(rest) > model.LINE_MAX:
                raise corrupt(f"{self.path} line {n + 1} is longer than {model.LINE_MAX} bytes")
            yield from parts
        self.tail = rest


class WriteLock:
    """The exclusive store lock of one add; creates the store folders and lock file."""

    def __init__(self, store: Store):
        self.store = store
        self.dfd = self.lfd = None

    def __enter__(self):
        st = self.store
        self.dfd = st._open_dir(create=True)
        try:
            self.lfd = st._open_file(self.dfd, LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW
                                     | os.O_CLOEXEC | os.O_NOCTTY | os.O_NONBLOCK)
            fcntl.flock(self.lfd, fcntl.LOCK_EX)
        except OSError as exc:
            self.__exit__(None, None, None)
            raise unreadable(f"cannot lock {st.lock_path}: {_why(exc)}") from None
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        for fd in (self.lfd, self.dfd):
            if fd is not None:
                os.close(fd)
        self.lfd = self.dfd = None
        return False

    def scan(self) -> Scan:
        return Scan(self.store, dfd=self.dfd)

    def append(self, raw: bytes) -> None:
        """Append one line (raw + LF) with a single O_APPEND write, then fsync.

        OSError before the write means nothing was written (history_unreadable for the
        caller); any failure from the write on is raised as WriteFailed.
        """
        st = self.store
        flags = os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NOCTTY \
            | os.O_NONBLOCK
        fd = st._open_file(self.dfd, EVENTS, flags)
        created = fd is None
        if created:
            fd = st._open_file(self.dfd, EVENTS, flags | os.O_CREAT | os.O_EXCL)
        data = raw + b"\n"
        try:
            n = os.write(fd, data)
            if n != len(data):
                raise WriteFailed(f"wrote {n} of {len(data)} bytes to {st.events_path}")
            os.fsync(fd)
            if created:  # the new directory entry must survive a crash too
                os.fsync(self.dfd)
        except OSError as exc:
            raise WriteFailed(f"{st.events_path}: {_why(exc)}") from None
        finally:
            try:
                os.close(fd)
            except OSError as exc:
                raise WriteFailed(f"closing {st.events_path}: {_why(exc)}") from None

    def write_last(self, seq: int, sha256: str) -> None:
        """Replace `last` atomically (temp file, fsync, rename, fsync folder); WriteFailed."""
        st = self.store
        try:
            if st._check_tmp(self.dfd):
                os.unlink(TMP, dir_fd=self.dfd)
            fd = os.open(TMP, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o666, dir_fd=self.dfd)
            try:
                data = model.last_bytes(seq, sha256)
                if os.write(fd, data) != len(data):
                    raise OSError(errno.EIO, "short write")
                os.fsync(fd)
            finally:
                os.close(fd)
            os.rename(TMP, LAST, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
            os.fsync(self.dfd)
        except OSError as exc:
            raise WriteFailed(f"{st.last_path}: {_why(exc)}") from None
        except HistoryError as exc:
            raise WriteFailed(exc.message) from None


class WriteFailed(Exception):
    """A write that began and failed: its effect is unknown to the caller."""
