"""The store's index: derived facts of verified lines, so a call costs what changed (issue 12).

`<store>/index` is written only by `add`, holding the exclusive store lock, and only after the
events and `last` are written; views only read it. It is derived data: deleting it changes
nothing but speed, and whenever it does not agree with the files the full verification runs
and decides (store.Scan). Layout:

    bytes 0..511   state: "decision-history-index/1 <key> <count> <head sha256> <dev> <ino>
                   <size> <mtime_ns> <ctime_ns> <length> <digest>", space-padded, LF at 511
    bytes 512..    one line per event, in seq order:
                   "E <seq> <offset> <length> <sha256> r=<request id> <run seq> <run sha256>
                    t=<targets,...> b=<builds_on seqs,...> s=<supersedes seqs,...>"

`digest` is the sha256 of bytes 512..length, so a torn or edited index is never used. The
state names the events file's identity (device, inode, size, mtime and ctime in ns) and the
event `last` names. A reader trusts the index only when all of these hold:

- the state parses, names this store's key and its digest matches the index bytes;
- `last` names the same event (seq and sha256) as the state;
- the events file has the same device, inode, size, mtime and ctime;
- the index was written strictly after the events file last changed (its mtime is later than
  the recorded ctime; otherwise it is "racy", as git calls it, and is not used).

Why identity is enough to keep the detection promise (seed §4, §9): any write to the events
file (a changed byte, a deleted, truncated or appended line) sets its ctime to the current
time, and ctime cannot be set back by a user (utime/touch set mtime and atime only; setting
ctime needs the system clock or raw access to the device, which is outside a local
guarantee, seed §12). A modification after the index was written therefore gets a ctime
later than the one recorded, because the recorded ctime is older than the index itself; the
racy rule covers file systems whose clock is too coarse to tell them apart. Lines removed from
the end together with `last` are outside the promise anyway (seed §4).
"""
from __future__ import annotations

import hashlib
import os
import re
import time

from .verify import StoredEvent

NAME, TMP = "index", "index.tmp"
FORMAT = b"decision-history-index/1"
HEAD = 512          # bytes of the state block at the start
CHUNK = 1 << 20


class Unusable(Exception):
    """The index does not agree with the files (or is not there): use the full verification."""


class State:
    __slots__ = ("count", "head", "ident", "length", "digest", "hasher")

    def __init__(self, count, head, ident, length, digest):
        self.count, self.head, self.ident = count, head, ident
        self.length, self.digest = length, digest
        self.hasher = None      # sha256 over bytes HEAD..length once checked (add extends it)


def identity(st) -> tuple:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _state_bytes(key: str, st: State) -> bytes:
    text = b" ".join([FORMAT, key.encode(), b"%d" % st.count, st.head.encode(),
                      *(b"%d" % v for v in st.ident), b"%d" % st.length, st.digest.encode()])
    if len(text) > HEAD - 1:
        raise Unusable("state too long")
    return text.ljust(HEAD - 1) + b"\n"


def read_state(fd: int, key: str) -> State:
    try:
        block = os.pread(fd, HEAD, 0)
    except OSError:
        raise Unusable("unreadable") from None
    parts = block.split()
    if len(block) != HEAD or not block.endswith(b"\n") or len(parts) != 11 \
            or parts[0] != FORMAT or parts[1] != key.encode():
        raise Unusable("no state")
    try:
        nums = [int(p) for p in parts[2:3] + parts[4:10]]
    except ValueError:
        raise Unusable("bad state") from None
    head, digest = parts[3].decode("ascii", "replace"), parts[10].decode("ascii", "replace")
    if len(head) != 64 or len(digest) != 64 or nums[-1] < HEAD:
        raise Unusable("bad state")
    return State(nums[0], head, tuple(nums[1:6]), nums[6], digest)


