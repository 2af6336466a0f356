"""The decision-history store: <git-common-dir>/ha/history/<start-sha256>/{events.jsonl,last,lock,
index, index.slots, index.state}.

Every path component is opened relative to its parent's fd without following symlinks and
checked with fstat/lstat: a symlink, a non-regular file or folder, or a file with more than
one link anywhere in the store path is history_unreadable, for reads and writes alike.
Reads never create anything; when the lock file exists they hold a shared flock on it so a
read that overlaps an add sees the history before or after it. Every read and every add
verifies the store first: from the index (index.py) when it agrees with `last` and the events
file's identity, else in full (verify.py: every line strictly, seq, prev hashes, relations,
line size, `last`); damage is history_corrupt and nothing is ever repaired or truncated.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import stat

from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import HistoryError, corrupt, unreadable
from judgment_toolkit.ha import safefs
from judgment_toolkit.ha.history.store import index
from judgment_toolkit.ha.history.store.verify import StoredEvent, check_last, parse_last

EVENTS, LAST, LOCK, TMP = "events.jsonl", "last", "lock", "last.tmp"
TEMPS = (TMP, index.TMP, index.SLOTS_TMP)
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
        self.index_path = os.path.join(self.dir, index.NAME)
        self._index_files = None        # index_line: (index, index.slots), closed with self
        self._events_file = None        # read_raw / read_lines: events.jsonl, closed with self

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
                    nfd = safefs.open_dir(part, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        return None
                    try:
                        os.mkdir(part, 0o777, dir_fd=fd)
                        os.fsync(fd)  # the new folder's entry must survive a crash
                    except FileExistsError:
                        pass
                    nfd = safefs.open_dir(part, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise unreadable(f"{shown} is a symlink or not a folder") from None
                raise unreadable(f"cannot open {shown}: {_why(exc)}") from None
            finally:
                os.close(fd)
            fd = nfd
        return fd

    def _open_file(self, dfd: int, name: str, flags: int = os.O_RDONLY, mode: int = 0o666):
        """fd of a regular single-link file in the store folder, or None when missing."""
        try:
            return safefs.open_file(name, flags, mode, dir_fd=dfd, single_link=True)
        except safefs.FsError as exc:
            shown = os.path.join(self.dir, name)
            if exc.state == "missing" and not exc.detail:
                return None
            if exc.state == "not_regular":
                if "links" in exc.detail:
                    raise unreadable(f"{shown} has {exc.detail}") from None
                raise unreadable(f"{shown} is a symlink or not a regular file") from None
            raise unreadable(f"cannot open {shown}: {exc.detail}") from None

    def _check_tmp(self, dfd: int, name: str = TMP) -> bool:
        """A temp file may only be absent or a regular single-link file (True if present)."""
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise unreadable(f"cannot inspect {os.path.join(self.dir, name)}: {_why(exc)}"
                             ) from None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            raise unreadable(f"{os.path.join(self.dir, name)} is a symlink, not a regular file "
                             "or has links")
        return True

    def _check_temps(self, dfd: int) -> None:
        for name in TEMPS:
            self._check_tmp(dfd, name)

    # -- reads -------------------------------------------------------------------------
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
            dfd = self._open_dir()
            if dfd is None:
                raise corrupt(f"{self.events_path} disappeared")
            try:
                fds = [self._open_file(dfd, name) for name in (index.NAME, index.SLOTS)]
            finally:
                os.close(dfd)
            files = [os.fdopen(fd, "rb", buffering=0) for fd in fds if fd is not None]
            if len(files) != 2:
                for f in files:
                    f.close()
                raise corrupt(f"{self.index_path} disappeared while it was read")
            self._index_files = files
        try:
            return index.line_at(*(f.fileno() for f in self._index_files), seq)
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
            dfd = self._open_dir()
            if dfd is None:
                raise corrupt(f"{self.events_path} disappeared")
            try:
                fd = self._open_file(dfd, EVENTS)
            finally:
                os.close(dfd)
            if fd is None:
                raise corrupt(f"{self.events_path} disappeared")
            self._events_file = os.fdopen(fd, "rb", buffering=0)
        return self._events_file.fileno()

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
            raise unreadable(f"cannot read {self.events_path}: {_why(exc)}") from None
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
            raise unreadable(f"cannot read {self.events_path}: {_why(exc)}") from None
        if left:
            raise corrupt(f"{self.events_path} changed: no event lines at byte {offset}")
        return b"".join(parts)

    def read_raw(self, offset: int, length: int) -> bytes:
        """The raw bytes (without LF) of the line at `offset` of `length` bytes."""
        fd = self._open_events()
        try:
            raw = os.pread(fd, length + 1, offset)
        except OSError as exc:
            raise unreadable(f"cannot read {self.events_path}: {_why(exc)}") from None
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
                raise unreadable(f"cannot lock {self.lock_path}: {_why(exc)}") from None
            fd = self._open_file(dfd, EVENTS)
            if fd is None:
                return None
            try:
                last = parse_last(_read_last(self, dfd), self.last_path)
                trusted = index.check(self, dfd, self.key, last, os.fstat(fd))
            except (HistoryError, index.Unusable, OSError):
                return None
            trusted.lock, lfd = lfd, None
            return trusted
        finally:
            for f in (fd, lfd, dfd):
                if f is not None:
                    os.close(f)

    # -- writes ------------------------------------------------------------------------
    def write_lock(self) -> "WriteLock":
        return WriteLock(self)


def _read_last(store: Store, dfd: int):
    """The bytes of `last` (None when it does not exist)."""
    fd = store._open_file(dfd, LAST)
    if fd is None:
        return None
    try:
        return os.read(fd, model.LAST_MAX + 1)
    except OSError as exc:
        raise unreadable(f"cannot read {store.last_path}: {_why(exc)}") from None
    finally:
        os.close(fd)


class Scan:
    """One verified pass over the store. Iterate it to the end before trusting any event;
    afterwards `count`, `head_sha256` (of the last line), `last_behind` (the `last` file
    names the event before the last one, as after a crash between write and update) and
    `cached` (the events came from a trusted index) are set. With `corrections`, the scan
    also fills `last_correction`: superseded id -> id of its last correction (add uses it).

    Events come from the index (index.py) when it agrees with the files; otherwise every line
    is verified in full, and `sink` (an index.Writer, add only) receives each verified event
    to rebuild the index. A scan keeps nothing per event it hands out except, on the full
    path, the request ids it must check for uniqueness.
    """

    def __init__(self, store: Store, dfd: int | None = None, trust_index: bool = True,
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
                raise unreadable(f"cannot lock {st.lock_path}: {_why(exc)}") from None
            yield from self._verify_fd(dfd)
        finally:
            if lfd is not None:
                os.close(lfd)
            os.close(dfd)

    def _read_last(self, dfd):
        return _read_last(self.store, dfd)

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
        last_raw = self._read_last(dfd)
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
            return index.check(self.store, dfd, self.store.key, last, os.fstat(fd))
        except (index.Unusable, OSError):
            return None

    def _index_failed(self, exc):
        # the state agreed with the files, so this is not damage of the index: a bug; say so
        return unreadable(f"{self.store.index_path} cannot be read ({exc}); delete it "
                          "to read the history without it")

    def _from_index(self, trusted):
        corrections = self.last_correction
        state = trusted.state
        if self.request_id is not None:     # add: only what it needs, per chunk
            yield from self._for_add(trusted)
            return
        try:
            if self.chunks:
                yield from index.chunks(trusted)
            else:
                for ev in index.events(trusted, self.store.read_raw):
                    if corrections is not None:
                        for target in ev.supersedes:
                            corrections[f"D{target}"] = f"D{ev.seq}"
                    yield ev
        except (index.Unusable, OSError) as exc:
            raise self._index_failed(exc) from None
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
            line = index.request_line(trusted, self.request_id)
            if line is not None:
                head = line.split(b" ", 3)
                yield index.decode(line, int(head[1]), int(head[2]), self.store.read_raw)
        except (index.Unusable, OSError, ValueError) as exc:
            raise self._index_failed(exc) from None
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
            raise unreadable(f"{self._path} cannot be read ({exc}); delete it to read the "
                             "history without it") from None
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
            raise unreadable(f"cannot lock {st.lock_path}: {_why(exc)}") from None
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
        self.index = index.Writer(self.store, self.dfd)
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

        OSError before the write means nothing was written (history_unreadable for the
        caller). A write or fsync that fails is undone while the lock is still held: the
        file is cut back to its previous length and fsynced, and NotWritten says that
        nothing was stored. When that undo fails too, or closing fails after the line was
        written, the effect is unknown: WriteFailed.
        """
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
            raise unreadable(f"cannot inspect {st.events_path}: {_why(exc)}") from None
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
                why = _why(exc)
                try:
                    os.ftruncate(fd, size)
                    os.fsync(fd)
                except OSError as undo:
                    raise WriteFailed(f"{st.events_path}: {why}; cutting it back to {size} "
                                      f"bytes failed: {_why(undo)}") from None
                raise NotWritten(f"{st.events_path}: {why}") from None
        finally:
            try:
                os.close(fd)
            except OSError as exc:
                raise WriteFailed(f"closing {st.events_path}: {_why(exc)}") from None
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
            raise WriteFailed(f"{st.last_path}: {_why(exc)}") from None
        except HistoryError as exc:
            raise WriteFailed(exc.message) from None


class WriteFailed(Exception):
    """A write that began and failed: its effect is unknown to the caller."""


class NotWritten(Exception):
    """A write that failed and was undone under the lock: nothing was stored."""
