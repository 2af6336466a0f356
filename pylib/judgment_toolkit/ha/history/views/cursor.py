"""Opaque, self-checking view cursors (docs/history-views.md, "Cursors").

Two kinds:

- `c1.` boundary cursor, on every result: where the result's history range ended (the seq and
  line hash of its last event) and the run head it was judged against. `--since` takes one.
- `p1.` page cursor, in `next` when a list was cut: the same boundary (the range of the first
  page), plus the view, a digest of the query and the position reached. `--page` takes one.

A cursor is `<kind>.<base64url payload>.<base64url check>`; the payload is compact JSON and
the check is the first 12 bytes of sha256(DOMAIN, store key, kind, payload). The store key
(the start line's sha256) is in the check but not in the payload, so a cursor of another
history, or an altered one, fails the check and is refused as `cursor_invalid` instead of being
misread. This is a consistency check, not a secret: like the history itself, it is local.

This module only encodes and checks. Whether a valid cursor still fits the store, the chain or
the query (`cursor_invalid`, `cursor_stale`, `cursor_mismatch`) is decided by the views.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections import namedtuple

from judgment_toolkit.jsonutil import compact

from judgment_toolkit.ha.history.errors import HistoryError
from judgment_toolkit.ha.history.model import json_int

DOMAIN = b"ha decision-history-view/v1 cursor\0"
BOUNDARY = "c1"
PAGE = "p1"
_CHECK_BYTES = 12
_END_SHA_HEX = 24      # enough of a line hash to tell another line or history apart
_MAX_TEXT = 4096
_MAX_DEPTH = 2         # {"h": [seq, sha]} / {"o": [positions]}: the deepest payload we write


# end: seq of the last event in range (0: no events); end_sha: first 24 hex of that line's
# sha256, None when end is 0; head: the run head {seq, sha256} the result was judged against (a
# decoded cursor holds the first 24 hex of the sha256). A tuple: no dataclasses at start-up.
Boundary = namedtuple("Boundary", "end end_sha head")
# view: "current", "list" or "show"; query: digest of the view's query (query.Query.digest);
# pos: positions reached, one int per paged list
Page = namedtuple("Page", "boundary view query pos")


def short_sha(sha: str | None) -> str | None:
    return None if sha is None else sha[:_END_SHA_HEX]


def boundary_cursor(key: str, b: Boundary) -> str:
    return _encode(BOUNDARY, key, _boundary_payload(b))


def page_cursor(key: str, p: Page) -> str:
    payload = _boundary_payload(p.boundary)
    payload.update(v=p.view, q=p.query, o=list(p.pos))
    return _encode(PAGE, key, payload)


def read_boundary(key: str, text: str, flag: str = "--since") -> Boundary:
    return _boundary(_decode(BOUNDARY, key, text, flag), flag)


def read_page(key: str, text: str, flag: str = "--page") -> Page:
    payload = _decode(PAGE, key, text, flag)
    view, query, pos = payload.get("v"), payload.get("q"), payload.get("o")
    if (not isinstance(view, str) or not isinstance(query, str) or not isinstance(pos, list)
            or not all(type(n) is int and n >= 0 for n in pos)):
        raise _invalid(flag, "its content is not a page position")
    return Page(_boundary(payload, flag), view, query, tuple(pos))


def _boundary_payload(b: Boundary) -> dict:
    head = None if b.head is None else [b.head["seq"], short_sha(b.head["sha256"])]
    return {"e": b.end, "s": short_sha(b.end_sha), "h": head}


def _boundary(payload: dict, flag: str) -> Boundary:
    end, end_sha, head = payload.get("e"), payload.get("s"), payload.get("h")
    if type(end) is not int or end < 0:
        raise _invalid(flag, "its content is not a history boundary")
    if (end == 0) != (end_sha is None) or not (end_sha is None or isinstance(end_sha, str)):
        raise _invalid(flag, "its content is not a history boundary")
    if head is not None:
        if (not isinstance(head, list) or len(head) != 2 or type(head[0]) is not int
                or not isinstance(head[1], str)):
            raise _invalid(flag, "its content is not a history boundary")
        head = {"seq": head[0], "sha256": head[1]}
    return Boundary(end, end_sha, head)


def _check(kind: str, key: str, body: bytes) -> bytes:
    h = hashlib.sha256(DOMAIN)
    h.update(key.encode("ascii", "replace") + b"\0" + kind.encode("ascii") + b"\0" + body)
    return h.digest()[:_CHECK_BYTES]


def _encode(kind: str, key: str, payload: dict) -> str:
    body = compact(payload, ascii_only=True, sort_keys=True).encode("ascii")
    return f"{kind}.{_b64(body)}.{_b64(_check(kind, key, body))}"


def _decode(kind: str, key: str, text: str, flag: str) -> dict:
    import hmac  # only a cursor given back (--since, --page) is checked
    from judgment_toolkit.ha.history import strictjson
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise _invalid(flag, "it is not a cursor")
    parts = text.split(".")
    if len(parts) != 3 or parts[0] not in (BOUNDARY, PAGE):
        raise _invalid(flag, "it is not a cursor")
    if parts[0] != kind:
        want = "a c1. boundary cursor" if kind == BOUNDARY else "a p1. page cursor"
        raise _invalid(flag, f"it takes {want}, not a {parts[0]}. cursor")
    try:
        body, check = _unb64(parts[1]), _unb64(parts[2])
    except ValueError:
        raise _invalid(flag, "it is not a cursor") from None
    if not hmac.compare_digest(check, _check(kind, key, body)):
        raise _invalid(flag, "it was made for another history or has been altered")
    payload = None
    if strictjson.depth(body) <= _MAX_DEPTH:  # a forged deep payload never reaches json
        try:
            payload = json.loads(body.decode("utf-8"), parse_int=json_int)
        except (UnicodeDecodeError, ValueError):
            pass
    if not isinstance(payload, dict):
        raise _invalid(flag, "its content is not readable")
    return payload


def _invalid(flag: str, why: str) -> HistoryError:
    return HistoryError("cursor_invalid", f"{flag}: {why}")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    if not text or any(c not in _B64_CHARS for c in text):
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


_B64_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
