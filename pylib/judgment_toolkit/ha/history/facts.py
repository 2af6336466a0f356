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

from judgment_toolkit.ha.history.errors import corrupt, invalid_input
from judgment_toolkit.ha.history.lineage import DIFFERENT, SAME, UNVERIFIABLE
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

    @property
    def text(self) -> str:
        return f"D{self.seq}" if self.request_id is None else f"request:{self.request_id}"


_SAME_BIT, _MATCH, _CORR_SAME, _CORR_OTHER = 0, 4, 8, 16   # flag bits (lineage in bits 0-1)
ANCHOR = 64          # every 64th event's byte offset is kept; the others are found from it


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

    def __post_init__(self):
        self.corrected_same = _CorrectedBy(self, True)    # .get(A) -> [B, ...]
        self.corrected_other = _CorrectedBy(self, False)

    def _by_target(self) -> array:
        if self._keys is None:
            p = self.supersedes
            self._keys = array("q", sorted(a << 32 | b for a, b in zip(p.a, p.b)))
        return self._keys

    def lineage_of(self, seq: int) -> str:
        return LINEAGES[self.flags[seq - 1] & 3]

    def is_same(self, seq: int) -> bool:
        return self.flags[seq - 1] & 3 == 0

    def is_current(self, seq: int) -> bool:
        return self.flags[seq - 1] & (3 | _CORR_SAME) == 0

    def matches(self, seq: int) -> bool:
        return bool(self.flags[seq - 1] & _MATCH)

    def location(self, seq: int) -> tuple:
        """(offset, length) of event `seq`'s line, found from the nearest kept offset."""
        k = (seq - 1) // ANCHOR
        offset, skip = self.anchors[k], seq - 1 - k * ANCHOR
        raw = self.store.read_lines(offset, skip + 1)
        for line in raw[:skip]:
            offset += len(line) + 1
        return offset, len(raw[skip])

def collect(store, basis, query: Query, end: int | None = None,
            want_sha=(), selector: Selector | None = None) -> Facts:
    """Scan the whole store once. `end` pins the range (page cursors); None takes it all.

    The events come verified from store.scan() (from its index when that agrees with the
    files, else each line parsed and checked in full); their facts are used as they are. Only a
    keyword filter needs the text: then the events file is read alongside, line by line, each
    line checked against the sha256 the scan vouches for.
    """
    f = Facts(store=store)
    flags = f.flags
    want = set(want_sha)
    by_id = selector is not None and selector.seq is not None
    texts = _Texts(store) if query.keywords else None
    lineage_of = basis.of_pair
    try:
        for stored in store.scan():
            seq = stored.seq
            f.n = seq
            if seq in want:
                f.line_sha[seq] = stored.sha256
            raw = texts.line(stored) if texts is not None else None
            if end is not None and seq > end:
                continue
            f.end_sha = stored.sha256
            if seq % ANCHOR == 1:
                f.anchors.append(stored.offset)
            code = _CODE[lineage_of(stored.run_head)]
            flags.append(code | (_MATCH if query.matches_stored(stored, raw) else 0))
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
    finally:
        if texts is not None:
            texts.close()
    f.end = len(flags)
    return f


class _Texts:
    """The raw lines of the events file, read in order next to a scan (keyword filters)."""

    def __init__(self, store):
        self._store = store
        self._it = None

    def line(self, stored) -> bytes:
        if stored.raw is not None:
            return stored.raw
        if self._it is None:
            self._it = iter(self._store.lines())
        raw = next(self._it, None)
        if raw is None or hashlib.sha256(raw).hexdigest() != stored.sha256:
            raise corrupt(f"events.jsonl line {stored.seq} changed while it was read")
        return raw

    def close(self):
        close = getattr(self._it, "close", None)
        if close is not None:
            close()


# A keyword with a character JSON must escape cannot be looked for in the raw bytes.
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f\u2028\u2029]')
