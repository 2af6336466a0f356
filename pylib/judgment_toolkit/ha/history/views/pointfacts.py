"""Facts of the few events a view shows, read by seq from a trusted index (docs/history.md,
"The index: every call costs what it reads").

`show` (by id, or by request id: one `bytes.find` per chunk of index lines) and an unfiltered
`list` page (first or later, without --since) need facts of a bounded set of events only: the events shown, the events they cite and the events citing
them, and the corrections of each. The index (index.py) gives each event's line by seq and,
through its reverse links, the events citing it, so such a view costs what it shows, not the
size of the history. Every other view takes one pass over the whole range (facts.collect).

`PointFacts` answers the same questions as facts.Facts for those views, with the meanings of
views.py: an event is current when it is of the basis lineage and no same-lineage event in
range supersedes it. It holds the store's shared lock from `open_facts` until `close`, so an
add cannot change the index while the view reads it.
"""
from __future__ import annotations

from judgment_toolkit.ha.history.store import index, indexread
from judgment_toolkit.ha.history.errors import unreadable
from judgment_toolkit.ha.history.views.facts import LINEAGES

_CODE = {name: code for code, name in enumerate(LINEAGES)}


def eligible(view: str, query, since, selector) -> bool:
    """Whether a view is answered from a few events: show, or list without filters and
    --since."""
    if query.targets or query.keywords or since is not None:
        return False
    if view == "show":
        return selector is not None
    return view == "list"


def open_facts(store, basis, end: int | None = None, selector=None):
    """PointFacts of the store's trusted index (range 1..end, default all), or None when the
    index cannot be used (take the full pass)."""
    trusted = store.open_index()
    if trusted is None:
        return None
    try:
        return PointFacts(trusted, store, basis, end, selector)
    except index.Unusable:
        trusted.close()
        return None


class _Supersedes:
    def __init__(self, f: "PointFacts"):
        self._f = f

    def get(self, b: int, default=None):
        return self._f._supersedes(b) or default


class _CorrectedBy:
    def __init__(self, f: "PointFacts", same: bool):
        self._f, self._same = f, same

    def get(self, a: int, default=None):
        f = self._f
        out = [b for b in f.citers(a) if a in f._supersedes(b) and f.is_same(b) == self._same]
        return out or default


class PointFacts:
    def __init__(self, trusted, store, basis, end, selector):
        self._t, self.store, self._basis = trusted, store, basis
        self.n = trusted.state.count
        self.end = self.n if end is None else min(end, self.n)
        self.end_sha = self._field(self.end, 4).decode("ascii") if self.end else None
        self.line_sha: dict = {}
        self.selected = None
        self.successors: list = []
        self.supersedes = _Supersedes(self)
        self.corrected_same = _CorrectedBy(self, True)
        self.corrected_other = _CorrectedBy(self, False)
        self._codes: dict = {}
        self._citers: dict = {}
        seq = None
        if selector is not None:
            seq = selector.seq if selector.request_id is None else \
                self._request(selector.request_id)
        if seq is not None and 1 <= seq <= self.end:
            self.selected = seq
            self.successors = self.citers(seq)

    def close(self) -> None:
        self._t.close()

    # -- reading the index -----------------------------------------------------------------
    def _field(self, seq: int, i: int) -> bytes:
        try:
            return self._t.line(seq)[i]
        except (index.Unusable, OSError) as exc:
            raise self._failed(exc) from None

    def _supersedes(self, seq: int) -> tuple:
        try:
            return index.ints(self._field(seq, 10), b"s=")
        except ValueError as exc:
            raise self._failed(exc) from None

    def _request(self, request_id: str):
        """The seq of the event stored under `request_id`, or None (indexread.request_line)."""
        try:
            line = indexread.request_line(self._t, request_id)
            return None if line is None else int(line.split(b" ", 2)[1])
        except (index.Unusable, OSError, ValueError) as exc:
            raise self._failed(exc) from None

    def citers(self, a: int) -> list:
        got = self._citers.get(a)
        if got is None:
            try:
                got = self._citers[a] = self._t.citers(a, self.end)
            except (index.Unusable, OSError) as exc:
                raise self._failed(exc) from None
        return got

    def _failed(self, exc):
        # the state agreed with the files under the lock, so this is not damage: a bug
        return unreadable(f"{self.store.index_path} cannot be read ({exc}); delete it to "
                          "read the history without it")

    # -- what views ask ----------------------------------------------------------------------
    def _code(self, seq: int) -> int:
        code = self._codes.get(seq)
        if code is None:
            head = (int(self._field(seq, 6)), self._field(seq, 7).decode("ascii"))
            code = self._codes[seq] = _CODE[self._basis.of_pair(head)]
        return code

    def lineage_of(self, seq: int) -> str:
        return LINEAGES[self._code(seq)]

    def is_same(self, seq: int) -> bool:
        return self._code(seq) == 0

    def is_current(self, seq: int) -> bool:
        return self.is_same(seq) and not self.corrected_same.get(seq)

    def matches(self, seq: int) -> bool:
        return True

    def location(self, seq: int) -> tuple:
        return int(self._field(seq, 2)), int(self._field(seq, 3))

    def pick(self, current: bool, lo: int, after: int, limit: int) -> tuple:
        """`list` without filters: every event in lo+1..end matches."""
        if current:
            raise ValueError("current needs the whole range (facts.collect)")
        first = max(lo, after) + 1
        last = min(self.end, first + limit - 1)
        return list(range(first, last + 1)), self.end - lo, last < self.end