def encode(ev: StoredEvent) -> bytes:
    rh_seq, rh_sha = ev.run_head
    return b"E %d %d %d %s r=%s %d %s t=%s b=%s s=%s\n" % (
        ev.seq, ev.offset, ev.length, ev.sha256.encode(), ev.request_id.encode(), rh_seq,
        rh_sha.encode(), ",".join(ev.targets).encode(),
        ",".join(map(str, ev.builds_on)).encode(), ",".join(map(str, ev.supersedes)).encode())


def _ints(field: bytes, tag: bytes) -> tuple:
    if field[:2] != tag:
        raise ValueError
    body = field[2:]
    return tuple(int(x) for x in body.split(b",")) if body else ()


def decode(line: bytes, seq: int, offset: int, reader) -> StoredEvent:
    """One E line (without LF) that must describe event `seq` at byte `offset`."""
    try:
        p = line.split(b" ")
        if len(p) != 11 or p[0] != b"E" or int(p[1]) != seq or int(p[2]) != offset \
                or len(p[4]) != 64 or p[5][:2] != b"r=" or p[8][:2] != b"t=":
            raise ValueError
        targets = tuple(p[8][2:].decode("ascii").split(",")) if len(p[8]) > 2 else ()
        return StoredEvent(seq, offset, int(p[3]), p[4].decode("ascii"),
                           p[5][2:].decode("ascii"), (int(p[6]), p[7].decode("ascii")),
                           targets, _ints(p[9], b"b="), _ints(p[10], b"s="), reader=reader)
    except (ValueError, UnicodeDecodeError):
        raise Unusable(f"bad line for D{seq}") from None


def _hasher(fd: int, length: int):
    h, pos = hashlib.sha256(), HEAD
    while pos < length:
        chunk = os.pread(fd, min(CHUNK, length - pos), pos)
        if not chunk:
            raise Unusable("short")
        h.update(chunk)
        pos += len(chunk)
    return h


def check(fd: int, key: str, last, events_st) -> State:
    """The state of an index that may be trusted for these files (see the module text);
    Unusable otherwise."""
    st = read_state(fd, key)
    own = os.fstat(fd)
    if last is None or (st.count, st.head) != tuple(last):
        raise Unusable("last disagrees")
    if st.ident != identity(events_st):
        raise Unusable("events file changed")
    if own.st_mtime_ns <= st.ident[4]:
        raise Unusable("racy")
    if own.st_size < st.length:
        raise Unusable("digest")
    st.hasher = _hasher(fd, st.length)
    if st.hasher.hexdigest() != st.digest:
        raise Unusable("digest")
    return st


def chunks(fd: int, st: State):
    """The E lines of a checked index as byte chunks of whole lines (each ends with LF), for
    readers that take their facts with regular expressions instead of one object per event
    (facts.collect). The digest was checked, so the lines are the ones add wrote."""
    pos, rest = HEAD, b""
    while pos < st.length:
        chunk = os.pread(fd, min(CHUNK, st.length - pos), pos)
        if not chunk:
            raise Unusable("short")
        pos += len(chunk)
        data = rest + chunk
        cut = data.rfind(b"\n") + 1
        rest = data[cut:]
        if cut:
            yield data[:cut]
    if rest:
        raise Unusable("torn line")


_SUPERSEDES = re.compile(rb" s=([0-9][0-9,]*)\n")   # the last field: only corrections match


def corrections(data: bytes):
    """(B, (A, ...)) of every correction line in a chunk of E lines, in order."""
    for m in _SUPERSEDES.finditer(data):
        start = data.rfind(b"\n", 0, m.start()) + 1
        yield int(data[start + 2:data.index(b" ", start + 2)]), \
            tuple(int(a) for a in m.group(1).split(b","))


def events(fd: int, st: State, reader):
    """The StoredEvents the index holds, D1..D<count>, checked for order and offsets."""
    pos, rest, seq, offset = HEAD, b"", 0, 0
    while pos < st.length:
        chunk = os.pread(fd, min(CHUNK, st.length - pos), pos)
        if not chunk:
            raise Unusable("short")
        pos += len(chunk)
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for line in lines:
            seq += 1
            ev = decode(line, seq, offset, reader)
            offset += ev.length + 1
            yield ev
    if rest or seq != st.count or offset != st.ident[2]:
        raise Unusable("count")


