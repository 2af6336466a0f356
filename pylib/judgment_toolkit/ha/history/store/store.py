"""The decision-history store <git-common-dir>/ha/history/<start-sha256>/ and every read of it.

Reads create nothing; when the lock file exists they hold a shared flock on it, so a read that
overlaps an add sees the history before or after it. Every read and add verifies first
(scan.py). Damage is history_corrupt and is never repaired or truncated; the one cut is the
writer undoing its own failed line under the lock (writer.py; docs/history.md, "Failed writes").
"""
from __future__ import annotations

import fcntl
import json
import os

from judgment_toolkit.ha.history.errors import HistoryError, corrupt, unreadable
from judgment_toolkit.ha.history.store import index, indexread
from judgment_toolkit.ha.history.store.folder import EVENTS, LOCK, LAST, Folder, why
from judgment_toolkit.ha.history.store.scan import Scan
from judgment_toolkit.ha.history.store.verify import parse_last


def locate(repo, start_sha: str) -> "Store":
    return Store(repo.common_dir, start_sha)


class Store(Folder):
    def __init__(self, common_dir: str, key: str):
        super().__init__(common_dir, key)
        self._index_files = None        # index_line: (index, index.slots), closed with self
        self._events_file = None        # read_raw / read_lines: events.jsonl, closed with self

    def exists(self) -> bool:
        """True when events.jsonl or `last` exists (a `last` without events is a damaged
        history, which scan reports); every component is checked on the way."""
        dfd = self._open_dir()
        if dfd is None:
            return False
        try:
            self._check_temps(dfd)
            found = False
            for name in (LOCK, *index.FILES, LAST, EVENTS):
                fd = self._open_file(dfd, name)
                if fd is not None:
                    os.close(fd)
                    found = found or name in (LAST, EVENTS)
            return found
        finally:
            os.close(dfd)

    def scan(self, trust_index: bool = True, chunks: bool = False,
             full: bool = False) -> "Scan":
        """Iterate verified events in seq order (see Scan); with `chunks`, a trusted index is
        handed out as byte chunks of its E lines (bytes items) instead of StoredEvents.
        `full` (`ha history <goal> verify`) trusts no index: every line checked in full."""
        return Scan(self, trust_index=trust_index and not full, chunks=chunks)

    def verify(self) -> "Scan":
        """Full verification from scratch, trusting no index: every line parsed and checked
        strictly, the hash chain, seq, relations and `last` (what add checks when it writes).
        Raises HistoryError (history_corrupt, history_unsupported, history_unreadable);
        returns the finished Scan (count, head_sha256, last_behind). Creates nothing."""
        scan = Scan(self, trust_index=False)
        for _ in scan:
            pass
        return scan

    def read_at(self, offset: int, length: int) -> dict:
        """Re-read one stored event located by a previous scan (length without the LF)."""
        try:
            return json.loads(self.read_raw(offset, length))
        except ValueError:
            raise corrupt(f"{self.events_path}: no event line at byte {offset}") from None

    def index_line(self, seq: int) -> list:
        """The fields of event `seq`'s line in the index, found through index.slots, for a
        view whose facts a trusted index gave (the events line read with them is checked to
        be event `seq`). The two files stay open for the next call (a graph asks for every
        event); seqs never move in them, an add only appends."""
        if self._index_files is None:
            self._index_files = self._keep((index.NAME, index.SLOTS), self.index_path)
        try:
            return indexread.line_at(*(f.fileno() for f in self._index_files), seq)
        except (index.Unusable, OSError):
            raise corrupt(f"{self.index_path} changed while it was read (no D{seq})") from None

    def close(self) -> None:
        """Close the index files index_line keeps open (a Store can be used again)."""
        for f in (*(self._index_files or ()), self._events_file):
            if f is not None:
                f.close()
        self._index_files = self._events_file = None

    def _open_events(self) -> int:
        """A safe read fd on events.jsonl, kept open for the next read of this Store (a view
        reads its page's events, a graph every event; the file is only appended to);
        history_corrupt when it has disappeared."""
        if self._events_file is None:
            self._events_file, = self._keep((EVENTS,), self.events_path)
        return self._events_file.fileno()

    def _keep(self, names, shown) -> list:
        """Unbuffered files of the store folder, opened under the path rules, kept open by
        this Store; history_corrupt when one has disappeared."""
        dfd = self._open_dir()
        if dfd is None:
            raise corrupt(f"{shown} disappeared while it was read")
        try:
            fds = [self._open_file(dfd, name) for name in names]
        finally:
            os.close(dfd)
        files = [os.fdopen(fd, "rb", buffering=0) for fd in fds if fd is not None]
        if len(files) != len(names):
            for f in files:
                f.close()
            raise corrupt(f"{shown} disappeared while it was read")
        return files

    def read_lines(self, offset: int, count: int) -> list:
        """`count` whole lines (without LF) from byte `offset` of events.jsonl."""
        fd = self._open_events()
        lines, rest = [], b""
        try:
            with os.fdopen(fd, "rb", buffering=0, closefd=False) as f:
                f.seek(offset)
                while len(lines) < count:
                    chunk = f.read(1 << 16)
                    if not chunk:
                        break
                    parts = (rest + chunk).split(b"\n")
                    rest = parts.pop()
                    lines.extend(parts)
        except OSError as exc:
            raise unreadable(f"cannot read {self.events_path}: {why(exc)}") from None
        if len(lines) < count:
            raise corrupt(f"{self.events_path} changed: no event line at byte {offset}")
        return lines[:count]

    def read_block(self, offset: int, length: int) -> bytes:
        """`length` bytes of events.jsonl from `offset` (whole lines a trusted index located);
        history_corrupt when the file is shorter."""
        fd = self._open_events()
        parts, pos, left = [], offset, length
        try:
            while left:
                chunk = os.pread(fd, left, pos)
                if not chunk:
                    break
                parts.append(chunk)
                pos += len(chunk)
                left -= len(chunk)
        except OSError as exc:
            raise unreadable(f"cannot read {self.events_path}: {why(exc)}") from None
        if left:
            raise corrupt(f"{self.events_path} changed: no event lines at byte {offset}")
        return b"".join(parts)

    def read_raw(self, offset: int, length: int) -> bytes:
        """The raw bytes (without LF) of the line at `offset` of `length` bytes."""
        fd = self._open_events()
        try:
            raw = os.pread(fd, length + 1, offset)
        except OSError as exc:
            raise unreadable(f"cannot read {self.events_path}: {why(exc)}") from None
        if len(raw) != length + 1 or not raw.endswith(b"\n"):
            raise corrupt(f"{self.events_path} changed: no event line at byte {offset}")
        return raw[:-1]

    def open_index(self):
        """The trusted index of this store, read under the shared lock, for a view that
        reads a few events by seq (pointfacts); None when there is none or it does not agree
        with the files (the caller takes the full pass, which decides). The caller closes
        the result, which releases the lock."""
        dfd = self._open_dir()
        if dfd is None:
            return None
        lfd = fd = None
        try:
            self._check_temps(dfd)
            lfd = self._open_file(dfd, LOCK)
            if lfd is None:
                return None
            try:
                fcntl.flock(lfd, fcntl.LOCK_SH)
            except OSError as exc:
                raise unreadable(f"cannot lock {self.lock_path}: {why(exc)}") from None
            fd = self._open_file(dfd, EVENTS)
            if fd is None:
                return None
            try:
                last = parse_last(self.read_last(dfd), self.last_path)
                trusted = indexread.check(self, dfd, self.key, last, os.fstat(fd))
            except (HistoryError, index.Unusable, OSError):
                return None
            trusted.lock, lfd = lfd, None
            return trusted
        finally:
            for f in (fd, lfd, dfd):
                if f is not None:
                    os.close(f)

    # -- writes ------------------------------------------------------------------------
    def write_lock(self):
        from judgment_toolkit.ha.history.store.writer import WriteLock  # add only: views never
        return WriteLock(self)                                          # load the writer
