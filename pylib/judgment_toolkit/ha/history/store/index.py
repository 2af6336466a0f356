"""The store's index: derived facts of verified lines, so a call costs what it reads (issue 12).

Three files in the store folder, written only by `add` holding the exclusive store lock, after
the events and `last` are written; views only read them, holding the shared lock:

    index        one line per event, in seq order, from byte 0:
                 "E <seq> <offset> <length> <sha256> r=<request id> <run seq> <run sha256>
                  t=<targets,...> b=<builds_on seqs,...> s=<supersedes seqs,...>
                  c=<A:P,...>"
                 c= names each event A this one cites (builds_on or supersedes, first
                 appearance order) with P, the event that cited A before it (0: none), so the
                 events citing A form a list from the newest back (reverse links).
    index.slots  16 bytes per event D<n> at (n - 1) * 16, two little-endian uint64: the byte
                 position of D<n>'s line in `index` and the newest event citing D<n> (0: none).
    index.state  one line: "decision-history-index/2 <key> <count> <head sha256>" then the
                 identity (device, inode, size, mtime_ns, ctime_ns) of events.jsonl, index and
                 index.slots, then the sha256 of everything before it on the line.

It is derived data: deleting it changes nothing but speed, and whenever it does not agree with
the files the full verification runs and decides (store.Scan). A reader trusts it only when:

- the state parses, its own sha256 matches (a torn state is never used) and it names this
  store's key;
- `last` names the same event (seq and sha256) as the state;
- events.jsonl, index and index.slots each have the identity the state records;
- the state was written strictly after all three last changed (its mtime is later than every
  recorded ctime; otherwise it is "racy", as git calls it, and is not used).

Why identity is enough to keep the detection promise (seed §4, §9): any write to a file (a
changed byte, a deleted, truncated or appended line) sets its ctime to the current time, and
ctime cannot be set back by a user (utime/touch set mtime and atime only; setting ctime needs
the system clock or raw access to the device, which is outside a local guarantee, seed §12).
A modification after the state was written therefore gets a ctime later than the recorded
one, because the recorded ctime is older than the state itself; the racy rule covers file
systems whose clock is too coarse to tell them apart. This holds for the index files as for
the events file, so no call re-hashes what it does not read: a view reads only the lines it
needs (`Trusted.line`, `Trusted.citers`), and a full pass reads the index once. Lines removed
from the end together with `last` are outside the promise anyway (seed §4).
"""
from __future__ import annotations

import hashlib
import os
import re
import struct
import sys
import time

from judgment_toolkit.ha.history.store.verify import StoredEvent

NAME, SLOTS, STATE = "index", "index.slots", "index.state"
TMP, SLOTS_TMP = "index.tmp", "index.slots.tmp"     # a rebuild, until it is installed
FILES = (NAME, SLOTS, STATE)
FORMAT = b"decision-history-index/2"
CHUNK = 1 << 20
SLOT = struct.Struct("<QQ")          # (line position in index, newest citing event)
_CITER = struct.Struct("<Q")
STATE_MAX = 1024


class Unusable(Exception):
    """The index does not agree with the files (or is not there): use the full verification."""


def identity(st) -> tuple:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


class State:
    __slots__ = ("count", "head", "events", "index", "slots")

    def __init__(self, count, head, events, index, slots):
        self.count, self.head = count, head
        self.events, self.index, self.slots = events, index, slots

    @property
    def length(self) -> int:
        """Bytes of E lines in `index`."""
        return self.index[2]

    def to_bytes(self, key: str) -> bytes:
        text = b" ".join([FORMAT, key.encode(), b"%d" % self.count, self.head.encode(),
                          *(b"%d" % v for v in self.events + self.index + self.slots)])
        return text + b" " + hashlib.sha256(text).hexdigest().encode() + b"\n"

    @classmethod
    def parse(cls, data: bytes, key: str) -> "State":
        text, _, check = data.rstrip(b"\n").rpartition(b" ")
        if not data.endswith(b"\n") or hashlib.sha256(text).hexdigest().encode() != check:
            raise Unusable("no state")
        parts = text.split(b" ")
        if len(parts) != 19 or parts[0] != FORMAT or parts[1] != key.encode() \
                or len(parts[3]) != 64:
            raise Unusable("no state")
        try:
            nums = [int(p) for p in parts[2:3] + parts[4:]]
        except ValueError:
            raise Unusable("bad state") from None
        return cls(nums[0], parts[3].decode("ascii"), tuple(nums[1:6]), tuple(nums[6:11]),
                   tuple(nums[11:16]))


