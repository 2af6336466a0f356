"""One streaming pass over the store: the compact per-event facts every view is computed from.

Memory is bounded by about a byte per event (Facts), never by the events themselves; the
filters (query.py) are decided during the pass, so no summary or reason text is kept. The pass
runs to the end of the store, because the store verifies as it goes and its facts are only
trustworthy once it has finished; events past a pinned range end are verified, then ignored.
"""
from __future__ import annotations

import re
from array import array
from bisect import bisect_left

from judgment_toolkit.ha.history.store import index
from judgment_toolkit.ha.history.views.lineage import DIFFERENT, SAME, UNVERIFIABLE
from judgment_toolkit.ha.history.views.query import Query, Selector  # noqa: F401 (viewcli, viewrun)

LINEAGES = (SAME, DIFFERENT, UNVERIFIABLE)   # byte codes 0, 1, 2 in Facts.lineage
_CODE = {name: code for code, name in enumerate(LINEAGES)}


_MATCH, _CORR_SAME, _CORR_OTHER = 4, 8, 16   # flag bits (lineage in bits 0-1)
ANCHOR = 64          # every 64th event's byte offset is kept; the others are found from it
_CURRENT = bytes(1 if f & (3 | _CORR_SAME) == 0 and f & _MATCH else 0 for f in range(256))
_MATCHING = bytes(1 if f & _MATCH else 0 for f in range(256))
_OTHER = bytes(1 if f & 3 else 0 for f in range(256))


class _Pairs:
    """Correction pairs (B supersedes A) in store order, as two int arrays: `get(b)` -> the
    A's of correction B (supersedes); _CorrectedBy looks them up by A."""

    def __init__(self):
        self.b, self.a = array("i"), array("i")

    def add(self, b: int, a: int) -> None:
        self.b.append(b)
        self.a.append(a)

    def get(self, b: int, default=None):
        i = bisect_left(self.b, b)
        out = []
        while i < len(self.b) and self.b[i] == b:
            out.append(self.a[i])
            i += 1
        return out or default


class _CorrectedBy:
    """A -> [B, ...]: the corrections of A in store order, of the basis lineage (`same`) or
    of the others; a view asks only for the events it shows, so this is looked up, not kept."""

    def __init__(self, facts: "Facts", same: bool):
        self._f, self._same = facts, same

    def get(self, a: int, default=None):
        f = self._f
        keys = f._by_target()
        i = bisect_left(keys, a << 32)
        out = []
        while i < len(keys) and keys[i] >> 32 == a:
            b = keys[i] & 0xFFFFFFFF
            if f.is_same(b) == self._same:
                out.append(b)
            i += 1
        return out or default


