"""One streaming pass over the store: the compact per-event facts every view is computed from.

Memory is bounded by about a byte per event, never by the events themselves: one flag byte per
event in range (lineage, filter match, corrected by the basis lineage or another), the byte
offset of every 64th event (the page's lines are found again from it), and the correction
pairs as two int arrays. Filters are decided here, during the pass, from the targets, summary
and reason, so nothing of that text is kept.

The pass always runs to the end of the store, because the store verifies the hash chain, seq,
relations and `last` as it goes and its facts are only trustworthy once it has finished; events
past a pinned range end are verified and then ignored.
"""
from __future__ import annotations

import hashlib
import json
import re
from array import array
from bisect import bisect_left
from dataclasses import dataclass, field

from judgment_toolkit.ha.history.store import index
from judgment_toolkit.ha.history.errors import corrupt, invalid_input
from judgment_toolkit.ha.history.views.lineage import DIFFERENT, SAME, UNVERIFIABLE
from judgment_toolkit.ha.history.model import TARGET_RE

LINEAGES = (SAME, DIFFERENT, UNVERIFIABLE)   # byte codes 0, 1, 2 in Facts.lineage
_CODE = {name: code for code, name in enumerate(LINEAGES)}


@dataclass(frozen=True)
class Query:
    """The filters of a view: any of `targets`, all of `keywords` (case-insensitive)."""

    targets: tuple = ()
    keywords: tuple = ()

    @classmethod
    def of(cls, targets, keywords) -> "Query":
        for t in targets:
            if not TARGET_RE.match(t):
                raise invalid_input(f"--target {t!r} must be an id like AC-1, EX-1 or T001")
        words = []
        for k in keywords:
            if k.strip() == "":
                raise invalid_input("--keyword needs a non-empty word")
            words.append(k.casefold())
        return cls(tuple(sorted(set(targets))), tuple(sorted(set(words))))

    def matches(self, decision) -> bool:
        """Whether a decision (dict) passes the filters."""
        return self._targets_ok(decision) and self._text_ok(decision)

    def matches_stored(self, stored, raw) -> bool:
        """`matches` for one verified stored event; `raw` is its line when a keyword filter
        needs the text.

        A word with no character JSON must escape appears verbatim in a line without `\\u` or
        `\\/` escapes wherever it appears in the summary or reason, and casefolding is per
        character, so such a line whose casefolded text lacks a word cannot match and is not
        parsed.
        """
        if self.targets and not any(t in self.targets for t in stored.targets):
            return False
        if not self.keywords:
            return True
        if self._plain and b"\\u" not in raw and b"\\/" not in raw:
            text = raw.decode("utf-8", "replace").casefold()
            if not all(k in text for k in self.keywords):
                return False
        return self._text_ok(json.loads(raw).get("decision") or {})

    def _targets_ok(self, decision) -> bool:
        if not self.targets:
            return True
        return any(t in self.targets for t in decision.get("targets") or ())

    def _text_ok(self, decision) -> bool:
        if not self.keywords:
            return True
        summary = (decision.get("summary") or "").casefold()
        reason = (decision.get("reason") or "").casefold()
        return all(k in summary or k in reason for k in self.keywords)

    @property
    def _plain(self) -> bool:
        return not any(_ESCAPED.search(k) for k in self.keywords)

    def digest(self, view: str, selector: str | None, since: str | None) -> str:
        """What a page cursor pins besides the range: view, selected event, filters, since."""
        text = json.dumps([view, selector, list(self.targets), list(self.keywords), since],
                          ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


@dataclass
class Selector:
    """The event `show` reads: by id (`seq`) or by request id; found during the pass."""

    seq: int | None = None
    request_id: str | None = None
    shown: str = ""  # the id as given (a huge D-number is capped in seq, never in messages)

    @property
    def text(self) -> str:
        return f"D{self.seq}" if self.request_id is None else f"request:{self.request_id}"


_SAME_BIT, _MATCH, _CORR_SAME, _CORR_OTHER = 0, 4, 8, 16   # flag bits (lineage in bits 0-1)
ANCHOR = 64          # every 64th event's byte offset is kept; the others are found from it
_CURRENT = bytes(1 if f & (3 | _CORR_SAME) == 0 and f & _MATCH else 0 for f in range(256))
_MATCHING = bytes(1 if f & _MATCH else 0 for f in range(256))
_OTHER = bytes(1 if f & 3 else 0 for f in range(256))


class _Pairs:
    """Correction pairs (B supersedes A) in store order, as two int arrays: `get(b)` -> the
    A's of correction B (supersedes), or by A once `by_target()` has sorted them."""

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

    def __contains__(self, b: int) -> bool:
        i = bisect_left(self.b, b)
        return i < len(self.b) and self.b[i] == b

    def __getitem__(self, b: int) -> list:
        found = self.get(b)
        if found is None:
            raise KeyError(b)
        return found


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

    def __contains__(self, a: int) -> bool:
        return bool(self.get(a))


@dataclass
class Facts:
    """What a view knows of every event in range, in about 1.2 bytes per event: one flag byte
    (lineage, filter match, corrected by the basis lineage or by another), a byte offset per
    64 events, and 8 bytes per correction pair. Lines are found again from the offsets."""

    n: int = 0                          # events in the store (all verified)
    end: int = 0                        # range end: events 1..end are in range
    end_sha: str | None = None          # sha256 of event `end`'s line
    flags: bytearray = field(default_factory=bytearray)
    anchors: array = field(default_factory=lambda: array("q"))   # offset of D1, D65, D129...
    supersedes: _Pairs = field(default_factory=_Pairs)           # .get(B) -> [A, ...]
    line_sha: dict = field(default_factory=dict)      # seq -> sha256, for the asked seqs
    selected: int | None = None                       # show: seq of the selected event
    successors: list = field(default_factory=list)    # show: seqs citing it, in store order
    store: object = None                              # to find lines again (location)
    _keys: array | None = None
    from_index: bool = False                          # lines are found through the index
    _codes: dict | None = None                        # run head -> lineage code (index)
    _codes_match: dict | None = None

    def __post_init__(self):
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
    """Scan the whole store once. `end` pins the range (page cursors); None takes it all.

    The events come verified from store.scan(): a trusted index as chunks of its lines (their
    facts taken with regular expressions, `_chunk`), else each line parsed and checked in full
    (a StoredEvent with its raw line). Only a keyword filter needs the text: from the index,
    the events lines of each chunk are read in one block while the scan holds the lock (the
    index vouches for the events file's identity); on the full path each line is at hand.
    """
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
_E_HEAD = re.compile(rb"^E ([0-9]+) ([0-9]+) [0-9]+ ([0-9a-f]{64}) ", re.M)
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
        _keywords(f, data, first, query)
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


_KEYWORD_GROUP = 1024     # events lines read at once (memory: about 1 MB)

# The non-ASCII characters whose casefold holds an ASCII character (ß -> ss, the Kelvin sign ->
# k, ligatures ...). Outside them, an ASCII word occurs in a line's casefolded text exactly
# where it occurs in bytes.lower() of the line (UTF-8 sequences hold no ASCII byte). A test
# recomputes this set from the running Python's Unicode data.
CASEFOLDS_TO_ASCII = ("\u00df\u0130\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a"
                      "\u1e9e\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06")
_TO_ASCII = re.compile(b"|".join(re.escape(c.encode()) for c in CASEFOLDS_TO_ASCII))
# every byte but their first bytes: block.translate(None, _NOT_LEAD) is empty when a block
# cannot hold one of them (a fast test; Hangul and ASCII text never has these bytes)
_NOT_LEAD = bytes(sorted(set(range(256)) - {c.encode()[0] for c in CASEFOLDS_TO_ASCII}))


def _bytes_exact(word: str) -> bool:
    """Whether a casefolded word can be looked for in bytes.lower() of UTF-8 text: it holds
    only ASCII and Hangul syllables (these casefold to themselves and no other character
    casefolds into one; a test checks both against the running Python's Unicode data)."""
    return all(c.isascii() or "\uac00" <= c <= "\ud7a3" for c in word)


def _keywords(f: Facts, data: bytes, first: int, query: Query) -> None:
    """Clear the match bit of the events of a chunk of index lines (D<first>...) whose summary
    and reason lack a keyword. Their events lines are read in blocks of _KEYWORD_GROUP. A
    line whose casefolded text lacks a word cannot match (the rule of Query.matches_stored)
    and is decided without parsing it; for ASCII words the test is bytes.lower() of the whole
    block unless the line holds a character of CASEFOLDS_TO_ASCII (words of ASCII and Hangul,
    `_bytes_exact`). The others are parsed and checked exactly."""
    lines = data.split(b"\n")
    lines.pop()
    flags, words, plain = f.flags, query.keywords, query._plain
    ascii_words = [w.encode() for w in words] if plain and all(map(_bytes_exact, words)) \
        else None
    for g in range(0, len(lines), _KEYWORD_GROUP):
        group = lines[g:g + _KEYWORD_GROUP]
        todo = [i for i in range(len(group)) if flags[first - 1 + g + i] & _MATCH]
        if not todo:
            continue
        head, tail = group[0].split(b" ", 4), group[-1].split(b" ", 4)
        start = int(head[2])
        block = f.store.read_block(start, int(tail[2]) + int(tail[3]) + 1 - start)
        raws = block.split(b"\n")
        raws.pop()
        if len(raws) != len(group):
            raise corrupt(f"events.jsonl changed while it was read (lines {first + g}.."
                          f"{first + g + len(group) - 1})")
        lowered = block.lower().split(b"\n") if ascii_words is not None else None
        special = lowered is not None and bool(block.translate(None, _NOT_LEAD))
        for i in todo:
            raw = raws[i]
            if not plain or b"\\u" in raw or b"\\/" in raw:
                lacks = False                   # escapes: only the parsed text can tell
            elif lowered is not None and not (special and _TO_ASCII.search(raw)):
                lacks = not all(w in lowered[i] for w in ascii_words)
            else:
                text = raw.decode("utf-8", "replace").casefold()
                lacks = not all(w in text for w in words)
            if lacks or not query._text_ok(json.loads(raw).get("decision") or {}):
                flags[first - 1 + g + i] &= ~_MATCH


# A keyword with a character JSON must escape cannot be looked for in the raw bytes.
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f\u2028\u2029]')
