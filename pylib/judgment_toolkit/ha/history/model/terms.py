"""The contract's terms: schema ids, kinds and statuses, documented limits, id grammars, the
reading of untrusted numbers and ids (docs/history.md, "Fields and limits"), and the bytes of
event lines, `last` and receipts (docs/internals.md, "Event line")."""
from __future__ import annotations

import json
import re

from judgment_toolkit.jsonutil import compact, compact_bytes, utc_now  # noqa: F401 (utc_now: add)
from judgment_toolkit.ha import ids
from judgment_toolkit.ha.history.errors import invalid_input

EVENT_SCHEMA = "decision-history/v1"
RECEIPT_SCHEMA = "decision-receipt/v1"
SCHEMA_RE = re.compile(r"decision-history/v([1-9][0-9]*)\Z")

# kind -> the claim statuses it may carry; the same tokens as PROGRESS
KINDS = {
    "관측": (),
    "원인": ("가설", "확정", "기각"),
    "결정": (),
    "조치": ("예정", "반영"),
    "검증": ("대기", "통과", "실패"),
    "막힘": (),
    "재개": (),
}

# Documented limits (docs/history.md). Input over one of these is limit_exceeded (exit 64).
SUMMARY_MAX = 1024           # bytes, UTF-8, one line
REASON_MAX = 16 * 1024       # bytes, UTF-8, newlines allowed
RELATIONS_MAX = 64           # ids per relation (builds_on, supersedes)
TARGETS_MAX = 64
EVIDENCE_MAX = 64
TEXT_MAX = 4096              # bytes of a path, repository, external ref
LABEL_MAX = 1024             # bytes of a file section or an external version
INPUT_MAX = 256 * 1024       # bytes of an --input document
INPUT_DEPTH_MAX = 16         # nesting of arrays/objects in an --input document
LINE_MAX = 1024 * 1024       # bytes of one stored event line (without LF); longer is corrupt
LAST_MAX = 4096              # bytes of the `last` file
FILE_READ_MAX = 64 * 1024 * 1024  # bytes read from a file evidence; more is `too_large`

REQUEST_ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/-]{0,127}\Z")
EVENT_ID_RE = re.compile(r"D([1-9][0-9]*)\Z")  # any length: decimal() caps, so a huge id names no event
TARGET_RE = ids.TARGET      # the one grammar of goal target ids (ha/ids.py)
SHA256_RE = re.compile(r"[0-9a-f]{64}\Z")
COMMIT_RE = re.compile(r"[0-9a-fA-F]{7,64}\Z")
FULL_COMMIT_RE = re.compile(r"(?:[0-9a-f]{40}|[0-9a-f]{64})\Z")
SEQ_RE = re.compile(r"[1-9][0-9]{0,17}\Z")
SEQ_MAX = 10 ** 18 - 1       # the largest seq a reference may name (SEQ_RE: 18 digits)
AT_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\Z")
RFC3339_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
                        r"(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))\Z")

DECISION_KEYS = ("kind", "status", "summary", "reason", "targets", "evidence", "builds_on",
                 "supersedes", "event_at")
EVENT_KEYS = ("schema", "id", "seq", "prev", "request_id", "at", "decision", "context")
CONTEXT_KEYS = ("start", "run_head", "goal", "commit", "tree_clean", "spec_digest", "evidence")
EVIDENCE_FIELDS = {  # type -> (required field, optional field)
    "run": ("seq", "sha256"),
    "file": ("path", "section"),
    "commit": ("commit", "repository"),
    "external": ("ref", "version"),
}
FILE_STATES = ("read", "missing", "not_regular", "outside", "unreadable", "too_large")
OBSERVATION_STATES = {
    "run": ("matched",),
    "file": FILE_STATES,
    "commit": ("found", "not_found", "other_repository"),
    "external": ("not_checked",),
}

def utf8_len(text: str, what: str) -> int:
    try:
        return len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise invalid_input(f"{what} is not valid UTF-8") from None

def decimal(digits: str, ceiling: int = SEQ_MAX + 1) -> int:
    """The value of a string of ASCII digits (else ValueError), capped at `ceiling`: linear in
    the length and never Python's int digit limit, so a 5000-digit id, seq or count is just too
    large. For every reader of untrusted numbers (e.g. `decimal(raw, LIMIT_MAX + 1)`)."""
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"not a decimal number: {digits[:24]!r}")
    significant = digits.lstrip("0")
    if len(significant) > len(str(ceiling)):
        return ceiling
    return min(int(significant or "0"), ceiling)


def json_int(text: str) -> int:
    """`parse_int` for untrusted JSON: integers beyond +-SEQ_MAX come back as +-(SEQ_MAX + 1),
    a value every field check refuses (no field may hold a larger number)."""
    if text.startswith("-"):
        return -decimal(text[1:])
    return decimal(text)


def check_request_id(value, what="request id") -> str:
    if not isinstance(value, str) or not REQUEST_ID_RE.match(value):
        shown = value if isinstance(value, str) else json.dumps(value)
        raise invalid_input(f"{what} {shown!r} must match [A-Za-z0-9][A-Za-z0-9_.:/-]{{0,127}}")
    return value


def event_seq(event_id) -> int:
    """The seq of a `D<n>` id (capped at SEQ_MAX + 1: an id that long names no event, like any
    id past the last one); invalid_input when it does not look like one."""
    m = EVENT_ID_RE.match(event_id) if isinstance(event_id, str) else None
    if not m:
        raise invalid_input(f"event id {event_id!r} must look like D1, D2, ...")
    return decimal(m.group(1))


dumps = compact_bytes  # the one compact encoding of every history file (no LF)


def event_line(seq: int, prev, request_id: str, at: str, decision: dict, context: dict) -> bytes:
    """The raw bytes of an event line, without its LF."""
    return dumps({"schema": EVENT_SCHEMA, "id": f"D{seq}", "seq": seq, "prev": prev,
                  "request_id": request_id, "at": at, "decision": decision,
                  "context": context})


def last_bytes(seq: int, sha256: str) -> bytes:
    return dumps({"seq": seq, "sha256": sha256}) + b"\n"


def receipt_line(seq: int, request_id: str, sha256: str, replayed: bool) -> str:
    return compact({"schema": RECEIPT_SCHEMA, "id": f"D{seq}", "request_id": request_id,
                    "seq": seq, "sha256": sha256, "replayed": replayed})