class Facts:
    """What a view knows of every event in range, in about 1.2 bytes per event: one flag byte
    (lineage, filter match, corrected by the basis lineage or by another), a byte offset per
    64 events, and 8 bytes per correction pair. Lines are found again from the offsets."""

    def __init__(self, store=None):
        self.n = 0                      # events in the store (all verified)
        self.end = 0                    # range end: events 1..end are in range
        self.end_sha = None             # sha256 of event `end`'s line
        self.flags = bytearray()
        self.anchors = array("q")       # offset of D1, D65, D129...
        self.supersedes = _Pairs()      # .get(B) -> [A, ...]
        self.line_sha = {}              # seq -> sha256, for the asked seqs
        self.selected = None            # show: seq of the selected event
        self.successors = []            # show: seqs citing it, in store order
        self.store = store              # to find lines again (location)
        self.from_index = False         # lines are found through the index
        self._keys = self._codes = self._codes_match = None   # run head -> lineage code
        self.corrected_same = _CorrectedBy(self, True)    # .get(A) -> [B, ...]
        self.corrected_other = _CorrectedBy(self, False)

    def _by_target(self) -> array:
        if self._keys is None:
            p = self.supersedes
            self._keys = array("q", sorted(a << 32 | b for a, b in zip(p.a, p.b)))
        return self._keys

    def close(self) -> None:
        """Nothing to release: the pass is over and holds no file (pointfacts' facts do)."""

    def pick(self, current: bool, lo: int, after: int, limit: int) -> tuple:
        """(shown seqs, total, more) of the matching events in lo+1..end (current ones only
        when `current`): the first `limit` after seq `after`, decided with byte operations."""
        sel = self.flags.translate(_CURRENT if current else _MATCHING)
        total = sel.count(1, lo, self.end)
        shown, pos = [], max(lo, after)
        while len(shown) < limit:
            pos = sel.find(1, pos, self.end)
            if pos < 0:
                return shown, total, False
            shown.append(pos + 1)
            pos += 1
        return shown, total, sel.find(1, pos, self.end) >= 0

    def others(self, lo: int):
        """Seqs in lo+1..end whose lineage is not the basis's, in order."""
        sel = self.flags.translate(_OTHER)
        pos = sel.find(1, lo, self.end)
        while pos >= 0:
            yield pos + 1
            pos = sel.find(1, pos + 1, self.end)

    def corrections_in(self, lo: int):
        """(B, [A, ...]) of every correction B in lo+1..end, in store order."""
        p = self.supersedes
        i = bisect_left(p.b, lo + 1)
        while i < len(p.b) and p.b[i] <= self.end:
            b, out = p.b[i], []
            while i < len(p.b) and p.b[i] == b:
                out.append(p.a[i])
                i += 1
            yield b, out

    def lineage_of(self, seq: int) -> str:
        return LINEAGES[self.flags[seq - 1] & 3]

    def is_same(self, seq: int) -> bool:
        return self.flags[seq - 1] & 3 == 0

    def is_current(self, seq: int) -> bool:
        return self.flags[seq - 1] & (3 | _CORR_SAME) == 0

    def matches(self, seq: int) -> bool:
        return bool(self.flags[seq - 1] & _MATCH)

    def location(self, seq: int) -> tuple:
        """(offset, length) of event `seq`'s line: from its index line when the facts came
        from the index, else found from the nearest kept offset."""
        if self.from_index:
            p = self.store.index_line(seq)
            return int(p[2]), int(p[3])
        k = (seq - 1) // ANCHOR
        offset, skip = self.anchors[k], seq - 1 - k * ANCHOR
        raw = self.store.read_lines(offset, skip + 1)
        for line in raw[:skip]:
            offset += len(line) + 1
        return offset, len(raw[skip])

def collect(store, basis, query: Query, end: int | None = None,
            want_sha=(), selector: Selector | None = None) -> Facts:
    """Scan the whole store once; `end` pins the range (page cursors), None takes it all. The
    events come verified from store.scan(): a trusted index as chunks of its lines (facts taken
    with regular expressions, `_chunk`; a keyword filter reads each chunk's events lines in one
    block under the scan's lock), else each line parsed in full, its raw bytes at hand."""
    f = Facts(store=store)
    flags = f.flags
    want = set(want_sha)
    by_id = selector is not None and selector.seq is not None
    lineage_of = basis.of_pair
    for stored in store.scan(chunks=True):
        if type(stored) is bytes:   # whole E lines of a trusted index
            if not _chunk(f, stored, basis, query, end, want, selector):
                break
            continue
        seq = stored.seq
        f.n = seq
        if seq in want:
            f.line_sha[seq] = stored.sha256
        if end is not None and seq > end:
            continue
        f.end_sha = stored.sha256
        if seq % ANCHOR == 1:
            f.anchors.append(stored.offset)
        code = _CODE[lineage_of(stored.run_head)]
        flags.append(code | (_MATCH if query.matches_stored(stored, stored.raw) else 0))
        corrected = stored.supersedes
        if corrected:
            bit = _CORR_SAME if code == 0 else _CORR_OTHER
            for a in corrected:
                f.supersedes.add(seq, a)
                flags[a - 1] |= bit
        if selector is not None:
            if f.selected is None:
                if (seq == selector.seq) if by_id else \
                        (stored.request_id == selector.request_id):
                    f.selected = seq
            elif f.selected in corrected or f.selected in stored.builds_on:
                f.successors.append(seq)
    f.end = len(flags)
    return f


