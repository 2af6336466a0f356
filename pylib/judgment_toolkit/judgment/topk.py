"""The bounded top-k of the streaming reads (search, prime, list), one slot per record id.

A ledger that git merged, or a cherry-picked commit, can hold the same record on two lines
(docs/judgment-ledger.md, "Duplicates and order"). Readers count an id once and use its first
line: a line whose id is already held is skipped, so a record never takes two slots. Only the
ids of the held entries are remembered (at most `size`), so memory stays bounded whatever the
ledger's size.
"""
import heapq


class TopK:
    """The `size` largest (key, record) entries offered, keys unique (they end in the line's
    byte offset), at most one per record id: the first offered stays."""

    def __init__(self, size):
        self.size = size
        self.heap = []  # min-heap of (key, record): heap[0] is the floor once full
        self.ids = set()

    def full(self):
        return len(self.heap) >= self.size

    def offer(self, key, rec):
        rec_id = rec["id"]
        if rec_id in self.ids:
            return
        if len(self.heap) < self.size:
            heapq.heappush(self.heap, (key, rec))
        elif key > self.heap[0][0]:
            _, out = heapq.heapreplace(self.heap, (key, rec))
            self.ids.discard(out["id"])
        else:
            return
        self.ids.add(rec_id)

    def best(self):
        """[(key, record)], largest key first."""
        return sorted(self.heap, key=lambda e: e[0], reverse=True)
