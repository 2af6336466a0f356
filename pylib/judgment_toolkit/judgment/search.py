"""String-match ranking over one project's records, streaming with a bounded top-k.

Ranking (Judgment Ledger v1, section 'Search'): the whole query as a case-insensitive substring of the question, the
answer, the rationale or a tag ranks first; otherwise one point per distinct whitespace token of
2+ characters found in any of them; a record with no point is no match. Ties: newest decided_at
first, then the later line first. An empty query lists the newest records: the empty string is a
substring of every text (docs/judgment-ledger.md, "judgment-ledger.sh search"). A record id on several lines counts
once, with its first line (judgment.topk).
Case-insensitive means Unicode case folding (str.casefold) on both sides.

That is the default mode, "match". The opt-in "relevance" mode (judgment.rank, BM25) is chosen
with --rank or HARNESS_JUDGMENT_RANK (rank_mode); it is imported only when chosen. A recall also
takes --rank answers (RECALL_MODES; judgment.recall): only the decisions that answer the
question, as the AskUserQuestion hook recalls them (judgment.inject), often none.
"""
import json
import os

from . import ledger
from .ledger import time_key
from .topk import TopK

MAX_LIMIT = 3
MODES = ("match", "relevance")
RECALL_MODES = MODES + ("answers",)  # --rank of recall (never of $HARNESS_JUDGMENT_RANK)
DEFAULT_MODE = "match"
MODE_ENV = "HARNESS_JUDGMENT_RANK"


def rank_mode(flag=None, env=None, modes=MODES):
    """The ranking mode: the --rank value when given (one of `modes`: RECALL_MODES for a
    recall), else $HARNESS_JUDGMENT_RANK when set and not empty (one of MODES), else "match".
    An unknown value is a UsageError naming where it came from."""
    from .args import UsageError
    if flag is not None:
        if flag not in modes:
            raise UsageError("rank", f"must be {_either(modes)}, not {flag!r}")
        return flag
    value = (os.environ if env is None else env).get(MODE_ENV) or DEFAULT_MODE
    if value not in MODES:
        raise UsageError("rank", f"{MODE_ENV} must be {_either(MODES)}, not {value!r}")
    return value


def _either(modes):
    return ", ".join(modes[:-1]) + " or " + modes[-1]


def search(path, project, query, limit=MAX_LIMIT, mode=DEFAULT_MODE):
    """Up to `limit` (at most MAX_LIMIT) records of `project`, best first. A blank query lists
    the newest records in both modes."""
    limit = max(1, min(int(limit), MAX_LIMIT))
    if mode == "relevance" and query.strip():
        from . import rank as relevance
        return relevance.search_records(path, project, query, limit)
    whole, tokens = parse_query(query)
    top = TopK(limit)  # (rank key, record); the byte offset makes every key unique
    keep = _could_rank(whole, tokens, top.heap, limit)
    for offset, rec in ledger.records(path, project, keep):
        key = rank(rec, whole, tokens)
        if key is not None:
            top.offer(key + (time_key(rec["decided_at"]), offset), rec)
    return [rec for _, rec in top.best()]


def parse_query(query):
    """(whole query, distinct tokens of 2+ characters), both case-folded."""
    whole = query.strip().casefold()
    # dict keeps the first-seen order and dedups in one pass: linear in the query's size
    tokens = list(dict.fromkeys(t.casefold() for t in query.split() if len(t) >= 2))
    return whole, tokens


def rank(rec, whole, tokens):
    """(whole match, token points) for a matching record, None for no match."""
    if not whole:
        return (False, 0)
    # NUL cannot occur in a command-line query, so a hit in the NUL-joined text is a hit
    # inside one field: one C-level search per token instead of one per token and field.
    text = "\0".join(_texts(rec)).casefold()
    if whole in text:
        return (True, len(tokens))
    points = sum(1 for t in tokens if t in text)
    return (False, points) if points else None


def _texts(rec):
    for key in ("question", "answer", "rationale"):
        value = rec.get(key)
        if type(value) is str:
            yield value
    tags = rec.get("tags")
    if type(tags) is list:
        yield from (t for t in tags if type(t) is str)


def _could_rank(whole, tokens, top, limit):
    """keep(line): could this raw line still rank among `top` (the heap search fills)? Only
    the lines it keeps are parsed. Never a false negative: the whole query and the tokens are
    compared in their JSON-escaped form against the case-folded line, which holds every field
    (so the hits found are at least the record's own: an upper bound of its rank), a line
    with \\u escapes (which may spell any character) is always kept, and once the heap is
    full a line is dropped only when that bound, or on a tie its decided_at read from its
    bytes (ledger.line_time_key), is below the heap's smallest key."""
    needle = json.dumps(whole, ensure_ascii=False)[1:-1]
    escaped = [json.dumps(t, ensure_ascii=False)[1:-1] for t in tokens]

    def keep(line):
        if b"\\" in line and ledger.has_escapes(line):  # the backslash first: one memchr
            return True
        if whole:
            text = line.decode("utf-8", "replace").casefold()
            if needle in text:
                bound = (True, len(tokens))
            elif len(top) >= limit and top[0][0][0]:
                return False  # the floor holds the whole query: no token count reaches it
            else:
                bound = (False, sum(map(text.__contains__, escaped)))  # in C
                if not bound[1]:
                    return False
        else:
            bound = (False, 0)
        if len(top) < limit:
            return True
        floor = top[0][0]
        if bound != floor[:2]:
            return bound > floor[:2]
        return ledger.could_enter(line, floor[2])
    return keep
