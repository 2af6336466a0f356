"""The small helpers both subpackages share, with nothing heavy to import: the one compact
JSON encoding of every line the toolkit stores or prints, the strict JSON reading of what a
caller or a ledger line gives (no repeated key, no NaN or Infinity), and the UTC clock."""
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


class RepeatedKey(ValueError):
    """An object repeats a key; args[0] is the key. Plain json.loads would keep the last value
    silently, so `{"project":"p","project":"q"}` would be stored under q."""


def no_repeats(pairs):
    """An object_pairs_hook: the object as a dict, RepeatedKey when a key comes twice."""
    out = dict(pairs)  # C speed; the search for the repeated key only when there is one
    if len(out) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)
    return out


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def loads_strict(text):
    """JSON text parsed strictly: RepeatedKey for an object that repeats a key, ValueError for
    NaN, Infinity or text that is not JSON (RecursionError for absurd nesting). `judgment-ledger
    verify` reads every line and `append --input -` its input with it."""
    return json.loads(text, object_pairs_hook=no_repeats, parse_constant=_no_constant)


def utc_now() -> str:
    """Now in UTC as RFC 3339 with whole seconds and `Z` (2026-01-02T03:04:05Z)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