# Fields of the index's E lines (index.py), taken from whole chunks at once.
_E_RUN = re.compile(rb" ([0-9]+ [0-9a-f]{64}) t=", re.M)
_E_TARGETS = re.compile(rb" t=([^ ]*) b=", re.M)


class _LineageCodes(dict):
    """b"<seq> <sha256>" of a run head -> its lineage code (| the match bit), computed once."""

    def __init__(self, basis, extra: int):
        super().__init__()
        self._basis, self._extra = basis, extra

    def __missing__(self, key: bytes) -> int:
        seq, sha = key.split(b" ")
        code = _CODE[self._basis.of_pair((int(seq), sha.decode("ascii")))] | self._extra
        self[key] = code
        return code


def _chunk(f: Facts, data: bytes, basis, query: Query, end, want, selector) -> bool:
    """Take the facts of a chunk of index lines without one Python object per event;
    False once the pinned range `end` is passed (the rest is not needed)."""
    first = f.n + 1
    last = first + data.count(b"\n") - 1
    f.n = last
    for seq in want:
        if first <= seq <= last:
            f.line_sha[seq] = _line_of(data, seq)[4].decode("ascii")
    stop = last if end is None else min(end, last)
    if stop < first:
        return False
    if stop < last:                     # cut the chunk after line `stop`
        data = data[:data.find(b"\nE %d " % (stop + 1)) + 1]
    f.end_sha = _line_of(data, stop)[4].decode("ascii")
    f.from_index = True
    flags = f.flags
    if not query.targets:
        codes = f._codes_match if f._codes_match is not None else _LineageCodes(basis, _MATCH)
        f._codes_match = codes
        m = _E_RUN.search(data)         # most chunks hold one run head: no per-line work
        if m and data.count(m.group(0)) == stop - first + 1:
            flags.extend(bytes([codes[m.group(1)]]) * (stop - first + 1))
        else:
            flags.extend(map(codes.__getitem__, _E_RUN.findall(data)))
    else:
        codes = f._codes if f._codes is not None else _LineageCodes(basis, 0)
        f._codes = codes
        wanted = query.targets
        for run, targets in zip(_E_RUN.findall(data), _E_TARGETS.findall(data)):
            hit = targets and any(t in wanted for t in targets.decode("ascii").split(","))
            flags.append(codes[run] | (_MATCH if hit else 0))
    if query.keywords:
        query.clear_misses(f.store, data, flags, first - 1, _MATCH)
    for b, corrected in index.corrections(data):
        bit = _CORR_SAME if flags[b - 1] & 3 == 0 else _CORR_OTHER
        for a in corrected:
            a = int(a)
            f.supersedes.add(b, a)
            flags[a - 1] |= bit
    if selector is not None:
        _select(f, data, first, selector)
    return stop == last


def _line_of(data: bytes, seq: int) -> list:
    """The fields of index line `seq` in a chunk that holds it."""
    k = data.find(b"E %d " % seq) if data.startswith(b"E %d " % seq) else \
        data.find(b"\nE %d " % seq) + 1
    return data[k:data.index(b"\n", k)].split(b" ")


def _select(f: Facts, data: bytes, first: int, selector: Selector) -> None:
    """show: find the selected event (by seq or request id) and the events citing it."""
    if f.selected is None:
        if selector.request_id is None:
            if selector.seq is not None and first <= selector.seq <= f.n:
                f.selected = selector.seq
        else:
            m = re.search(rb"^E ([0-9]+) [^ ]+ [^ ]+ [^ ]+ r=" +
                          re.escape(selector.request_id.encode()) + rb" ", data, re.M)
            if m:
                f.selected = int(m.group(1))
    if f.selected is None:
        return
    # an id in a b= or s= list follows "b=", "s=" or a comma and ends at ",", " " or LF;
    # targets never start with a digit and request ids hold no "=" or ",", so nothing else
    # can match
    cites = re.compile(rb"(?:b=|s=|,)%d(?=[, \n])" % f.selected)
    last = 0
    for m in cites.finditer(data):
        start = data.rfind(b"\n", 0, m.start()) + 1
        seq = int(data[start + 2:data.index(b" ", start + 2)])
        if seq > f.selected and seq != last:
            f.successors.append(seq)
            last = seq
