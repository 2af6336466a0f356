"""`judgment-ledger prime`: a short Markdown digest of a project's most recent decisions, made to
be injected into an agent's session at its start (a Claude Code SessionStart hook).

Fail-open like append: no ledger or no decision prints nothing; a ledger that cannot be read
(permissions, a folder, a FIFO, an I/O error) is one warning and no digest, never an error, so
a session always starts. The ledger is opened without blocking and must be a regular file: a
FIFO in its place is not waited on.
"""
import re

from . import ledger
from ..output import CONTROL, safe
from .ledger import time_key
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
    records plus the reader's chunk; once the heap is full, a line whose decided_at (read from
    its bytes) is older than all of it is not parsed."""
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
