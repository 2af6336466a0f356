"""`judgment-ledger merge BASE OURS THEIRS`: git's merge driver for a ledger shared through git
(docs/team-memory.md, "What the merge does").

Ledger records are immutable facts, one id one decision, so two sides merge as a union by
record, whatever order or branch they arrived in:

- every record of either side is kept; the same record on both sides (the same id and the
  same fields, however spelled) is kept once;
- the same id with different contents is kept twice, both lines, and said on stderr:
  `judgment-ledger verify` names that damage, and readers use the first line;
- a line that is not a record (conflict markers of a merge done by hand, a torn line, any
  other text) is never dropped silently: it is kept once, after the records (in byte
  order), unless it was in BASE and one side removed it (that side's fix wins); empty
  lines are dropped;
- the result is canonical: records sorted by decided_at (as UTC), then id, then the line's
  bytes, so merging A into B and B into A write the same bytes, and the next merge of
  the two sides has nothing left to merge.

The result replaces OURS (git's %A) in one rename; the exit is 0 (merged) or 1 (a side
cannot be read: git then reports a conflict and leaves its own copy). Time is linear in the
two sides (plus the sort; bench/team.py): most lines are never parsed (merged_lines).
"""
import json
import os
import sys

from .ledger import line_time_key, time_key


class Unreadable(Exception):
    """A side of the merge cannot be read; the message says which and why."""


def _lines(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    return data.split(b"\n")


_ID_HEAD = b'{"id":"'


def _fast_key(line):
    """(sort key, id) read from the bytes of a line as append writes it (id first, no
    backslash, so every quote delimits a string), without parsing; None for any other line."""
    if not line.startswith(_ID_HEAD) or b"\\" in line:
        return None
    end = line.find(b'"', 7)
    at = line_time_key(line)
    if end == -1 or at is None:
        return None
    try:
        return at, line[7:end].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _record_key(line):
    """(sort key, id, the parsed record) for a record line, else None. A record here is what
    readers could use: a JSON object whose id is a string."""
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if type(rec) is not dict or type(rec.get("id")) is not str:
        return None
    at = rec.get("decided_at")
    return (time_key(at) if type(at) is str else ""), rec["id"], rec


def _parsed(line):
    try:
        return json.loads(line)
    except (ValueError, RecursionError):
        return line  # a line that only looked like a record: equal to nothing else


def merged_lines(base, ours, theirs):
    """The canonical merged ledger as a list of lines (bytes, no LF), and the ids that carry
    two different records. Each argument is a list of lines (bytes, no LF).

    Most lines are never parsed: a line both sides hold byte for byte is one line, and the id
    and time of a line as append writes it are read from its bytes. Only an id that arrives
    as two different lines has them parsed, to tell one record spelled twice (kept once, in
    its smallest spelling, the same whichever side is ours) from two records."""
    seen = dict.fromkeys(ours)  # line bytes -> None, ours then theirs: each line once
    seen.update(dict.fromkeys(theirs))
    by_id = {}  # id -> [(sort key, line bytes), ...]
    others = []
    for line in seen:
        found = _fast_key(line)
        if found is None:
            if not line.strip():
                continue
            slow = _record_key(line)
            if slow is None:
                others.append(line)
                continue
            found = slow[:2]
        held = by_id.get(found[1])
        if held is None:
            by_id[found[1]] = [(found[0], line)]
        else:
            held.append((found[0], line))
    damaged = []
    for rec_id, held in by_id.items():
        if len(held) > 1:
            held[:] = _distinct(held)
            if len(held) > 1:
                damaged.append(rec_id)
    if others:
        base_set = set(base)
        in_both_sides = set(ours) & set(theirs)
        others = [line for line in others if line not in base_set or line in in_both_sides]
    ordered = sorted((key, rec_id, line) for rec_id, held in by_id.items() for key, line in held)
    return [line for _, _, line in ordered] + sorted(others), sorted(damaged)


def _distinct(held):
    """The lines of one id with the same record spelled twice kept once (smallest spelling)."""
    kept = []  # [(sort key, line), parsed]
    for key, line in sorted(held, key=lambda kl: kl[1]):
        rec = _parsed(line)
        if not any(rec == other for _, other in kept):
            kept.append(((key, line), rec))
    return [entry for entry, _ in kept]


def merge(base_path, ours_path, theirs_path):
    """Merge the three files as git's %O %A %B and write the result over `ours_path`.
    Returns the ids that carry two different records."""
    base, ours, theirs = (_lines(p) for p in (base_path, ours_path, theirs_path))
    lines, damaged = merged_lines(base, ours, theirs)
    data = b"".join(line + b"\n" for line in lines)
    tmp = f"{ours_path}.judgment-merge.{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, ours_path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise Unreadable(f"cannot write {ours_path}: {e.strerror or e}") from None
    return damaged


def warn_damaged(tool, damaged):
    if damaged:
        shown = ", ".join(repr(i) for i in damaged[:5]) + (" ..." if len(damaged) > 5 else "")
        print(f"{tool}: merge: {len(damaged)} id(s) carry two different records ({shown}); "
              "both lines are kept; judgment-ledger verify names them", file=sys.stderr)