def cited(ev: StoredEvent) -> list:
    """The events `ev` cites (builds_on, then supersedes), each once, in that order."""
    out = []
    for a in ev.builds_on + ev.supersedes:
        if a not in out:
            out.append(a)
    return out


def encode(ev: StoredEvent, links) -> bytes:
    """The E line of `ev`; `links` is [(A, previous citer of A), ...] in `cited` order."""
    rh_seq, rh_sha = ev.run_head
    return b"E %d %d %d %s r=%s %d %s t=%s b=%s s=%s c=%s\n" % (
        ev.seq, ev.offset, ev.length, ev.sha256.encode(), ev.request_id.encode(), rh_seq,
        rh_sha.encode(), ",".join(ev.targets).encode(),
        ",".join(map(str, ev.builds_on)).encode(), ",".join(map(str, ev.supersedes)).encode(),
        ",".join(f"{a}:{p}" for a, p in links).encode())


def ints(field: bytes, tag: bytes) -> tuple:
    """The seqs of a b= or s= field (ValueError when it is not one)."""
    if field[:2] != tag:
        raise ValueError
    body = field[2:]
    return tuple(int(x) for x in body.split(b",")) if body else ()


def links(field: bytes) -> dict:
    """{A: previous citer of A} of a c= field."""
    if field[:2] != b"c=":
        raise ValueError
    body = field[2:]
    return {int(a): int(p) for a, p in (x.split(b":") for x in body.split(b","))} if body else {}


def decode(line: bytes, seq: int, offset: int, reader) -> StoredEvent:
    """One E line (without LF) that must describe event `seq` at byte `offset`."""
    try:
        p = line.split(b" ")
        if len(p) != 12 or p[0] != b"E" or int(p[1]) != seq or int(p[2]) != offset \
                or len(p[4]) != 64 or p[5][:2] != b"r=" or p[8][:2] != b"t=":
            raise ValueError
        targets = tuple(p[8][2:].decode("ascii").split(",")) if len(p[8]) > 2 else ()
        return StoredEvent(seq, offset, int(p[3]), p[4].decode("ascii"),
                           p[5][2:].decode("ascii"), (int(p[6]), p[7].decode("ascii")),
                           targets, ints(p[9], b"b="), ints(p[10], b"s="), reader=reader)
    except (ValueError, UnicodeDecodeError):
        raise Unusable(f"bad line for D{seq}") from None


class Trusted:
    """The open index files of a store whose state agrees with the files (see `check`).
    The caller holds the store lock (shared or exclusive) while it uses them."""

    def __init__(self, state: State, ifd: int, sfd: int):
        self.state, self.ifd, self.sfd = state, ifd, sfd
        self.lock = None            # the store's lock fd when this object holds the lock
        self._lines: dict = {}

    def close(self) -> None:
        for fd in (self.ifd, self.sfd, self.lock):
            if fd is not None:
                os.close(fd)
        self.ifd = self.sfd = self.lock = None

    def slot(self, seq: int) -> tuple:
        """(line position, newest citer) of event `seq` (1..count)."""
        data = os.pread(self.sfd, SLOT.size, (seq - 1) * SLOT.size)
        if not 1 <= seq <= self.state.count or len(data) != SLOT.size:
            raise Unusable(f"no slot for D{seq}")
        return SLOT.unpack(data)

    def line(self, seq: int) -> list:
        """The fields of event `seq`'s E line (checked to name `seq`)."""
        got = self._lines.get(seq)
        if got is None:
            if not 1 <= seq <= self.state.count:
                raise Unusable(f"no slot for D{seq}")
            got = self._lines[seq] = line_at(self.ifd, self.sfd, seq)
        return got

    def citers(self, a: int, end: int) -> list:
        """The events up to `end` that cite `a` (builds_on or supersedes), in store order."""
        out, b, prev = [], self.slot(a)[1], self.state.count + 1
        while b:
            if not a < b < prev:    # newest first, strictly: the walk always ends
                raise Unusable(f"bad citation list of D{a}")
            if b <= end:
                out.append(b)
            try:
                prev, b = b, links(self.line(b)[11])[a]
            except (KeyError, ValueError):
                raise Unusable(f"bad citation list of D{a}") from None
        out.reverse()
        return out

    def last_correction(self, a: int) -> int:
        """The newest event that supersedes `a` (0: none)."""
        for b in reversed(self.citers(a, self.state.count)):
            try:
                if a in ints(self.line(b)[10], b"s="):
                    return b
            except ValueError:
                raise Unusable(f"bad line for D{b}") from None
        return 0


