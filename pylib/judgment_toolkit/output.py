"""The one way every command line writes its results: UTF-8 bytes on stdout, whatever the
locale says (the formats are UTF-8 text, JSON and Markdown with Korean tokens), and a reader
that left (`... | head -1`) ends the output quietly instead of with a traceback.
"""
from __future__ import annotations

import json
import os
import re
import sys

# What must not reach a terminal as is: C0 and C1 controls (ESC starts a terminal escape
# sequence, CR rewrites the line) and the Unicode line and paragraph separators.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def safe(text) -> str:
    """One line of text for a person to read: as is, or as a quoted JSON string when it holds
    a control character, so stored text can neither move the cursor, recolour the terminal nor
    break the layout (docs/judgment-ledger.md, "What a person reads"); JSON output keeps the
    exact value. None is "none"."""
    if text is None:
        return "none"
    text = str(text)
    if CONTROL.search(text):  # JSON leaves DEL, C1 and U+2028/9 as they are: escape them too
        return escape_controls(json.dumps(text, ensure_ascii=False))
    return text


def escape_controls(text: str) -> str:
    """Text with each control character written as its JSON escape (a line kept unquoted
    inside a block of lines)."""
    return CONTROL.sub(lambda c: json.dumps(c.group())[1:-1], text)


def write(text: str, out=None) -> None:
    """Write text as UTF-8 (flushing what went before through the text layer first). Text
    that echoes an argument which was not UTF-8 gives those bytes back as they were given."""
    out = out or sys.stdout
    buffer = getattr(out, "buffer", None)
    if buffer is None:  # a StringIO in a test
        out.write(text)
        return
    out.flush()
    buffer.write(encode(text))
    buffer.flush()


def encode(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:  # \udcXX from argv bytes: the original bytes; else escaped
        try:
            return text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return text.encode("utf-8", "backslashreplace")


def dumps(value, indent=None) -> str:
    """JSON text, compact unless indented, non-ASCII unescaped; \\u-escaped only when the text
    is not encodable (a lone surrogate read from a foreign \\ud800 escape)."""
    separators = (",", ":") if indent is None else None
    text = json.dumps(value, ensure_ascii=False, indent=indent, separators=separators)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(value, indent=indent, separators=separators)
    return text


def print_json(value, indent=None, out=None) -> None:
    write(dumps(value, indent) + "\n", out)


def reader_left() -> None:
    """After BrokenPipeError on stdout: point stdout at /dev/null so the interpreter's final
    flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
