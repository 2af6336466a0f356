"""The format of the store's index, derived facts of verified lines so that a call costs what it
reads (docs/history.md, "The index: every call costs what it reads"). Its files byte by byte:
docs/internals.md, "Index (index.py)": `index` (one E line per event, `encode`/`decode`),
`index.slots` (two uint64 per event, SLOT) and `index.state` (State). c= in an E line names
each event A this one cites with P, the event that cited A before it (0: none), so the events
citing A form a list from the newest back. Derived data: deleting it changes only speed;
indexread.py says when a reader may trust it, indexwrite.py how an add keeps it.
"""
from __future__ import annotations

import hashlib
import re
import struct

from judgment_toolkit.ha.history.store.verify import StoredEvent

NAME, SLOTS, STATE = "index", "index.slots", "index.state"
TMP, SLOTS_TMP = "index.tmp", "index.slots.tmp"     # a rebuild, until it is installed
FILES = (NAME, SLOTS, STATE)
FORMAT = b"decision-history-index/2"
SLOT = struct.Struct("<QQ")          # (line position in index, newest citing event)
CITER = struct.Struct("<Q")


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


_SUPERSEDES = re.compile(rb" s=([0-9][0-9,]*) c=")   # only corrections match


def corrections(data: bytes):
    """(B, (A, ...)) of every correction line in a chunk of E lines, in order."""
    for m in _SUPERSEDES.finditer(data):
        start = data.rfind(b"\n", 0, m.start()) + 1
        yield int(data[start + 2:data.index(b" ", start + 2)]), \
            tuple(int(a) for a in m.group(1).split(b","))
