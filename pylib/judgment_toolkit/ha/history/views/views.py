"""The decision-history-view/v1 view model: current, list and show
(docs/history-views.md, "What the views mean").

Every view is computed from the compact facts of one pass (facts.py) and then re-reads only the
events it shows. The model is a plain dict that *is* the JSON document; render.py writes the
Markdown from that same dict, so the two cannot carry different events or meanings.

Meaning, in one place:
- an event is *current* when it is of the basis lineage and no same-lineage event in range
  supersedes it; this is decided over the whole range before any filter, since or page;
- `superseded_by` lists the same-lineage corrections in range, `other_corrected_by` the
  other-lineage ones (reported, never applied);
- `grounds_corrected` lists, for each direct `builds_on` ground, its same-lineage corrections
  in range (before or after the event, or the event itself), in store order; not propagated;
- `context` compares the registration context with the current git state.
"""
from __future__ import annotations

from collections import namedtuple

from judgment_toolkit.ha.history.views import cursor
from judgment_toolkit.ha.history.errors import HistoryError

SCHEMA = "decision-history-view/v1"
OTHER_MAX = 50


# The current git state the registration contexts are compared with.
Now = namedtuple("Now", "goal commit tree_clean spec_digest")


class Input:
    """What a view is computed from. store: read_at(offset, length) -> event dict; key: the
    store key (start line sha256); basis: lineage.Basis; facts: facts.Facts or
    pointfacts.PointFacts; query: query.Query; since: cursor.Boundary or None; selector:
    query.Selector (show)."""

    def __init__(self, store, key, basis, facts, now, query, chain_ok, since=None,
                 since_text=None, pos=(0, 0, 0), limit=20, selector=None):
        self.store, self.key, self.basis, self.facts, self.now = store, key, basis, facts, now
        self.query, self.chain_ok, self.since, self.since_text = query, chain_ok, since, since_text
        self.pos, self.limit, self.selector = pos, limit, selector


def absent(view: str, goal: str) -> dict:
    return {"schema": SCHEMA, "view": view, "history": "absent", "goal": goal}


def current(inp: Input) -> dict:
    return _listing(inp, "current")


def listing(inp: Input) -> dict:
    return _listing(inp, "list")


def show(inp: Input, compare) -> dict:
    """`compare(ref, registered) -> state` is compare.Comparer.state for the current repo."""
    f = inp.facts
    seq = f.selected
    if seq is None:
        sel = inp.selector
        what = f"event {sel.shown or f'D{sel.seq}'}" if sel.request_id is None else f"request id {sel.request_id!r}"
        held = f"it holds D1..D{f.end}" if f.end else "it holds no events"
        raise HistoryError("unknown_event", f"{what} is not in this history ({held})")
    ev = _read(inp, seq)
    decision, context = ev.get("decision") or {}, ev.get("context") or {}
    model = _header(inp, "show")
    model["event"] = ev
    model.update(_marks(inp, seq, decision, context))
    registered = context.get("evidence") or []
    model["evidence"] = [
        {"ref": ref, "registered": obs, "current": compare(ref, obs)}
        for ref, obs in zip(decision.get("evidence") or [], registered)]
    model["predecessors"] = _predecessors(inp, decision)
    after = inp.pos[0]
    todo = [s for s in f.successors if s > after]
    shown = todo[:inp.limit]
    model["successors"] = [_successor(inp, s, seq) for s in shown]
    more = len(todo) > len(shown)
    next_pos = (shown[-1],) if more else None
    model["page"] = _page(inp, "show", len(shown), len(f.successors), next_pos)
    model["cursor"] = _boundary_text(inp)
    return model


def _listing(inp: Input, view: str) -> dict:
    f = inp.facts
    lo = inp.since.end if inp.since is not None else 0
    after, r_after = inp.pos[0], (inp.pos[1], inp.pos[2])
    shown, total, more = f.pick(view == "current", lo, after, inp.limit)
    model = _header(inp, view)
    model["events"] = [_brief(inp, s, _read(inp, s)) for s in shown]
    notices, r_total, r_more = (_replacements(inp, lo, r_after) if inp.since is not None
                                else ([], 0, False))
    model["replacements"] = [{"type": "replacement", "replaced": f"D{a}", "by": f"D{b}"}
                             for b, _, a in notices]
    if view == "current":
        model["other_lineage"], model["other_corrections"] = _others(inp, lo)
    next_pos = None
    if more or r_more:
        next_pos = (shown[-1] if shown else after,
                    *((notices[-1][0], notices[-1][1] + 1) if notices else r_after))
    model["page"] = _page(inp, view, len(shown), total, next_pos)
    if inp.since is not None:
        model["page"].update(replacements_shown=len(notices), replacements_total=r_total)
    model["cursor"] = _boundary_text(inp)
    return model


def _replacements(inp: Input, lo: int, r_after: tuple):
    """Same-lineage corrections B in the since span of matching same-lineage events A.

    Ordered by B, then by A's place in B's supersedes; the page position is (B, index + 1).
    """
    f = inp.facts
    out, total, more = [], 0, False
    for b, corrected in f.corrections_in(lo):
        if not f.is_same(b):
            continue
        for i, a in enumerate(corrected):
            if not (f.is_same(a) and f.matches(a)):
                continue
            total += 1
            if (b, i + 1) > r_after:
                if len(out) < inp.limit:
                    out.append((b, i, a))
                else:
                    more = True
    return out, total, more


