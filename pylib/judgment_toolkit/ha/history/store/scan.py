"""The verified scan: one pass over a store that yields its events only as they are checked
(docs/history.md, "Verification on every read and add"), from a trusted index or every line in
full (verify.py). Damage is history_corrupt, raised when the pass meets it; nothing is repaired.
"""
from __future__ import annotations

import fcntl
import hashlib
import os

from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import corrupt, unreadable
from judgment_toolkit.ha.history.store import index, indexread
from judgment_toolkit.ha.history.store.folder import EVENTS, LOCK, why
from judgment_toolkit.ha.history.store.verify import StoredEvent, check_last, parse_last

_sha256 = hashlib.sha256


class Scan:
    """One verified pass over the store; iterate it to the end before trusting any event. Then
    `count`, `head_sha256` (of the last line), `last_behind` (`last` names the event before the
    last one, as after a crash between write and update) and `cached` (from a trusted index)
    are set; with `corrections`, `last_correction` maps a superseded id to its last correction.
    On the full path `sink` (an indexwrite.Writer, add only) gets each event to rebuild the
    index; nothing per event is kept but the request ids checked for uniqueness."""

    def __init__(self, store, dfd: int | None = None, trust_index: bool = True,
                 corrections: bool = False, sink=None, chunks: bool = False):
        self.store = store
        self.chunks = chunks           # from the index, yield byte chunks of its lines
        self.request_id = None         # add: from the index, yield only this request's event
        self._held_dfd = dfd           # set when the caller holds the exclusive lock
        self.trust_index = trust_index
        self.last_correction: dict | None = {} if corrections else None
        self.sink = sink
        self.count = 0
        self.head_sha256 = None
        self.last_behind = False
        self.cached = False
        self.index_state = None        # the checked index state (add appends to it)

    def __iter__(self):
        return self._run()

    def _run(self):
        st = self.store
        if self._held_dfd is not None:
            st._check_temps(self._held_dfd)
            yield from self._verify_fd(self._held_dfd)
            return
        dfd = st._open_dir()
        if dfd is None:
            return
        lfd = None
        try:
            st._check_temps(dfd)
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
                raise unreadable(f"cannot lock {st.lock_path}: {why(exc)}") from None
            yield from self._verify_fd(dfd)
        finally:
            if lfd is not None:
                os.close(lfd)
            os.close(dfd)

    def _read_all(self, dfd):
        fd = self.store._open_file(dfd, EVENTS)
        last = self.store.read_last(dfd)
        if fd is None:
            return None, last
        try:
            with os.fdopen(fd, "rb", closefd=True) as f:
                return f.read(), last
        except OSError as exc:
            raise unreadable(f"cannot read {self.store.events_path}: {why(exc)}") from None

    def _verify_fd(self, dfd):
        fd = self.store._open_file(dfd, EVENTS)
        last_raw = self.store.read_last(dfd)
        if fd is None:
            if self.sink is not None:
                self.sink.start_rebuild()
            yield from self._verify(None, last_raw)
            return
        with os.fdopen(fd, "rb", buffering=0, closefd=True) as f:
            trusted = self._trusted(dfd, fd, last_raw)
            if trusted is not None:
                try:
                    yield from self._from_index(trusted)
                finally:
                    if self.request_id is None:   # add keeps it open (WriteLock closes it)
                        trusted.close()
                return
            if self.sink is not None:
                self.sink.start_rebuild()
            yield from self._verify(_Lines(f, self.store.events_path), last_raw)

    def _trusted(self, dfd, fd, last_raw):
        """The index when this scan may use it and it agrees with the files, else None. Its
        files obey the path rules even when they are not used (history_unreadable)."""
        for name in index.FILES:
            ifd = self.store._open_file(dfd, name)
            if ifd is not None:
                os.close(ifd)
        if not self.trust_index:
            return None
        last = parse_last(last_raw, self.store.last_path)
        try:
            return indexread.check(self.store, dfd, self.store.key, last, os.fstat(fd))
        except (index.Unusable, OSError):
            return None


    def _from_index(self, trusted):
        corrections = self.last_correction
        state = trusted.state
        if self.request_id is not None:     # add: only what it needs, per chunk
            yield from self._for_add(trusted)
            return
        try:
            if self.chunks:
                yield from indexread.chunks(trusted)
            else:
                for ev in indexread.events(trusted, self.store.read_raw):
                    if corrections is not None:
                        for target in ev.supersedes:
                            corrections[f"D{target}"] = f"D{ev.seq}"
                    yield ev
        except (index.Unusable, OSError) as exc:
            raise _index_failed(self.store.index_path, exc) from None
        self.count, self.head_sha256, self.cached = state.count, state.head, True
        self.index_state = trusted

    def _for_add(self, trusted):
        """The event stored under the add's request id (if any), found in the index's lines
        without one object per event; `last_correction` answers through the index's reverse
        links for the ids add asks about."""
        self.index_state = trusted          # WriteLock closes it
        if self.last_correction is not None:
            self.last_correction = _LastCorrection(trusted, self.store.index_path)
        try:
            line = indexread.request_line(trusted, self.request_id)
            if line is not None:
                head = line.split(b" ", 3)
                yield index.decode(line, int(head[1]), int(head[2]), self.store.read_raw)
        except (index.Unusable, OSError, ValueError) as exc:
            raise _index_failed(self.store.index_path, exc) from None
        self.count, self.head_sha256, self.cached = trusted.state.count, trusted.state.head, True

    def _verify(self, lines, last_raw):
        key, path = self.store.key, self.store.events_path
        last = parse_last(last_raw, self.store.last_path)
        prev = before = None
        seq = offset = 0
        request_ids = set()
        corrections, sink = self.last_correction, self.sink
        if lines is not None:
            for raw in lines:
                seq += 1
                if len(raw) > model.LINE_MAX:
                    raise corrupt(f"{path} line {seq} is longer than {model.LINE_MAX} bytes")
                sha = _sha256(raw).hexdigest()
                se = StoredEvent.parse(raw, seq, offset, prev, key, path, sha)
                rid = se.request_id
                if rid in request_ids:
                    raise corrupt(f"{path} line {seq}: request id {rid!r} is used twice")
                request_ids.add(rid)
                if corrections is not None:
                    for target in se.supersedes:
                        corrections[f"D{target}"] = f"D{seq}"
                if sink is not None:
                    sink.add(se)
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


def _index_failed(path: str, exc):
    # the state agreed with the files, so this is not damage of the index: a bug; say so
    return unreadable(f"{path} cannot be read ({exc}); delete it to read the history without it")


class _LastCorrection:
    """Scan.last_correction from a trusted index: "D<a>" -> "D<b>" of the newest event that
    supersedes D<a>, looked up for the ids asked (add asks for those its event supersedes)."""

    def __init__(self, trusted, path: str):
        self._t, self._path = trusted, path

    def get(self, key: str, default=None):
        a = model.event_seq(key)
        if not 1 <= a <= self._t.state.count:
            return default
        try:
            b = self._t.last_correction(a)
        except (index.Unusable, OSError) as exc:
            raise _index_failed(self._path, exc) from None
        return f"D{b}" if b else default


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
                raise unreadable(f"cannot read {self.path}: {why(exc)}") from None
            if not chunk:
                break
            parts = (rest + chunk if rest else chunk).split(b"\n")
            rest = parts.pop()
            n += len(parts)
            if len(rest) > model.LINE_MAX:
                raise corrupt(f"{self.path} line {n + 1} is longer than {model.LINE_MAX} bytes")
            yield from parts
        self.tail = rest
