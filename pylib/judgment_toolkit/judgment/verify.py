"""`judgment-ledger verify`: read the whole ledger and name every line that is not a valid
judgment-ledger.v1 record. Read-only: nothing is repaired, moved or rewritten.

A line is valid when it is UTF-8, one strict JSON object (no repeated keys, no NaN or Infinity)
that the judgment-ledger.v1 schema accepts, ends with LF, and is at most the record cap
(lines.RECORD_MAX) long. Records are immutable, so the same record on two lines (the same id,
the same fields, as a union merge or a cherry-pick leaves it) is one record seen twice: it is
counted once and reported as a repeat, not as damage. A record's identity is (project, id)
(docs/judgment-ledger.md, "The record"): the same id in two projects is two records. The same
identity with different contents is damage: both lines are named (readers use the first). A git conflict marker is named as such
(docs/team-memory.md, "When something went wrong").

Lines come from the one streaming reader (lines.numbered), so memory is one chunk, at most one
record and, per id, its first line's number and a hash of its bytes; an over-long line is
named with its length and never held. A repeated id whose bytes differ is settled by a second
pass that reads only the first lines of those ids (the spelling may differ, the content not).
The schema is checked by a test compiled from it once (fastcheck); jsonschema gives the
reasons of the lines that fail it.
"""
import json

from . import fastcheck, ledger, schema
from ..jsonutil import RepeatedKey, loads_strict
from .lines import RECORD_MAX_TEXT, Overlong, numbered
REASON_MAX = 300  # a reason quotes values from the line (schema messages): keep it readable
CONFLICT_MARKERS = (b"<<<<<<<", b"|||||||", b"=======", b">>>>>>>")


class Unreadable(Exception):
    """The ledger cannot be opened or read; the message says why."""


class Report:
    def __init__(self):
        self.records = 0     # distinct valid records
        self.repeats = 0     # lines that repeat an earlier record exactly (counted once)
        self.bad = []  # (line number, reason)
        self.missing = False  # no file at the path: nothing to verify, which is no pass

    @property
    def ok(self):
        return not self.bad and not self.missing

    def as_json(self):
        doc = {"ok": self.ok, "records": self.records,
               "bad": [{"line": n, "reason": r} for n, r in self.bad]}
        if self.repeats:
            doc["repeats"] = self.repeats
        if self.missing:
            doc["missing"] = True
        return doc


def verify(path):
    """A Report of the ledger at `path` (a missing ledger: 0 records, `missing`, not ok);
    Unreadable when it exists but cannot be read or is not a regular file."""
    report = Report()
    seen = {}       # (project, id) -> (first line number, hash of that line's bytes)
    suspects = []   # (first line number, later line number, later record): same id, other bytes
    valid = _valid()
    for number, line, complete in _lines(path, report):
        found = check_line(line, complete, valid)
        if type(found) is str:
            report.bad.append((number, _cut(found)))
            continue
        key = (found["project"], found["id"])  # a record's identity (writer.find_id)
        first = seen.get(key)
        if first is None:
            seen[key] = (number, hash(line))
            report.records += 1
        elif first[1] == hash(line):
            report.repeats += 1
        else:
            suspects.append((first[0], number, found))
    if suspects:
        _settle(path, report, suspects)
    report.bad.sort()
    return report


def _lines(path, report):
    try:
        raw = ledger.open_read(path)
    except OSError as e:  # NotRegular included: a FIFO, a device or a folder
        raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None
    if raw is None:
        report.missing = True
        return
    with raw as f:
        try:
            yield from numbered(f)
        except OSError as e:
            raise Unreadable(f"cannot read {path}: {e.strerror or e}") from None


def _settle(path, report, suspects):
    """Compare each suspect with its id's first line (read again, those lines only)."""
    wanted = {first for first, _, _ in suspects}
    firsts = {}
    for number, line, _ in _lines(path, Report()):
        if number in wanted:
            firsts[number] = json.loads(line)
    named = set()
    for first, later, rec in suspects:
        if firsts.get(first) == rec:
            report.repeats += 1
            continue
        rid = rec["id"]
        report.bad.append((later, _cut(f"id {rid!r} is already on line {first} with different "
                                       f"content (readers use line {first})")))
        if first not in named:
            named.add(first)
            report.bad.append((first, _cut(f"id {rid!r} is on a later line too (line {later}) "
                                           "with different content; readers use this line")))


def _valid():
    compiled = fastcheck.compile_schema(schema.load(schema.LEDGER))
    return compiled or (lambda rec: not schema.errors(schema.LEDGER, rec))


def check_line(line, complete, valid):
    """The parsed record of a valid record line, else the reason (a str)."""
    if type(line) is Overlong:
        return (f"{line.length} bytes, longer than the record cap of {RECORD_MAX_TEXT} "
                "(not read; search, recall, list, show and prime skip it)")
    if not complete:
        return "incomplete line (no final newline; a torn write?)"
    if not line.strip():
        return "empty line"
    if line.startswith(CONFLICT_MARKERS):
        return ("a git conflict marker (a merge of the ledger was left unresolved; readers "
                "skip it): delete the marker lines and keep the records of both sides")
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
    if valid(rec):
        return rec
    problems = [f"{e.json_path}: {e.message}" for e in schema.errors(schema.LEDGER, rec)]
    return "; ".join(problems) or "not a judgment-ledger.v1 record"


def _cut(reason):
    return reason if len(reason) <= REASON_MAX else reason[:REASON_MAX - 1] + "…"
