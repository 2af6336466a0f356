"""Ledger records as judgment-card.v1 similar_past_decisions items, and the card merge.

The recall hook imports this module for MEM_PREFIX alone, so search is imported by recall()."""
SUMMARY_MAX = 120
MEM_PREFIX = "judgment-ledger:"


def item(rec):
    question = rec["question"]
    rationale = rec.get("rationale")
    return {
        "summary": question if len(question) <= SUMMARY_MAX else question[:SUMMARY_MAX - 3] + "...",
        "decision": rec["answer"],
        "outcome": rationale if type(rationale) is str and rationale else "recorded",
        "decided_at": rec["decided_at"],
        "mem_id": MEM_PREFIX + rec["id"],
    }


def recall(path, project, question, mode=None, options=()):
    """The similar past decisions for a question (at most search.MAX_LIMIT), ranked in `mode`
    (search.DEFAULT_MODE when None). In "answers" mode only the decisions that answer it
    (judgment.inject.answers, the option labels `options` weighed with it: each topic's newest,
    an empty list more often than not); the other modes read the question alone."""
    from . import search
    mode = search.DEFAULT_MODE if mode is None else mode
    if mode == "answers":
        from . import inject, ledger
        f = ledger.open_read(path)  # unreadable is an error whatever the question, as in search
        if f is None:
            return []
        f.close()
        found = [a["record"] for a in inject.answers(path, project, question, options)]
        return [item(r) for r in found[:search.MAX_LIMIT]]
    return [item(r) for r in search.search(path, project, question, mode=mode)]


def merge(card, items):
    """A copy of the card with similar_past_decisions replaced by items (key order kept)."""
    merged = dict(card)
    merged["similar_past_decisions"] = items
    return merged