def line_at(ifd: int, sfd: int, seq: int) -> list:
    """The fields of event `seq`'s E line, found through its slot (checked to name `seq`)."""
    data = os.pread(sfd, SLOT.size, (seq - 1) * SLOT.size)
    if seq < 1 or len(data) != SLOT.size:
        raise Unusable(f"no slot for D{seq}")
    pos, size = SLOT.unpack(data)[0], 512
    while True:
        data = os.pread(ifd, size, pos)
        end = data.find(b"\n")
        if end >= 0 or len(data) < size:
            break
        size *= 4
    got = data[:end].split(b" ") if end >= 0 else []
    if len(got) != 12 or got[0] != b"E" or got[1] != b"%d" % seq:
        raise Unusable(f"bad line for D{seq}")
    return got


def check(store, dfd: int, key: str, last, events_st) -> Trusted:
    """The open index of this store if it may be trusted for these files (see the module
    text); Unusable otherwise. The caller closes it."""
    if last is None:
        raise Unusable("no last")
    fds = {}
    try:
        for name in FILES:
            fds[name] = store._open_file(dfd, name)
            if fds[name] is None:
                raise Unusable(f"no {name}")
        sfd = fds[STATE]
        st = State.parse(os.pread(sfd, STATE_MAX, 0), key)
        if (st.count, st.head) != tuple(last):
            raise Unusable("last disagrees")
        if st.events != identity(events_st) or st.index != identity(os.fstat(fds[NAME])) \
                or st.slots != identity(os.fstat(fds[SLOTS])):
            raise Unusable("files changed")
        if os.fstat(sfd).st_mtime_ns <= max(st.events[4], st.index[4], st.slots[4]):
            raise Unusable("racy")
        if st.slots[2] != st.count * SLOT.size:
            raise Unusable("slots")
        trusted = Trusted(st, fds.pop(NAME), fds.pop(SLOTS))
        return trusted
    except OSError as exc:
        raise Unusable(str(exc)) from None
    finally:
        for fd in fds.values():
            if fd is not None:
                os.close(fd)


def chunks(t: Trusted):
    """The E lines of a trusted index as byte chunks of whole lines (each ends with LF), for
    readers that take their facts with regular expressions instead of one object per event
    (facts.collect)."""
    pos, rest, length = 0, b"", t.state.length
    while pos < length:
        chunk = os.pread(t.ifd, min(CHUNK, length - pos), pos)
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


def request_line(t: "Trusted", request_id: str):
    """The E line (without LF) of the event stored under `request_id`, or None: one bytes.find
    per chunk of index lines (request ids hold no space, so the field cannot match elsewhere)."""
    needle = b" r=" + request_id.encode() + b" "
    for chunk in chunks(t):
        k = chunk.find(needle)
        if k >= 0:
            return chunk[chunk.rfind(b"\n", 0, k) + 1:chunk.index(b"\n", k)]
    return None


_SUPERSEDES = re.compile(rb" s=([0-9][0-9,]*) c=")   # only corrections match


def corrections(data: bytes):
    """(B, (A, ...)) of every correction line in a chunk of E lines, in order."""
    for m in _SUPERSEDES.finditer(data):
        start = data.rfind(b"\n", 0, m.start()) + 1
        yield int(data[start + 2:data.index(b" ", start + 2)]), \
            tuple(int(a) for a in m.group(1).split(b","))


def events(t: Trusted, reader):
    """The StoredEvents the index holds, D1..D<count>, checked for order and offsets."""
    seq, offset = 0, 0
    for chunk in chunks(t):
        for line in chunk[:-1].split(b"\n"):
            seq += 1
            ev = decode(line, seq, offset, reader)
            offset += ev.length + 1
            yield ev
    if seq != t.state.count or offset != t.state.events[2]:
        raise Unusable("count")


