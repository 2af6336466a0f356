"""Reading a trusted index (index.py has the format); when it does not agree with the events
file the full verification runs and decides (scan.Scan). `check` trusts it only when the state
is whole (its own sha256), names this store's key and the event `last` names, the three files
have the identity it records, and it was written after all three last changed (its mtime is
later than every recorded ctime; else it is "racy", as git calls it).

Why identity is enough to keep the detection promise (docs/history.md, "Verification on every
read and add"): any write to a file (a changed byte, a deleted, truncated or appended line)
sets its ctime to the current time, and ctime cannot be set back by a user (utime/touch set
mtime and atime only; setting ctime needs the system clock or raw access to the device, which
is outside a local guarantee). A modification after the state was written therefore gets a
ctime later than the recorded one, because the recorded ctime is older than the state itself;
the racy rule covers file systems whose clock is too coarse to tell them apart. This holds for
the index files as for the events file, so no call re-hashes what it does not read: a view
reads only the lines it needs (`Trusted.line`, `Trusted.citers`), and a full pass reads the
index once. Lines removed from the end together with `last` are not detected anyway
(docs/history.md, "Storage").
"""
from __future__ import annotations

import os

from judgment_toolkit.ha.history.store.index import (
    FILES, NAME, SLOT, SLOTS, STATE, State, Unusable, decode, identity, ints, links)

CHUNK = 1 << 20
STATE_MAX = 1024


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
