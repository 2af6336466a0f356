"""Strict JSON for `add --input`, and the duplicate-key-aware parser of stored lines.

--input refuses, with invalid_input: invalid UTF-8 (and a BOM), duplicate keys, keys that
differ only in case, NaN/Infinity, trailing data, lone surrogates; with limit_exceeded: more
than INPUT_MAX bytes or nesting deeper than INPUT_DEPTH_MAX.

Every check is one pass over the input (bench/input_checks.py prints the figures): the depth
scan reads each byte once (a string token never backtracks: an unterminated one simply runs
to the end), and integers are read by model.json_int, which never converts more digits than a
seq can have (no quadratic conversion, no Python int digit limit).
"""
from __future__ import annotations

import json
import re
from itertools import accumulate

from judgment_toolkit.ha.history.errors import invalid_input, limit_exceeded
from judgment_toolkit.jsonutil import RepeatedKey, no_repeats
from judgment_toolkit.ha.history.model import INPUT_DEPTH_MAX, INPUT_MAX, json_int

# A string token, its closing quote optional: a match never fails, so it is never retried from a
# later quote and `sub` is one pass (an unterminated string just runs to the end).
_STRINGS = re.compile(rb'"(?:[^"\\]+|\\.)*"?', re.S)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_DELTA = [0] * 256  # byte -> change of nesting level
for _b in b"[{":
    _DELTA[_b] = 1
for _b in b"]}":
    _DELTA[_b] = -1


class DupDict(dict):
    """A parsed object that had a repeated key (kept so callers can tell where)."""
    duplicate = None


def _pairs_marking(pairs):
    d = DupDict() if len({k for k, _ in pairs}) != len(pairs) else {}
    for k, v in pairs:
        if isinstance(d, DupDict) and k in d and d.duplicate is None:
            d.duplicate = k
        d[k] = v
    return d


def _pairs_strict(pairs):
    """jsonutil.no_repeats (the one repeated-key rule, `judgment-ledger append --input -` and
    `verify` too), then history's own: no two keys that differ only in case."""
    try:
        d = no_repeats(pairs)
    except RepeatedKey as exc:
        raise invalid_input(f"--input: duplicate key {exc.args[0]!r}") from None
    folded = {}
    for k in d:
        other = folded.setdefault(k.casefold(), k)
        if other != k:
            raise invalid_input(f"--input: keys {other!r} and {k!r} differ only in case")
    return d


def _no_constant(name):
    raise invalid_input(f"--input: {name} is not JSON")


def depth(data: bytes) -> int:
    """Deepest nesting of arrays/objects, strings skipped: one regex pass, one translate and a
    running sum, all at C speed (no recursion, no per-byte Python loop)."""
    brackets = _STRINGS.sub(b"", data).translate(None, _NOT_BRACKETS)
    return max(0, max(accumulate(map(_DELTA.__getitem__, brackets)), default=0))


def _check_strings(obj):
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
        elif isinstance(o, str):
            try:
                o.encode("utf-8")
            except UnicodeEncodeError:
                raise invalid_input("--input: a string holds a lone surrogate escape") from None


def parse_input(data: bytes):
    if len(data) > INPUT_MAX:
        raise limit_exceeded(f"--input is larger than {INPUT_MAX} bytes")
    if data.startswith(b"\xef\xbb\xbf"):
        raise invalid_input("--input starts with a byte order mark")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise invalid_input(f"--input is not valid UTF-8 (byte {exc.start})") from None
    if depth(data) > INPUT_DEPTH_MAX:
        raise limit_exceeded(f"--input nests deeper than {INPUT_DEPTH_MAX} levels")
    decoder = json.JSONDecoder(object_pairs_hook=_pairs_strict, parse_constant=_no_constant,
                               parse_int=json_int)
    start = len(text) - len(text.lstrip(" \t\r\n"))
    try:
        obj, end = decoder.raw_decode(text, start)
    except json.JSONDecodeError as exc:
        raise invalid_input(f"--input is not JSON: {exc.msg} at line {exc.lineno} "
                            f"column {exc.colno}") from None
    except RecursionError:
        raise limit_exceeded(f"--input nests deeper than {INPUT_DEPTH_MAX} levels") from None
    if text[end:].strip(" \t\r\n"):
        raise invalid_input("--input has data after the JSON value")
    _check_strings(obj)
    return obj


def loads_marking(raw: bytes):
    """Parse a stored line; objects with repeated keys come back as DupDict."""
    return json.loads(raw, object_pairs_hook=_pairs_marking, parse_int=json_int)


def has_duplicates(obj) -> bool:
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, DupDict):
            return True
        if isinstance(o, dict):
            stack.extend(o.values())
        elif isinstance(o, list):
            stack.extend(o)
    return False