class Writer:
    """Keeps the index of one add: append to a trusted one, or rebuild it from a full scan."""

    def __init__(self, store, dfd: int):
        self.store, self.dfd = store, dfd
        self.lines: list | None = None      # rebuild: encoded lines (in a temp file)
        self._tmp = None

    def start_rebuild(self) -> None:
        self._tmp = self._open_tmp()
        self.lines = []

    def _open_tmp(self):
        try:
            if self.store._check_tmp(self.dfd, TMP):
                os.unlink(TMP, dir_fd=self.dfd)
            fd = os.open(TMP, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                         0o666, dir_fd=self.dfd)
            os.pwrite(fd, b" " * (HEAD - 1) + b"\n", 0)
            return fd
        except OSError:
            return None

    def add(self, ev: StoredEvent) -> None:
        """A verified event of the rebuild scan (in seq order)."""
        if self._tmp is None:
            return
        self.lines.append(encode(ev))
        if len(self.lines) >= 4096:
            self._flush()

    def _flush(self) -> None:
        if self._tmp is not None and self.lines:
            try:
                os.lseek(self._tmp, 0, os.SEEK_END)
                os.write(self._tmp, b"".join(self.lines))
            except OSError:
                self.abandon()
        if self.lines is not None:
            self.lines = []

    def abandon(self) -> None:
        if self._tmp is not None:
            os.close(self._tmp)
            self._tmp = None
            try:
                os.unlink(TMP, dir_fd=self.dfd)
            except OSError:
                pass

    def commit(self, new: StoredEvent, cached) -> None:
        """After the new event and `last` are stored: record it. `cached` is the checked
        State of the index the scan used (append to it), or falsy (install the rebuilt one).
        Never raises: the index is derived data, and any failure leaves an index that the
        next call will not trust."""
        try:
            if cached:
                self._append(new, cached if isinstance(cached, State) else None)
            elif self._tmp is not None:
                self.add(new)
                self._flush()
                if self._tmp is not None:
                    self._seal(self._tmp, new)
                    os.rename(TMP, NAME, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
                    os.close(self._tmp)
                    self._tmp = None
        except (OSError, Unusable):
            self.abandon()
            try:
                os.unlink(NAME, dir_fd=self.dfd)
            except OSError:
                pass

    def _append(self, new: StoredEvent, checked) -> None:
        fd = self.store._open_file(self.dfd, NAME, os.O_RDWR)
        if fd is None:
            raise Unusable("gone")
        try:
            st = read_state(fd, self.store.key)
            line = encode(new)
            if os.pwrite(fd, line, st.length) != len(line):
                raise Unusable("short write")
            os.ftruncate(fd, st.length + len(line))
            hasher = None
            if checked is not None and checked.hasher is not None \
                    and (checked.length, checked.digest) == (st.length, st.digest):
                hasher = checked.hasher.copy()   # the checked bytes, then the new line
                hasher.update(line)
            self._seal(fd, new, hasher)
        finally:
            os.close(fd)

    def _seal(self, fd: int, new: StoredEvent, hasher=None) -> None:
        """Write the state block for the index content now in `fd` and the events file."""
        length = os.fstat(fd).st_size
        efd = self.store._open_file(self.dfd, "events.jsonl")
        try:
            ident = identity(os.fstat(efd))
        finally:
            os.close(efd)
        if hasher is None:
            hasher = _hasher(fd, length)
        state = State(new.seq, new.sha256, ident, length, hasher.hexdigest())
        os.pwrite(fd, _state_bytes(self.store.key, state), 0)
        for _ in range(3):  # not racy: the index must be newer than the events file's ctime
            if os.fstat(fd).st_mtime_ns > ident[4]:
                return
            time.sleep(0.005)
            os.utime(fd)
