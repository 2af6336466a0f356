"""Verification of stored lines and of `last` (docs/history.md, "Verification on every read and
add"), and StoredEvent.

One parser: every stored line a call does not take from a trusted index (scan.py, indexread.py)
goes through `parse_line`: strict JSON with duplicate-key detection, the schema rules (corrupt
versus unsupported), and every field of the decision and context, exactly as add checks what
it writes, so no line is served on the strength of its head alone (test_s4_verify_fuzz.py).
`StoredEvent` is the one representation of a verified line that add, the views and the index
share.
"""
from __future__ import annotations

import hashlib
import json

from judgment_toolkit.ha.history import model, strictjson
from judgment_toolkit.ha.history.errors import HistoryError, corrupt

EVENTS = "events.jsonl"


class StoredEvent:
    """The one representation of a verified stored line, for verification, add and views.

    Built by `StoredEvent.parse` from the line itself (the strict parser below: the full
    verification) or by `index.decode` from a line of the store's index, which holds exactly
    these facts for lines an add verified in full. `event` (the whole line as a dict) is
    parsed on first use; for an index-built fact it is read back from the events file
    through `reader(offset, length)`.
    """
    __slots__ = ("seq", "offset", "length", "sha256", "request_id", "run_head", "targets",
                 "builds_on", "supersedes", "raw", "_event", "_reader")

    def __init__(self, seq, offset, length, sha256, request_id, run_head, targets=(),
                 builds_on=(), supersedes=(), raw=None, event=None, reader=None):
        self.seq, self.offset, self.length, self.sha256 = seq, offset, length, sha256
        self.request_id, self.run_head = request_id, run_head    # run_head: (seq, sha)
        self.targets, self.builds_on, self.supersedes = targets, builds_on, supersedes
        self.raw, self._event, self._reader = raw, event, reader

    @classmethod
    def parse(cls, raw: bytes, seq: int, offset: int, prev, key: str, path: str = EVENTS,
              sha256: str | None = None) -> "StoredEvent":
        """Verify line `seq` in full (parse_line) and keep its facts."""
        ev = parse_line(raw, seq, prev, key, path)
        d, head = ev["decision"], ev["context"]["run_head"]
        return cls(seq, offset, len(raw), sha256 or hashlib.sha256(raw).hexdigest(),
                   ev["request_id"], (head["seq"], head["sha256"]),
                   tuple(d.get("targets", ())),
                   tuple(int(i[1:]) for i in d.get("builds_on", ())),
                   tuple(int(i["id"][1:]) for i in d.get("supersedes", ())), raw, ev)

    @property
    def event(self) -> dict:
        if self._event is None:
            raw = self.raw if self.raw is not None else self._reader(self.offset, self.length)
            if hashlib.sha256(raw).hexdigest() != self.sha256:
                raise corrupt(f"{EVENTS} line {self.seq} is not the line that was verified "
                              "(it changed while it was read)")
            self._event = json.loads(raw)
        return self._event

    def superseded_ids(self) -> list:
        return [f"D{n}" for n in self.supersedes]

    def __repr__(self):
        return f"StoredEvent(D{self.seq}, {self.sha256[:12]})"


def parse_line(raw: bytes, seq: int, prev, key: str, path: str = EVENTS) -> dict:
    """Parse and verify one stored line as line `seq` following a line hashing to `prev`."""
    where = f"{path} line {seq}"
    try:
        ev = json.loads(raw)
    except (ValueError, RecursionError):
        raise corrupt(f"{where} is not JSON") from None
    if type(ev) is not dict:
        raise corrupt(f"{where} is not a JSON object")
    slow = model.dumps(ev) != raw
    if slow:  # not our canonical encoding: look for repeated keys the dict hid
        ev = strictjson.loads_marking(raw)
        if isinstance(ev, strictjson.DupDict):
            raise corrupt(f"{where} repeats the key {ev.duplicate!r}")
    if tuple(ev) != model.EVENT_KEYS:
        variants = [k for k in ev if isinstance(k, str) and k != "schema"
                    and k.casefold() == "schema"]
        if variants:
            raise corrupt(f"{where} has a schema key spelled {variants[0]!r}")
    schema = ev.get("schema")
    if not isinstance(schema, str) or not schema:
        raise corrupt(f"{where}: schema is missing, empty or not a string")
    m = model.SCHEMA_RE.match(schema)
    if not m:
        raise corrupt(f"{where}: {schema!r} is not a decision-history schema id")
    if m.group(1) != "1":
        raise HistoryError("history_unsupported",
                           f"{where} is {schema}; this ha reads only {model.EVENT_SCHEMA}")
    if slow and strictjson.has_duplicates(ev):
        raise corrupt(f"{where} repeats a key in a nested object")
    if tuple(ev) != model.EVENT_KEYS and set(ev) != set(model.EVENT_KEYS):
        raise corrupt(f"{where} must have exactly the fields {', '.join(model.EVENT_KEYS)}")
    if type(ev["seq"]) is not int or ev["seq"] != seq:
        raise corrupt(f"{where} has seq {ev['seq']!r}; expected {seq}")
    if ev["id"] != f"D{seq}":
        raise corrupt(f"{where} has id {ev['id']!r}; expected D{seq}")
    if ev["prev"] != prev:
        raise corrupt(f"{where}: prev does not match the sha256 of line {seq - 1}"
                      if seq > 1 else f"{where}: the first line's prev must be null")
    at = ev["at"]
    if not isinstance(at, str) or not model.AT_RE.match(at):
        raise corrupt(f"{where}: at must be a UTC time like 2026-01-02T03:04:05Z")
    try:
        model.check_request_id(ev["request_id"])
        decision = model.check_decision(ev["decision"])
        model.check_context(ev["context"], decision, key)
    except HistoryError as exc:
        raise corrupt(f"{where}: {exc.message}") from None
    for ref, n in model.relation_seqs(decision):
        if n >= seq:
            raise corrupt(f"{where}: relation to {ref}, which is not an earlier event")
    return ev


def parse_last(last_raw, path):
    """(seq, sha256) from the `last` file bytes; None when there is no `last`."""
    if last_raw is None:
        return None
    try:
        if len(last_raw) > model.LAST_MAX or not last_raw.endswith(b"\n"):
            raise ValueError
        last = json.loads(last_raw)
        if not (isinstance(last, dict) and set(last) == {"seq", "sha256"}
                and type(last["seq"]) is int and last["seq"] >= 1
                and isinstance(last["sha256"], str) and model.SHA256_RE.match(last["sha256"])):
            raise ValueError
    except ValueError:
        raise corrupt(f"{path} is not a {{seq, sha256}} line") from None
    return last["seq"], last["sha256"]


def check_last(last, count, head_sha, before_sha, path, events_missing) -> bool:
    """Compare `last` with the events; True when it is one event behind."""
    if last is None:
        if count <= 1:
            return count == 1
        raise corrupt(f"{path} is missing while {count} events are stored")
    n, sha = last
    if n > count:
        raise corrupt(f"events are missing from the end: {path} names D{n}, "
                      f"{'no events file exists' if events_missing else f'only {count} stored'}")
    if n == count:
        if sha != head_sha:
            raise corrupt(f"{path} names D{n} with another sha256 than the stored line")
        return False
    if n == count - 1:
        if sha != before_sha:
            raise corrupt(f"{path} names D{n} with another sha256 than the stored line")
        return True
    raise corrupt(f"{path} names D{n} but {count} events are stored")


