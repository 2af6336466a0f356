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
two sides (plus the sort): a line both sides hold byte for byte is parsed once.
"""
import json
import os
import sys

from .ledger import time_key


class Unreadable(Exception):
    """A side of the merge cannot be read; the message says which and why."""


def _lines(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    return data.split(b"\n")


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


def merged_lines(base, ours, theirs):
    """The canonical merged ledger as a list of lines (bytes, no LF), and the ids that carry
    two different records. Each argument is a list of lines (bytes, no LF)."""
    seen = {}  # line bytes -> None, in first-seen order (ours, then theirs)
    for line in ours:
        seen[line] = None
    for line in theirs:
        seen[line] = None
    by_id = {}  # id -> [[sort key, line bytes, record], ...]: one entry per distinct content
    others = []
    for line in seen:
        if not line.strip():
            continue
        found = _record_key(line)
        if found is None:
            others.append(line)
            continue
        key, rec_id, rec = found
        held = by_id.get(rec_id)
        if held is None:
            by_id[rec_id] = [[key, line, rec]]
            continue
        for entry in held:
            if entry[2] == rec:  # the same record spelled twice: keep the smallest spelling,
                entry[1] = min(entry[1], line)  # the same whichever side is ours
                break
        else:
            held.append([key, line, rec])
    if others:
        base_set = set(base)
        in_both_sides = set(ours) & set(theirs)
        others = [line for line in others if line not in base_set or line in in_both_sides]
    ordered = sorted((key, rec_id, line) for rec_id, held in by_id.items()
                     for key, line, _ in held)
    damaged = sorted(rec_id for rec_id, held in by_id.items() if len(held) > 1)
    return [line for _, _, line in ordered] + sorted(others), damaged


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
