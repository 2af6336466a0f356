"""`judgment-ledger verify`: read the whole ledger and name every line that is not a valid
judgment-ledger.v1 record. Read-only: nothing is repaired, moved or rewritten.

A line is valid when it is UTF-8, one strict JSON object (no repeated keys, no NaN or Infinity)
that the judgment-ledger.v1 schema accepts, ends with LF, and carries an id no earlier line of its
project carries, and is at most the record cap (lines.RECORD_MAX) long. Lines come from the one
streaming reader (lines.numbered), so memory is one chunk, at most one record and the set of
ids; an over-long line is named with its length and never held.
"""
from . import ledger, schema
from ..jsonutil import RepeatedKey, loads_strict
from .lines import RECORD_MAX_TEXT, Overlong, numbered
REASON_MAX = 300  # a reason quotes values from the line (schema messages): keep it readable


class Unreadable(Exception):
    """The ledger cannot be opened or read; the message says why."""


class Report:
    def __init__(self):
        self.records = 0
        self.bad = []  # (line number, reason)
        self.missing = False  # no file at the path: nothing to verify, which is no pass

    @property
    def ok(self):
        return not self.bad and not self.missing

    def as_json(self):
        doc = {"ok": self.ok, "records": self.records,
               "bad": [{"line": n, "reason": r} for n, r in self.bad]}
        if self.missing:
            doc["missing"] = True
        return doc


def verify(path):
    """A Report of the ledger at `path` (a missing ledger: 0 records, `missing`, not ok);
    Unreadable when it exists but cannot be read or is not a regular file."""
    report = Report()
    try:
        raw = ledger.open_read(path)
    except OSError as e:  # NotRegular included: a FIFO, a device or a folder
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    if raw is None:
        report.missing = True
        return report
    seen = {}
    with raw as f:
        try:
            for number, line, complete in numbered(f):
                reason = check_line(line, complete, number, seen)
                if reason is None:
                    report.records += 1
                else:
                    report.bad.append((number, _cut(reason)))
        except OSError as e:
            raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    return report


def check_line(line, complete, number, seen):
    """None for a valid record line (its id is then added to `seen`), else the reason."""
    if type(line) is Overlong:
        return (f"{line.length} bytes, longer than the record cap of {RECORD_MAX_TEXT} "
                "(not read; search, recall, list, show and prime skip it)")
    if not complete:
        return "incomplete line (no final newline; a torn write?)"
    if not line.strip():
        return "empty line"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        return f"not UTF-8 ({e.reason} at byte {e.start})"
    try:
        rec = loads_strict(text)
    except RepeatedKey as e:
        return f"repeats the key {e.args[0]!r}"
    except (ValueError, RecursionError) as e:
        return f"not JSON ({e})"
    if type(rec) is not dict:
        return f"not a JSON object (a {type(rec).__name__})"
    problems = [f"{e.json_path}: {e.message}" for e in schema.errors(schema.LEDGER, rec)]
    if problems:
        return "; ".join(problems)
    key = (rec["project"], rec["id"])  # a record's identity (writer.find_id)
    first = seen.get(key)
    if first is not None:
        return f"id {rec['id']!r} is already used on line {first}"
    seen[key] = number
    return None


def _cut(reason):
    return reason if len(reason) <= REASON_MAX else reason[:REASON_MAX - 1] + "…"