def _others(inp: Input, lo: int):
    """Matching events of another lineage (or unverifiable), and the corrections among them."""
    f = inp.facts
    counts = {"different": 0, "unverifiable": 0}
    events, corrections, n_corr = [], [], 0
    for s in f.others(lo):
        corrected = f.supersedes.get(s, ())
        matched = f.matches(s)
        if matched:
            lineage = f.lineage_of(s)
            counts[lineage] += 1
            if len(events) < OTHER_MAX:
                events.append({"id": f"D{s}", "lineage": lineage})
        if corrected and (matched or any(f.matches(a) for a in corrected)):
            n_corr += 1
            if len(corrections) < OTHER_MAX:
                corrections.append({"id": f"D{s}", "lineage": f.lineage_of(s),
                                    "supersedes": [f"D{a}" for a in corrected]})
    count = counts["different"] + counts["unverifiable"]
    other = {"count": count, **counts, "events": events, "truncated": count > len(events)}
    corr = {"count": n_corr, "events": corrections, "truncated": n_corr > len(corrections)}
    return other, corr


def _header(inp: Input, view: str) -> dict:
    f, now = inp.facts, inp.now
    return {
        "schema": SCHEMA, "view": view, "history": "present", "goal": now.goal,
        "start": inp.key,
        "basis": {"run_head": inp.basis.head, "chain": "ok" if inp.chain_ok else "broken",
                  "commit": now.commit, "tree_clean": now.tree_clean,
                  "spec_digest": now.spec_digest},
        "range": {"since": inp.since.end if inp.since is not None else None, "end": f.end},
        "query": {"targets": list(inp.query.targets), "keywords": list(inp.query.keywords),
                  **({"show": inp.selector.text} if view == "show" else {})},
    }


def _brief(inp: Input, seq: int, ev: dict) -> dict:
    decision = ev.get("decision") or {}
    item = {"id": f"D{seq}", "seq": seq, "kind": decision.get("kind"),
            "status": decision.get("status"), "targets": list(decision.get("targets") or []),
            "summary": decision.get("summary")}
    item.update(_marks(inp, seq, decision, ev.get("context") or {}))
    return item


def _marks(inp: Input, seq: int, decision: dict, context: dict) -> dict:
    f = inp.facts
    return {
        "lineage": f.lineage_of(seq), "current": f.is_current(seq),
        "supersedes": [f"D{a}" for a in f.supersedes.get(seq, ())],
        "superseded_by": [f"D{b}" for b in f.corrected_same.get(seq, ())],
        "other_corrected_by": [f"D{b}" for b in f.corrected_other.get(seq, ())],
        "grounds_corrected": _grounds(inp, decision),
        "context": context_diff(context, inp.now),
    }


def _grounds(inp: Input, decision: dict) -> list:
    out, seen = [], set()
    for gid in decision.get("builds_on") or ():
        if not isinstance(gid, str) or gid in seen or not gid[1:].isdigit():
            continue
        seen.add(gid)
        by = inp.facts.corrected_same.get(int(gid[1:]))
        if by:
            out.append({"ground": gid, "corrected_by": [f"D{b}" for b in by]})
    return out


def context_diff(context: dict, now: Now) -> dict:
    """code same/changed/uncommitted, spec same/changed, path same/moved (docs/history-views.md,
    "What the views mean", **Context**)."""
    if context.get("commit") != now.commit:
        code = "changed"
    elif context.get("tree_clean") is not True or not now.tree_clean:
        code = "uncommitted"
    else:
        code = "same"
    return {"code": code,
            "spec": "same" if context.get("spec_digest") == now.spec_digest else "changed",
            "path": "same" if context.get("goal") == now.goal else "moved"}


def _related(inp: Input, seq: int, decision: dict | None = None) -> dict:
    if decision is None:
        decision = _read(inp, seq).get("decision") or {}
    return {"id": f"D{seq}", "kind": decision.get("kind"), "status": decision.get("status"),
            "summary": decision.get("summary"), "lineage": inp.facts.lineage_of(seq),
            "current": inp.facts.is_current(seq)}


def _predecessors(inp: Input, decision: dict) -> list:
    out = []
    for gid in decision.get("builds_on") or ():
        out.append({"relation": "builds_on", **_related(inp, int(gid[1:])), "after": None})
    for item in decision.get("supersedes") or ():
        rel = _related(inp, int(item["id"][1:]))
        out.append({"relation": "supersedes", **rel, "after": item.get("after")})
    return out


def _successor(inp: Input, successor: int, seq: int) -> dict:
    decision = _read(inp, successor).get("decision") or {}
    rels = []
    if f"D{seq}" in (decision.get("builds_on") or ()):
        rels.append("builds_on")
    if seq in inp.facts.supersedes.get(successor, ()):
        rels.append("supersedes")
    return {"relations": rels, **_related(inp, successor, decision)}


def _read(inp: Input, seq: int) -> dict:
    ev = inp.store.read_at(*inp.facts.location(seq))
    if not isinstance(ev, dict) or ev.get("seq") != seq:
        raise HistoryError("history_corrupt", f"events.jsonl changed while it was read "
                           f"(D{seq} is no longer at its place)")
    return ev


def _boundary(inp: Input) -> cursor.Boundary:
    f = inp.facts
    return cursor.Boundary(f.end, cursor.short_sha(f.end_sha) if f.end else None,
                           inp.basis.head)


def _boundary_text(inp: Input) -> str:
    return cursor.boundary_cursor(inp.key, _boundary(inp))


def _page(inp: Input, view: str, shown: int, total: int, next_pos) -> dict:
    nxt = None
    if next_pos is not None:
        selector = inp.selector.text if inp.selector is not None else None
        digest = inp.query.digest(view, selector, inp.since_text)
        nxt = cursor.page_cursor(inp.key, cursor.Page(_boundary(inp), view, digest,
                                                      tuple(next_pos)))
    return {"limit": inp.limit, "shown": shown, "total": total,
            "truncated": next_pos is not None, "next": nxt}
