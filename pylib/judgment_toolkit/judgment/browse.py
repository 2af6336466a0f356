"""`judgment-ledger list` and `show`: one project's decisions, a page at a time, and one decision.

Both stream the ledger through ledger.records, so they read only the asking project's records
(Judgment Ledger v1, section 'Project Scope') and hold at most one page. Order is prime's:
newest decided_at first, then the later line (ledger.time_key, byte offset). A page ends with a
cursor, the sort key of its last decision spelled `<UTC time>Z_<offset>`; the next page is the
decisions strictly after it in that order, so a page costs one pass and `limit` + 1 records of
memory however deep it is, and appends made between two pages never shift what is left.
"""
import json
import re

from . import ledger
from .ledger import time_key
from .topk import TopK

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
CURSOR = re.compile(r"(?:([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6})Z)?_([0-9]{1,18})")


def cursor_of(key):
    return f"{key[0]}Z_{key[1]}" if key[0] else f"_{key[1]}"  # the time key is UTC


def parse_cursor(text):
    """The sort key a cursor names; ValueError when it is not one (scripts/judgment-ledger.sh
    checks the same grammar first)."""
    m = CURSOR.fullmatch(text)
    if not m:
        raise ValueError(f"not a cursor: {text!r}")
    return (m.group(1) or "", int(m.group(2)))


def page(path, project, limit=DEFAULT_LIMIT, after=None):
    """(records newest first, the cursor of the next page or None): the `limit` decisions of
    `project` that come after the cursor `after` (None: from the newest)."""
    bound = None if after is None else parse_cursor(after)
    top = TopK(limit + 1)  # the newest limit + 1 below the bound, one per id

    def keep(line):  # lines certainly outside the page are not parsed
        key = ledger.line_time_key(line)
        if key is None:
            return True
        if bound is not None and key > bound[0]:
            return False
        return not top.full() or key >= top.heap[0][0][0]
    for offset, rec in ledger.records(path, project, keep):
        key = (time_key(rec["decided_at"]), offset)
        if bound is None or key < bound:
            top.offer(key, rec)
    ranked = top.best()
    more = len(ranked) > limit
    ranked = ranked[:limit]
    return [rec for _, rec in ranked], (cursor_of(ranked[-1][0]) if more else None)


def find(path, project, rec_id):
    """The first record of `project` whose id is `rec_id`, or None. Only lines holding the id's
    JSON string (or an escape that may spell it) are parsed."""
    needle = json.dumps(rec_id, ensure_ascii=False).encode("utf-8", "surrogatepass")

    def keep(line):
        return needle in line or ledger.has_escapes(line)
    for _, rec in ledger.records(path, project, keep):
        if rec["id"] == rec_id:
            return rec
    return None


def summary_line(rec):
    """One decision on one line: time, id, question -> answer (prime's one_line cuts)."""
    from .prime import one_line
    return (f"{one_line(rec['decided_at'], 40)}  {one_line(rec['id'], 80)}  "
            f"{one_line(rec['question'])} → {one_line(rec['answer'])}")


FIELDS = ("id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags")


def details(rec):
    """The decision as `field: value` lines, every field of the record, tags comma-joined;
    a value's line breaks start indented lines, and each line goes through output.safe
    (docs/judgment-ledger.md, "What a person reads")."""
    from ..output import safe
    out = []
    for key in FIELDS + tuple(k for k in rec if k not in FIELDS):
        if key not in rec:
            continue
        value = rec[key]
        if key == "tags" and type(value) is list:
            value = ", ".join(str(t) for t in value)
        elif type(value) is not str:
            value = json.dumps(value, ensure_ascii=False)
        # no trailing blank for an empty value; a line break is indented on
        value = "\n  ".join(safe(part) for part in value.split("\n"))
        out.append(f"{safe(key)}:" + (" " + value if value else ""))
    return "\n".join(out) + "\n"
