"""Verification of stored lines and of `last` (seed sections 4 and 9), and StoredEvent.

Two levels. Lines up to the one `last` names were checked field by field by the add that wrote
`last`, and the hash chain pins their bytes: they get the cheap checks of `fast_check` (one
header regex for schema, id, seq, prev, request id and `at`; the context marker; relations only
to earlier events). Any other line, or one not in the canonical encoding, goes through
`parse_line`: strict JSON with duplicate-key detection, the schema rules (corrupt versus
unsupported), and every field of the decision and context.
"""
from __future__ import annotations

import json
import re

from . import model, strictjson
from .errors import HistoryError, corrupt

EVENTS = "events.jsonl"


class StoredEvent:
    """One verified line. `event` is parsed on first use (history_corrupt if it cannot be)."""
    __slots__ = ("seq", "offset", "length", "sha256", "raw", "_event", "_rid", "_sup")

    def __init__(self, seq, offset, length, sha256, raw, event=None, rid=None, sup=None):
        self.seq, self.offset, self.length, self.sha256 = seq, offset, length, sha256
        self.raw, self._event, self._rid, self._sup = raw, event, rid, sup

    @property
    def event(self) -> dict:
        if self._event is None:
            try:
                self._event = json.loads(self.raw)
            except (ValueError, RecursionError):
                raise corrupt(f"{EVENTS} line {self.seq} is not JSON") from None
        return self._event

    @property
    def request_id(self) -> str:
        if self._rid is None:
            self._rid = self.event["request_id"]
        return self._rid

    def superseded_ids(self) -> list:
        """The ids this event's `supersedes` names (without parsing the whole line)."""
        if self._sup is None:
            self._sup = [item["id"] for item in self.event["decision"].get("supersedes", ())]
        return self._sup

    def __repr__(self):
        return f"StoredEvent(D{self.seq}, {self.sha256[:12]})"


_HEADER = re.compile(
    rb'\{"schema":"decision-history/v1","id":"D([1-9][0-9]*)","seq":([1-9][0-9]*),'
    rb'"prev":(null|"[0-9a-f]{64}"),"request_id":"([A-Za-z0-9][A-Za-z0-9_.:/-]{0,127})",'
    rb'"at":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z","decision":\{')
_RELATION = re.compile(rb'"(builds_on|supersedes)":\[([^\]]*)\]')
_REL_ID = re.compile(rb'"D([1-9][0-9]*)"')
_SUP_ID = re.compile(rb'"id":"D([1-9][0-9]*)"')


def fast_check(raw: bytes, seq: int, prev, ctx_mark: bytes, path: str):
    """(request id, superseded ids) of a canonical line that passes the cheap checks;
    None -> parse it in full."""
    m = _HEADER.match(raw)
    if m is None:
        return None
    n, s, p, rid = m.groups()
    want = b"%d" % seq
    if n != want or s != want or p != (b"null" if prev is None else b'"%s"' % prev.encode()):
        return None
    k = raw.rfind(ctx_mark)
    if k < 0 or not raw.endswith(b"}}"):
        return None
    superseded = ()
    if b'"builds_on":[' in raw or b'"supersedes":[' in raw:
        for r in _RELATION.finditer(raw, m.end() - 1, k):
            for d in _REL_ID.findall(r.group(2)):
                if int(d) >= seq:
                    raise corrupt(f"{path} line {seq}: relation to D{d.decode()}, which is not "
                                  "an earlier event")
            if r.group(1) == b"supersedes":
                superseded = [f"D{d.decode()}" for d in _SUP_ID.findall(r.group(2))]
    return rid.decode("ascii"), superseded


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


