"""`judgment-ledger prime`: a short Markdown digest of a project's most recent decisions, made to
be injected into an agent's session at its start (a Claude Code SessionStart hook).

Fail-open like append: no ledger or no decision prints nothing; a ledger that cannot be read
(permissions, a folder, a FIFO, an I/O error) is one warning and no digest, never an error, so
a session always starts. The ledger is opened without blocking and must be a regular file: a
FIFO in its place is not waited on.
"""
import heapq
import re

from . import ledger
from ..output import CONTROL, safe
from .ledger import time_key
from .lines import Overlong, blocks
from .topk import TopK

DEFAULT_LIMIT = 5
MAX_LIMIT = 50
FIELD_MAX = 160  # characters of a question or an answer; longer ones are cut with "…"
_SPACE = re.compile(r"\s+")


class Unreadable(Exception):
    """The ledger exists but cannot be read; the message says why."""


def recent(path, project, limit=DEFAULT_LIMIT):
    """The project's `limit` most recent records, newest first (decided_at, then the later
    line; a record on several lines counts once, judgment.topk). Memory is the heap of `limit`
    records plus the reader's chunk.

    A ledger is appended in time order, so read forward every line is newer than the heap and
    would enter it; parsing each is most of prime's cost. So the first pass parses only what it
    prints: it ranks lines by the decided_at read from their bytes (ledger.line_time_key) and
    parses a line only when the bytes cannot tell, then the `limit` lines left at the end. If
    one of those is not a record of the project after all (the project's name in another
    field, a line that is not JSON), the exact pass runs: every line that can still enter is
    parsed, as before. The exact pass also runs when two of the kept lines are one record (a
    ledger that git merged can repeat a line), so a repeat never takes two places."""
    try:
        fast = _recent_unparsed(path, project, limit)
    except OSError as e:  # NotRegular included: a FIFO, a device or a folder is not waited on
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    return fast if fast is not None else _recent_parsed(path, project, limit)


def _recent_unparsed(path, project, limit):
    """recent's first pass; None when a line it kept unparsed turns out to be no record. A
    block whose lines of the project are all as append writes them (_canonical) is ranked by
    one expression over the block and a C-speed selection of its `limit` newest; any other
    block line by line."""
    f = ledger.open_read(path)
    if f is None:
        return []
    needle = ledger.project_needle(project)
    pattern = _CANONICAL % re.escape(needle)
    canonical = (re.compile(b"\n" + pattern), re.compile(pattern))
    top = []

    def offer(key, offset, line):
        if key is None:
            item = ledger.record_of(line, project)
            if item is None:
                return
            key = time_key(item["decided_at"])
        elif len(top) == limit and (key, offset) <= top[0][0]:
            return
        else:
            item = bytes(line)
        entry = ((key, offset), item)
        if len(top) < limit:
            heapq.heappush(top, entry)
        elif entry[0] > top[0][0]:
            heapq.heapreplace(top, entry)
    with f:
        for block in blocks(f):
            if type(block) is Overlong:
                continue  # a line over the record cap is no candidate (ledger.candidate_lines)
            base, buf, cut = block
            stamps = _canonical(canonical, needle, buf, cut)
            if stamps is None:
                for offset, line in ledger._scan(base, buf, cut, needle):
                    offer(ledger.line_time_key(line), offset, line)
                continue
            # the block's newest, by time then the later line, as offer ranks them
            for stamp, start in heapq.nlargest(limit, stamps):
                end = buf.find(b"\n", start, cut)
                offer(time_key(stamp.decode("ascii")), base + start,
                      buf[start:cut if end == -1 else end])
    found, ids = [], set()
    for _, item in sorted(top, key=lambda e: e[0], reverse=True):
        rec = ledger.record_of(item, project) if type(item) is bytes else item
        if rec is None or rec["id"] in ids:
            return None
        ids.add(rec["id"])
        found.append(rec)
    return found


# a line as judgment-ledger's append writes it, up to its decided_at in the Z form: the time's
# text then sorts as the time does (time_key); the project's needle put in at %s. Searched
# after an LF (a literal start, several times faster than a multi-line "^"), and at the
# block's start.
_CANONICAL = ledger.possessive(rb'\{"id":"[^"\n]*+","project":%s,"decided_at":"'
                               rb'([0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z)"')


def _canonical(patterns, needle, buf, cut):
    """[(decided_at bytes, line start)] of the project's lines in buf[:cut], when every line
    that holds the needle is one such line holding it once, in a block without a backslash:
    then these are exactly the candidates of ledger._scan, each with the time line_time_key
    reads from its bytes. None otherwise (the block is read line by line). `patterns`:
    _CANONICAL with the needle, after an LF and alone."""
    if buf.find(b"\\", 0, cut) != -1:
        return None
    after_lf, first = patterns
    found = [(m.group(1), m.start() + 1) for m in after_lf.finditer(buf, 0, cut)]
    m = first.match(buf, 0, cut)
    if m is not None:
        found.append((m.group(1), 0))
    return found if len(found) == buf.count(needle, 0, cut) else None


def _recent_parsed(path, project, limit):
    """recent's exact pass: a full heap's oldest decides which lines are parsed at all."""
    top = TopK(limit)

    def keep(line):  # a full heap's oldest: older lines are not parsed
        return not top.full() or ledger.could_enter(line, top.heap[0][0][0])
    for offset, rec in _records(path, project, keep):
        top.offer((time_key(rec["decided_at"]), offset), rec)
    return [rec for _, rec in top.best()]


def _records(path, project, keep=None):
    """The project's records; Unreadable when the ledger exists but cannot be read."""
    try:
        yield from ledger.records(path, project, keep)
    except OSError as e:  # NotRegular included: a FIFO, a device or a folder is not waited on
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None


def one_line(text, limit=FIELD_MAX):
    """Text on one line for a person (runs of white space, line breaks included, as one
    space), cut to `limit` characters, then through output.safe: a text still holding a control
    character (ESC, say) is shown as a quoted JSON string (docs/judgment-ledger.md, "What a
    person reads")."""
    return safe(_flat(text, limit))


def _flat(text, limit):
    text = _SPACE.sub(" ", text).strip()
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def recall_command(project):
    """The recall command for this project: the project one line, quoted for the shell."""
    import shlex
    return f"judgment-ledger recall --project {shlex.quote(_flat(project, 200))} --question TEXT"


def _hint(project):
    """recall_command as a Markdown code span; a span holding a backtick is fenced with two."""
    cmd = recall_command(project)
    if CONTROL.search(cmd):
        cmd = safe(cmd)
    return f"`` {cmd} ``" if "`" in cmd else f"`{cmd}`"


def as_json(project, records):
    """The digest's content as one JSON document (`prime --json`): the same decisions with the
    same fields, uncut, and the same recall command."""
    return {"project": project,
            "decisions": [{k: rec[k] for k in ("question", "answer", "decided_at", "id")}
                          for rec in records],
            "recall": recall_command(project)}


def markdown(project, records):
    """The digest; the empty string when there are no records."""
    if not records:
        return ""
    lines = [f"## Recent judgments: {one_line(project, 80)}", "",
             "Decisions a person made on earlier decision cards of this project, newest first. "
             f"Recall more with {_hint(project)}.", ""]
    for rec in records:
        lines.append(f"- {one_line(rec['question'])} → **{one_line(rec['answer'])}** "
                     f"({one_line(rec['decided_at'], 40)}, id `{one_line(rec['id'], 80).replace('`', chr(39))}`)")
    return "\n".join(lines) + "\n"
