"""The writer of one add: the exclusive store lock, the events line, `last`, the index. The
only bytes it removes are its own line that failed, cut back while it holds the lock, so no
reader saw it (NotWritten; docs/history.md, "Failed writes"). A line left by a writer that
died is never cut: the scan reports it as history_corrupt before any write starts.
"""
from __future__ import annotations

import errno
import fcntl
import os

from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import HistoryError, unreadable
from judgment_toolkit.ha.history.store.folder import EVENTS, LAST, LOCK, TMP, why
from judgment_toolkit.ha.history.store.indexwrite import Writer
from judgment_toolkit.ha.history.store.scan import Scan
from judgment_toolkit.ha.history.store.verify import StoredEvent


class WriteLock:
    """The exclusive store lock of one add; creates the store folders and lock file."""

    def __init__(self, store):
        self.store = store
        self.dfd = self.lfd = None
        self.index = None
        self._scan = None

    def __enter__(self):
        st = self.store
        self.dfd = st._open_dir(create=True)
        try:
            self.lfd = st._open_file(self.dfd, LOCK, os.O_RDWR | os.O_CREAT)
            fcntl.flock(self.lfd, fcntl.LOCK_EX)
        except OSError as exc:
            self.__exit__(None, None, None)
            raise unreadable(f"cannot lock {st.lock_path}: {why(exc)}") from None
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc):
        if self.index is not None:
            self.index.abandon()
        if self._scan is not None and self._scan.index_state is not None:
            self._scan.index_state.close()
        for fd in (self.lfd, self.dfd):
            if fd is not None:
                os.close(fd)
        self.lfd = self.dfd = None
        return False

    def scan(self, request_id: str | None = None) -> Scan:
        """The verified pass of this add (corrections tracked; rebuilds the index when it
        cannot be used). With `request_id`, a trusted index yields only the event stored under
        it (the full path yields every event)."""
        self.index = Writer(self.store, self.dfd)
        self._scan = Scan(self.store, dfd=self.dfd, corrections=True, sink=self.index)
        self._scan.request_id = request_id
        return self._scan

    def record(self, seq: int, offset: int, raw: bytes, sha256: str) -> None:
        """After the line and `last` are stored: bring the index up to date (never fails)."""
        if self.index is None or self._scan is None:
            return
        new = StoredEvent.parse(raw, seq, offset, self._scan.head_sha256, self.store.key,
                                self.store.events_path, sha256)
        self.index.commit(new, self._scan.index_state if self._scan.cached else None)

    def append(self, raw: bytes) -> int:
        """Append one line (raw + LF) with O_APPEND writes, then fsync; returns its offset.
        OSError before the write: nothing was written (history_unreadable). A write or fsync
        that fails is undone under the lock (cut back to the old length, fsynced): NotWritten,
        which add reports as write_uncertain so the client resends. When the undo fails too, or
        closing fails after the line was written, the effect is unknown: WriteFailed."""
        st = self.store
        flags = os.O_WRONLY | os.O_APPEND
        fd = st._open_file(self.dfd, EVENTS, flags)
        created = fd is None
        if created:
            fd = st._open_file(self.dfd, EVENTS, flags | os.O_CREAT | os.O_EXCL)
        data = raw + b"\n"
        try:
            size = os.fstat(fd).st_size
        except OSError as exc:
            os.close(fd)
            raise unreadable(f"cannot inspect {st.events_path}: {why(exc)}") from None
        try:
            try:
                view = memoryview(data)
                while view:
                    n = os.write(fd, view)
                    if n <= 0:
                        raise OSError(errno.EIO, f"wrote {len(data) - len(view)} of "
                                      f"{len(data)} bytes")
                    view = view[n:]
                os.fsync(fd)
                if created:  # the new directory entry must survive a crash too
                    os.fsync(self.dfd)
            except OSError as exc:
                cause = why(exc)
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError as undo:
                    raise WriteFailed(f"{st.events_path}: {cause}; cutting it back to {size} "
                                      f"bytes failed: {why(undo)}") from None
                raise NotWritten(f"{st.events_path}: {cause}") from None
        finally:
            try:
                os.close(fd)
            except OSError as exc:
                raise WriteFailed(f"closing {st.events_path}: {why(exc)}") from None
        return size

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
            raise WriteFailed(f"{st.last_path}: {why(exc)}") from None
        except HistoryError as exc:
            raise WriteFailed(exc.message) from None


class WriteFailed(Exception):
    """A write that began and failed: its effect is unknown to the caller."""


class NotWritten(Exception):
    """A write that failed and was undone under the lock: nothing was stored, and the
    partial line is gone (test_write_uncertain.py shows both with a real file-size limit)."""
