"""One streaming pass over the store: the compact per-event facts every view is computed from.

Memory is bounded by a few bytes per event, never by the events themselves: for each event in
range the pass keeps its line offset and length (to re-read the page's events afterwards with
`Store.read_at`), its lineage, one boolean saying whether it matches the query, and, for
corrections only, which events it supersedes. Filters are decided here, during the pass, from
the targets, summary and reason, so nothing of that text is kept.

The pass always runs to the end of the store, because the store verifies the hash chain, seq,
relations and `last` as it goes and its facts are only trustworthy once it has finished; events
past a pinned range end are verified and then ignored.
"""
from __future__ import annotations

import hashlib
import json
import re
from array import array
from dataclasses import dataclass, field

from judgment_toolkit.ha.history.errors import invalid_input
from judgment_toolkit.ha.history.lineage import DIFFERENT, SAME, UNVERIFIABLE
from judgment_toolkit.ha.history.model import EVENT_ID_RE, TARGET_RE

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

    def matches_line(self, stored, decision) -> bool:
        """`matches` for one stored line, parsing it only when a keyword filter needs it.

        A word with no character JSON must escape appears verbatim in a line without `\\u` or
        `\\/` escapes wherever it appears in the summary or reason, and casefolding is per
        character, so such a line whose casefolded text lacks a word cannot match and is not
        parsed.
        """
        if not self._targets_ok(decision):
            return False
        if not self.keywords:
            return True
        raw = stored.raw
        if isinstance(decision, _RawDecision) and self._plain and b"\\u" not in raw \
                and b"\\/" not in raw:
            text = raw.decode("utf-8", "replace").casefold()
            if not all(k in text for k in self.keywords):
                return False
        return self._text_ok(stored.event.get("decision") or {})

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


@dataclass
class Facts:
    n: int = 0                          # events in the store (all verified)
    end: int = 0                        # range end: events 1..end are in range
    end_sha: str | None = None          # sha256 of event `end`'s line
    offsets: array = field(default_factory=lambda: array("q"))
    lengths: array = field(default_factory=lambda: array("i"))   # a line is at most 1 MiB
    lineage: bytearray = field(default_factory=bytearray)
    match: bytearray = field(default_factory=bytearray)
    supersedes: dict = field(default_factory=dict)    # B -> [A, ...] for every correction B
    corrected_same: dict = field(default_factory=dict)   # A -> [B, ...], same-lineage B
    corrected_other: dict = field(default_factory=dict)  # A -> [B, ...], other-lineage B
    line_sha: dict = field(default_factory=dict)      # seq -> sha256, for the asked seqs
    selected: int | None = None                       # show: seq of the selected event
    successors: list = field(default_factory=list)    # show: seqs citing it, in store order

    def lineage_of(self, seq: int) -> str:
        return LINEAGES[self.lineage[seq - 1]]

    def is_same(self, seq: int) -> bool:
        return self.lineage[seq - 1] == 0

    def is_current(self, seq: int) -> bool:
        return self.lineage[seq - 1] == 0 and seq not in self.corrected_same

    def matches(self, seq: int) -> bool:
        return self.match[seq - 1] == 1

    def location(self, seq: int) -> tuple:
        return self.offsets[seq - 1], self.lengths[seq - 1]


def collect(store, basis, query: Query, end: int | None = None,
            want_sha=(), selector: Selector | None = None) -> Facts:
    """Scan the whole store once. `end` pins the range (page cursors); None takes it all."""
    f = Facts()
    want = set(want_sha)
    by_id = selector is not None and selector.seq is not None
    for stored in store.scan():
        seq = stored.seq
        f.n = seq
        if seq in want:
            f.line_sha[seq] = stored.sha256
        if end is not None and seq > end:
            continue
        f.end_sha = stored.sha256
        run_head, decision = _fields(stored)
        f.offsets.append(stored.offset)
        f.lengths.append(stored.length)
        code = _CODE[basis.of(run_head)]
        f.lineage.append(code)
        f.match.append(1 if query.matches_line(stored, decision) else 0)
        corrected = _seqs(stored.superseded_ids())
        if corrected:
            f.supersedes[seq] = corrected
            into = f.corrected_same if code == 0 else f.corrected_other
            for a in corrected:
                into.setdefault(a, []).append(seq)
        if selector is not None:
            if f.selected is None:
                if (seq == selector.seq) if by_id else \
                        (stored.request_id == selector.request_id):
                    f.selected = seq
            elif (f.selected in corrected
                  or f.selected in _seqs(decision.get("builds_on") or ())):
                f.successors.append(seq)
    f.end = len(f.offsets)
    return f


# The pass needs little of each line: the run head, and the targets or builds_on ids when a
# filter or show asks. Lines the store verified are in the canonical encoding, where these
# can be found in the bytes: a quote inside a JSON string is always escaped, so `"targets":[`
# or `,"context":{"start":"` can only be the keys themselves. A line that does not have the
# expected shape is parsed, and so is a line a keyword filter may match (Query.matches_line).
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f\u2028\u2029]')
_CONTEXT = re.compile(rb',"context":\{"start":"[0-9a-f]{64}","run_head":\{"seq":'
                      rb'([1-9][0-9]{0,17}),"sha256":"([0-9a-f]{64})"\}')
_LISTS = {name: re.compile(b'"' + name.encode() + rb'":\[([^\]]*)\]')
          for name in ("targets", "builds_on")}
_STRING = re.compile(rb'"([^"\\]*)"')


class _RawDecision:
    """`get` of the targets / builds_on lists of a canonical line's decision, from its bytes."""

    __slots__ = ("_raw", "_end")

    def __init__(self, raw: bytes, end: int):
        self._raw, self._end = raw, end

    def get(self, name, default=None):
        m = _LISTS[name].search(self._raw, 0, self._end)
        if m is None:
            return default
        return [s.decode("ascii", "replace") for s in _STRING.findall(m.group(1))]


def _fields(stored):
    """(context.run_head, decision or a _RawDecision) of one stored line."""
    raw = stored.raw
    k = raw.rfind(b',"context":{')
    m = _CONTEXT.match(raw, k) if k > 0 else None
    if m is not None:
        return ({"seq": int(m.group(1)), "sha256": m.group(2).decode("ascii")},
                _RawDecision(raw, k))
    event = stored.event
    return (event.get("context") or {}).get("run_head"), event.get("decision") or {}


def _seqs(ids) -> list:
    out = []
    for i in ids:
        m = EVENT_ID_RE.match(i) if isinstance(i, str) else None
        if m:
            s = int(m.group(1))
            if s not in out:
                out.append(s)
    return out
