"""Lineage of a history event against the goal's run record chain (docs/history-views.md,
"What the views mean", **Lineage**).

An event's `context.run_head` names the run record head ({seq, sha256}) it was registered at.
A view judges every event against one chosen run head, its *basis*: the head of the goal's
current verified chain, or the head a page cursor pinned. The event is

- `same` when the basis chain holds that very line at that seq (an ordinary advance of the
  head since then keeps it the same lineage; worktrees that share the start line and have not
  diverged are one lineage),
- `different` when the basis chain holds another line at that seq,
- `unverifiable` when the seq is beyond the basis head, the chain does not verify, or the
  event carries no usable run head.

Run evidence (`run:` references) never decides lineage; only `context.run_head` does.
Nothing here does I/O: the chain is read once by the caller.
"""
from __future__ import annotations

SAME = "same"
DIFFERENT = "different"
UNVERIFIABLE = "unverifiable"


class Basis:
    """The verified chain prefix up to the chosen run head.

    `chain` is an `ha.runs.Chain` (anything with `ok`, `head` and `line_sha256(seq)`).
    `pinned` is a head {seq, sha256} from a page cursor; None chooses the chain's head.
    Build a pinned basis from `Basis(chain).resolve(cursor_head)`: a pinned head the chain no
    longer holds is stale, and judging against it would judge against a record that is gone.
    """

    def __init__(self, chain, pinned: dict | None = None):
        self._chain = chain
        if not chain.ok:
            self.head = None
        elif pinned is None:
            self.head = chain.head
        else:
            self.head = {"seq": pinned["seq"], "sha256": pinned["sha256"]}
        self._cache: dict = {}

    def holds(self, head) -> bool:
        """True when `head` ({seq, sha256}) is a line of the verified chain."""
        return self.resolve(head) is not None

    def resolve(self, head) -> dict | None:
        """The full head {seq, sha256} of the chain line that `head` names, or None.

        Cursors carry a prefix of the line's sha256; the chain gives the whole hash back.
        """
        if not self._chain.ok or not _is_head(head) or len(head["sha256"]) < 16:
            return None
        if self.head is not None and head["seq"] > self.head["seq"]:
            return None
        full = self._chain.line_sha256(head["seq"])
        if full is None or not full.startswith(head["sha256"]):
            return None
        return {"seq": head["seq"], "sha256": full}

    def of(self, run_head) -> str:
        """same / different / unverifiable for an event's context.run_head."""
        try:
            key = (run_head["seq"], run_head["sha256"])
            found = self._cache.get(key)
        except (TypeError, KeyError):
            return UNVERIFIABLE
        if found is None:
            found = self._judge(*key) if self.head is not None and _is_head(run_head) \
                else UNVERIFIABLE
            self._cache[key] = found
        return found

    def of_pair(self, run_head) -> str:
        """`of` for a verified event's run head as a (seq, sha256) pair."""
        found = self._cache.get(run_head)
        if found is None:
            found = UNVERIFIABLE if self.head is None else self._judge(*run_head)
            self._cache[run_head] = found
        return found

    def _judge(self, seq: int, sha: str) -> str:
        if seq > self.head["seq"]:
            return UNVERIFIABLE
        line = self._chain.line_sha256(seq)
        if line is None:
            return UNVERIFIABLE
        return SAME if line == sha else DIFFERENT


def _is_head(head) -> bool:
    return (isinstance(head, dict)
            and type(head.get("seq")) is int and head["seq"] >= 1
            and isinstance(head.get("sha256"), str))