class Writer:
    """Keeps the index of one add: append to a trusted one, or rebuild it from a full scan.
    A rebuild is written into temp files and installed only at commit, so a refused add
    leaves the files as they were. Every step that can fail leaves a state that no longer
    agrees with the files (the state is written last), so the next call does not trust it."""

    def __init__(self, store, dfd: int):
        self.store, self.dfd = store, dfd
        self._ifd = None            # rebuild: index.tmp being written
        self.lines: list = []
        self._pos = 0
        self._slots = None          # rebuild: array of (position, newest citer) pairs

    def _open(self, name: str) -> int:
        fd = self.store._open_file(self.dfd, name, os.O_RDWR | os.O_CREAT)
        if fd is None:
            raise Unusable(f"cannot create {name}")
        return fd

    def _new_tmp(self, name: str) -> int:
        if self.store._check_tmp(self.dfd, name):
            os.unlink(name, dir_fd=self.dfd)
        return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                       0o666, dir_fd=self.dfd)

    def _drop_state(self) -> None:
        try:
            os.unlink(STATE, dir_fd=self.dfd)
        except FileNotFoundError:
            pass

    def start_rebuild(self) -> None:
        from array import array
        try:
            self._ifd = self._new_tmp(TMP)
        except OSError:
            self._ifd = None
            return
        self.lines, self._pos, self._slots = [], 0, array("Q")

    def add(self, ev: StoredEvent) -> None:
        """A verified event of the rebuild scan (in seq order)."""
        if self._ifd is None:
            return
        slots = self._slots
        pairs = []
        for a in cited(ev):
            pairs.append((a, slots[2 * a - 1]))
            slots[2 * a - 1] = ev.seq
        line = encode(ev, pairs)
        slots.extend((self._pos, 0))
        self._pos += len(line)
        self.lines.append(line)
        if len(self.lines) >= 4096:
            self._flush()

    def _flush(self) -> None:
        if self._ifd is not None and self.lines:
            data = b"".join(self.lines)
            try:
                _write_all(self._ifd, data, self._pos - len(data))
            except OSError:
                self.abandon()
        self.lines = []

    def abandon(self) -> None:
        if self._ifd is not None:
            os.close(self._ifd)
            self._ifd = None
            self._slots = None
            for name in (TMP, SLOTS_TMP):
                try:
                    os.unlink(name, dir_fd=self.dfd)
                except OSError:
                    pass

    def commit(self, new: StoredEvent, cached) -> None:
        """After the new event and `last` are stored: record it. `cached` is the Trusted
        index the scan used (append to it), or falsy (install the rebuilt one). Never
        raises: the index is derived data, and any failure leaves an index that the next
        call will not trust."""
        try:
            if cached:
                self._append(new, cached)
            elif self._ifd is not None:
                self._install(new)
        except (OSError, Unusable):
            self.abandon()
            try:
                self._drop_state()
            except OSError:
                pass

    def _install(self, new: StoredEvent) -> None:
        self.add(new)
        self._flush()
        if self._ifd is None:
            return
        sfd = self._new_tmp(SLOTS_TMP)
        try:
            slots = self._slots
            if sys.byteorder != "little":
                slots = slots.__copy__()
                slots.byteswap()
            _write_all(sfd, slots.tobytes(), 0)
            self._drop_state()
            os.rename(TMP, NAME, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
            os.rename(SLOTS_TMP, SLOTS, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
            self._seal(new, self._ifd, sfd)
        finally:
            os.close(sfd)
        os.close(self._ifd)
        self._ifd = self._slots = None

    def _append(self, new: StoredEvent, trusted: Trusted) -> None:
        ifd, sfd = self._open(NAME), self._open(SLOTS)
        try:
            if (identity(os.fstat(ifd)), identity(os.fstat(sfd))) != \
                    (trusted.state.index, trusted.state.slots):
                raise Unusable("changed under the lock")
            pairs = []
            for a in cited(new):
                data = os.pread(sfd, _CITER.size, (a - 1) * SLOT.size + 8)
                if len(data) != _CITER.size:
                    raise Unusable("short slots")
                pairs.append((a, _CITER.unpack(data)[0]))
            pos = trusted.state.length
            _write_all(ifd, encode(new, pairs), pos)
            _write_all(sfd, SLOT.pack(pos, 0), (new.seq - 1) * SLOT.size)
            for a, _ in pairs:
                _write_all(sfd, _CITER.pack(new.seq), (a - 1) * SLOT.size + 8)
            self._seal(new, ifd, sfd)
        finally:
            os.close(ifd)
            os.close(sfd)

    def _seal(self, new: StoredEvent, ifd: int, sfd: int) -> None:
        """Write the state naming the files as they are now."""
        efd = self.store._open_file(self.dfd, "events.jsonl")
        try:
            ev_id = identity(os.fstat(efd))
        finally:
            os.close(efd)
        state = State(new.seq, new.sha256, ev_id, identity(os.fstat(ifd)),
                      identity(os.fstat(sfd)))
        newest = max(state.events[4], state.index[4], state.slots[4])
        data = state.to_bytes(self.store.key)
        fd = self._open(STATE)
        try:
            _write_all(fd, data, 0)
            os.ftruncate(fd, len(data))
            for _ in range(3):  # not racy: the state must be newer than every recorded ctime
                if os.fstat(fd).st_mtime_ns > newest:
                    return
                time.sleep(0.005)
                os.utime(fd)
            raise Unusable("the clock did not move")
        finally:
            os.close(fd)


def _write_all(fd: int, data: bytes, pos: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, pos)
        if n <= 0:
            raise OSError("short write")
        view, pos = view[n:], pos + n
