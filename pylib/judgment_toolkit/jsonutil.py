"""The two small helpers both subpackages share, with nothing heavy to import: the one
compact JSON encoding of every line the toolkit stores or prints, and the UTC clock."""
from __future__ import annotations

import json
import time


def compact(obj, *, ascii_only: bool = False, sort_keys: bool = False) -> str:
    """JSON without spaces (`{"a":1,"b":[2,3]}`); non-ASCII stays unescaped unless
    `ascii_only` (then a lone surrogate can be encoded too)."""
    return json.dumps(obj, ensure_ascii=ascii_only, separators=(",", ":"), sort_keys=sort_keys)


def compact_bytes(obj) -> bytes:
    """compact(obj) as UTF-8: a stored line's bytes, without its LF."""
    return compact(obj).encode("utf-8")


def utc_now() -> str:
    """Now in UTC as RFC 3339 with whole seconds and `Z` (2026-01-02T03:04:05Z)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
