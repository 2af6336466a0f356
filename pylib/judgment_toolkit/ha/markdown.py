"""The little Markdown the goal documents need: fences, level-2 sections, list items, tables.

Line numbers are 1-based and count every line of the file, so errors can name `file:line`.
"""
from __future__ import annotations

import re

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")


def lines_outside_fences(text: str):
    """(line number, line) for every line not inside a fenced code block (fence lines excluded)."""
    fence = None
    for no, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        m = _FENCE.match(line)
        if fence is None:
            if m and not (m.group(1)[0] == "`" and "`" in m.group(2)):
                fence = m.group(1)
                continue
            yield no, line
        elif m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                and not m.group(2).strip():
            fence = None


def heading(line: str):
    """(level, title) when `line` is an ATX heading, else None."""
    m = _HEADING.match(line)
    if not m:
        return None
    return len(m.group(1)), (m.group(2) or "").strip()


def section(text: str, title: str):
    """Lines (number, text) of the first level-2 section named `title`, outside fences.

    None when there is no such heading. The section ends at the next heading of level 1 or 2.
    """
    found = False
    out = []
    for no, line in lines_outside_fences(text):
        h = heading(line)
        if h and h[0] <= 2:
            if found:
                break
            if h[0] == 2 and h[1] == title:
                found = True
            continue
        if found:
            out.append((no, line))
    return out if found else None


def near_heading(text: str, title: str, aliases=()):
    """(line number, heading as written) of a heading that is likely meant to be `## title`
    when the file has no exact `## title`: another case or level, a small typo
    (cliargs.suggest), or one of `aliases` (the English name of a Korean heading). None when
    the exact heading is there or nothing comes close. A goal document that misspells a
    heading ha reads would otherwise be read as declaring nothing."""
    from ..cliargs import suggest
    found = None
    for no, line in lines_outside_fences(text):
        h = heading(line)
        if h is None:
            continue
        level, written = h
        if level == 2 and written == title:
            return None
        if found is None and (written.casefold() == title.casefold()
                              or written.casefold() in (a.casefold() for a in aliases)
                              or suggest(written, (title,)) is not None):
            found = (no, line.strip())
    return found


def split_row(line: str):
    """Cells of a pipe table row, stripped; `\\|` is a literal pipe."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    cells, cur, i = [], [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s) and s[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if c == "|":
            cells.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    cells.append("".join(cur).strip())
    return cells


_SEPARATOR_CELL = re.compile(r"^:?-{1,}:?$")


def first_table(lines):
    """(header line no, header cells, [(line no, cells)]) of the first table in `lines`, or None.

    The delimiter row (`|---|---|`) right after the header is skipped; the table ends at the
    first line that does not start with `|`.
    """
    header, rows, delimiter_seen = None, [], False
    for no, line in lines:
        if line.lstrip().startswith("|"):
            cells = split_row(line)
            if header is None:
                header = (no, cells)
            elif not delimiter_seen and not rows and \
                    all(_SEPARATOR_CELL.match(c.replace(" ", "")) for c in cells):
                delimiter_seen = True
            else:
                rows.append((no, cells))
        elif header is not None:
            break
    if header is None:
        return None
    return header[0], header[1], rows


_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)


def strip_code_spans(line: str) -> str:
    return _CODE_SPAN.sub(" ", line)
