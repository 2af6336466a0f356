"""The one append of a decision, used by `judgment-ledger append` and by
`judgment-card record-answer` alike (which calls `judgment-ledger.sh append --input -`).

`append` builds and validates the record, then writes it under the ledger's lock; with a given
id it first looks for that id under the same lock (idempotent retries). `append_fail_open`
wraps it in the fail-open rule (Judgment Ledger v1, section 'Fail-Open'): a rejected record is reported and refused, anything
else that goes wrong is one `append skipped (...)` line and the flow goes on. A packaged schema
that is missing is a broken installation and is raised (deps.MissingResource), not skipped.
"""
import sys

from . import deps, exits
from .lines import RECORD_MAX, RECORD_MAX_TEXT

PREFIX = "judgment-ledger: "
# `append --input -`: no JSON text longer than this can hold a record under the cap (a \uXXXX
# escape, the longest spelling of one byte, is 6 bytes), so stdin is never read further.
INPUT_MAX = 6 * RECORD_MAX + 4096


def read_input(stream):
    """The bytes of `append --input -`, at most INPUT_MAX + 1 of them (a longer input is
    refused by fields_from_json without being held)."""
    return stream.read(INPUT_MAX + 1)


class Rejected(Exception):
    """The record is refused (exit 1); str() is the reason."""


def append(given, path=None):
    """(stored record, written) for flag values {field: str}: written is False when the same
    record was already stored under the given id. Raises Rejected, writer.AppendSkipped."""
    from . import ledger, record, writer
    try:
        rec = record.build(given)
    except record.RecordError as e:
        raise Rejected(str(e)) from None
    line = record.to_line(rec)
    if len(line) - 1 > RECORD_MAX:
        raise Rejected(f"record: {len(line) - 1} bytes as a ledger line, over the record cap of "
                       f"{RECORD_MAX_TEXT}; shorten the question, answer or rationale "
                       "(the card keeps the full text; --card-ref points at it)")
    find = (lambda fd, size: writer.find_id(fd, size, rec["id"], rec["project"])) if "id" in given else None
    found = writer.append(path or ledger.default_path(), line, find=find)
    if found is None:
        return rec, True
    if _content(found) != _content(rec):
        raise Rejected(f"id: {rec['id']!r} is already in the ledger with other content; "
                       "nothing was written")
    return found, False


def fields_from_json(raw):
    """The append fields of one JSON object (`append --input -`): every key one of
    record.FLAGS and every value a string, as flags give them. Anything else comes back as
    {_BAD: reason}, which append_fail_open reports as a rejected record (exit 1)."""
    from . import record
    from ..jsonutil import RepeatedKey, loads_strict
    if len(raw) > INPUT_MAX:
        return {_BAD: f"--input: over {INPUT_MAX} bytes, so its record would be over the record "
                      f"cap of {RECORD_MAX_TEXT}; shorten the question, answer or rationale"}
    try:
        doc = loads_strict(raw.decode("utf-8"))
    except RepeatedKey as e:
        return {_BAD: f"--input: the key {e.args[0]!r} is given twice; give each field once"}
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        return {_BAD: f"--input: not one JSON object: {e}"}
    if type(doc) is not dict:
        return {_BAD: "--input: not one JSON object"}
    for key, value in doc.items():
        if key not in record.FLAGS:
            return {_BAD: f"{key}: not an append field (one of {', '.join(record.FLAGS)})"}
        if type(value) is not str:
            return {_BAD: f"{key}: must be a string, as its flag gives it"}
    return doc


_BAD = "\0rejected"  # no field name can be this key: fields_from_json's refusal


def _content(rec):
    """What a retry must repeat: every field but the time of the decision (set by append)."""
    return {k: v for k, v in rec.items() if k != "decided_at"}


def append_fail_open(given, path=None, err=None):
    """(exit code, stored record or None); prints the one stderr line of a refusal or a skip."""
    err = err or sys.stderr
    missing = deps.missing()
    if missing:
        return _skipped(err, deps.skip_reason(missing))
    from . import writer
    try:
        if _BAD in given:
            raise Rejected(given[_BAD])
        rec, _ = append(given, path)
        return exits.OK, rec
    except Rejected as e:
        print(f"{PREFIX}append rejected ({e})", file=err, flush=True)
        return exits.REJECTED, None
    except writer.AppendSkipped as e:
        return _skipped(err, str(e))
    except deps.MissingResource:
        raise
    except Exception as e:  # anything unforeseen: still never block a judgment flow
        return _skipped(err, f"unexpected {type(e).__name__}: {e}")


def _skipped(err, reason):
    print(f"{PREFIX}append skipped ({reason})", file=err, flush=True)
    return exits.OK, None
