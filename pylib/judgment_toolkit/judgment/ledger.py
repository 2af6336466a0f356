"""Where the ledger lives, and the streaming project-scoped read (the writer is writer.py).

No jsonschema or ulid here: every read imports this module.
"""
import errno
from itertools import repeat
import json
from operator import add
import os
import re
import stat
import sys

from . import place
from .lines import CHUNK, Overlong, blocks  # noqa: F401 (CHUNK: the reads' chunk, as before)

RELATIVE_PATH = os.path.join(*place.LEDGER_PARTS)


def default_path(env=None, cwd=None):
    """HARNESS_JUDGMENT_LEDGER, else .claude/state/judgment-ledger.jsonl in the main worktree
    of the repository holding HARNESS_PROJECT_ROOT or cwd, else under that folder."""
    return chosen_path(env, cwd)[0]


def chosen_path(env=None, cwd=None):
    """(the ledger's path, how it was chosen: the words a message names it by). Inside a
    repository the path is a place.Confined: it is opened without following symlinks."""
    env = os.environ if env is None else env
    if env.get("HARNESS_JUDGMENT_LEDGER"):
        return env["HARNESS_JUDGMENT_LEDGER"], "from $HARNESS_JUDGMENT_LEDGER"
    if env.get("HARNESS_PROJECT_ROOT"):
        path, how = place.ledger_path(env["HARNESS_PROJECT_ROOT"])
        return path, "under $HARNESS_PROJECT_ROOT" + (f" ({how})" if how else "")
    path, how = place.ledger_path(cwd or os.getcwd())
    return path, how or "under the current directory, which is in no git worktree"


def git_toplevel(cwd):
    """The worktree top level containing cwd (place.worktree_top), or None."""
    return place.worktree_top(cwd)


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _not_regular(mode):
    """None for a regular file, else what it is ("a FIFO", ...)."""
    if stat.S_ISREG(mode):
        return None
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


class NotRegular(OSError):
    """The ledger path names something other than a regular file; reads refuse it."""


def open_read(path):
    """The ledger opened for reading (unbuffered binary), or None when it does not exist.

    Opened with O_NONBLOCK so a FIFO cannot block the open, then refused (NotRegular) unless
    fstat says regular file: a FIFO, /dev/zero or a directory would block or never end. A
    repository's own ledger (place.Confined) behind a symlink is refused (place.Refused).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        # a place.Confined path (the repository's own ledger) is opened without symlinks
        fd = path.open(flags) if isinstance(path, place.Confined) else os.open(path, flags)
    except FileNotFoundError:
        return None
    try:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind:
            raise NotRegular(errno.EINVAL, f"not a regular file ({kind})", path)
        return os.fdopen(fd, "rb", buffering=0)
    except BaseException:
        os.close(fd)
        raise


def project_needle(project):
    # surrogatepass: a project from undecodable argv bytes (\udcXX) must not crash the read;
    # its needle matches no valid UTF-8 line, and escaped lines are parsed and compared anyway.
    return json.dumps(project, ensure_ascii=False).encode("utf-8", "surrogatepass")


# Lines holding \uXXXX or \/ escapes may spell a value in a way a byte search cannot see;
# such (rare, foreign-written) lines are always parsed.
ESCAPES = (b"\\u", b"\\/")
ESCAPE_RE = rb"\\[u/]"  # compiled (re's cache) only for a block with a backslash


def possessive(pattern):
    """A bytes pattern written with possessive repeats (*+, ?+: no backtracking state kept,
    several times faster in the block scans of the reads), as this Python's `re` can run it:
    before 3.11, which has none, the plain repeats, where the pattern's possessive ones match
    the same (what follows each can never match where giving back would put it)."""
    if sys.version_info >= (3, 11):
        return pattern
    return pattern.replace(b"*+", b"*").replace(b"?+", b"?")
# The judgment-ledger.v1 schema, checked by hand on each parsed line (no jsonschema on a read):
# exactly these fields (required, additionalProperties false), strings but `tags`, a list of
# strings; the NONEMPTY ones and each tag at least one character; decided_at the schema's
# pattern, searched as jsonschema does (tests/python/judgment/test_ledger_records_valid.py holds
# the two equal on the schema's own cases).
FIELDS = ("id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags")
NONEMPTY = ("id", "project", "question", "answer", "card_ref")
DECIDED_AT = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
                        r"(Z|[+-][0-9]{2}:[0-9]{2})$")


def is_record(rec):
    """Does the schema accept this parsed line (a dict)? Repeated keys, which json.loads
    cannot see, are left to verify."""
    if len(rec) != len(FIELDS) or not all(k in rec for k in FIELDS):
        return False
    if not all(type(rec[k]) is str for k in FIELDS[:-1]) or not all(rec[k] for k in NONEMPTY):
        return False
    tags = rec["tags"]
    if type(tags) is not list or not all(type(t) is str and t for t in tags):
        return False
    return DECIDED_AT.search(rec["decided_at"]) is not None


def records(path, project, keep=None):
    """Yield (byte offset, record) for each record of `project`, streaming the file.

    Lines are filtered on their bytes first (the project's JSON string, then `keep(line)` when
    given) and only candidates are parsed, so time goes mostly to this project's lines and
    memory stays at one chunk plus the longest line, whatever the ledger's size. A line is a
    record when it is a JSON object that the judgment-ledger.v1 schema accepts (is_record) and
    whose project equals `project` exactly; anything else (invalid JSON, a torn line, a line
    verify calls invalid) is skipped. A missing ledger has no records; a path that is not a
    regular file raises NotRegular (an OSError) from the first iteration.
    """
    needle = project_needle(project)
    f = open_read(path)
    if f is None:
        return
    with f:
        for offset, line in candidate_lines(f, needle):
            if keep is not None and not keep(line):
                continue
            rec = record_of(line, project)
            if rec is not None:
                yield offset, rec


def record_of(line, project):
    """The record a line holds when it is one of `project` (see records), else None."""
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if type(rec) is dict and rec.get("project") == project and is_record(rec):
        return rec
    return None


def candidate_lines(f, needle, chunk_size=CHUNK):
    """(offset, line without LF) for every line that holds `needle` or an escape.

    Reads through the one streaming reader (lines.blocks): in a block without escapes (the
    normal case) only the needle's occurrences are visited, so other projects' lines cost one
    C-speed scan and nothing more; a line over the record cap passes without being held.
    """
    for block in blocks(f, chunk_size):
        if type(block) is not Overlong:
            yield from _scan(*block, needle)
        del block  # not alive while the next chunk is read


def _scan(base, buf, cut, needle):
    """Candidates among the complete lines buf[:cut], in file order: the lines holding the
    needle, plus (only when the chunk has a backslash at all) the lines holding an escape."""
    if buf.find(b"\\", 0, cut) == -1:  # memchr-fast; real escapes are rarer still
        yield from _needle_lines(base, buf, cut, needle)
        return
    found = {}  # line start -> line end
    _collect(found, buf, cut, lambda at: buf.find(needle, at, cut))

    escape = re.compile(ESCAPE_RE)

    def next_escape(at):
        m = escape.search(buf, at, cut)
        return -1 if m is None else m.start()
    _collect(found, buf, cut, next_escape)
    for begin in sorted(found) if len(found) > 1 else found:
        yield base + begin, buf[begin:found[begin]]


def _needle_lines(base, buf, cut, needle):
    """_scan's lines of a block without a backslash: those holding the needle, found in C (a
    scan for the needle, then each hit's line start and end) rather than line by line; a line
    holding it twice is one entry (the same start), as _collect's jump to the line's end."""
    hits = list(map(re.Match.start, re.compile(re.escape(needle)).finditer(buf, 0, cut)))
    found = dict(zip(map(add, map(buf.rfind, repeat(b"\n"), repeat(0), hits), repeat(1)),
                     map(buf.find, repeat(b"\n"), hits, repeat(cut))))
    if found:
        last = next(reversed(found))
        if found[last] == -1:  # the file's last line, without its LF
            found[last] = cut
    for begin, end in found.items():
        yield base + begin, buf[begin:end]


def _collect(found, buf, cut, next_hit):
    pos = next_hit(0)
    while pos != -1:
        begin = buf.rfind(b"\n", 0, pos) + 1
        end = buf.find(b"\n", pos, cut)
        if end == -1:
            end = cut
        found[begin] = end
        pos = next_hit(end)


def has_escapes(data):
    # the backslash first: one memchr, where each escape is a slower two-byte search
    return b"\\" in data and (ESCAPES[0] in data or ESCAPES[1] in data)


_DECIDED_AT = b'"decided_at":"'


def line_time_key(line):
    """time_key of the line's decided_at read from its bytes, without parsing, or None when
    the bytes cannot tell it exactly. In a line without a backslash every quote delimits a
    string, so a single `"decided_at":"` is that key and its value ends at the next quote (a
    nested key of that name means the record has none of its own, and is skipped anyway)."""
    if b"\\" in line or line.count(_DECIDED_AT) != 1:
        return None
    start = line.index(_DECIDED_AT) + len(_DECIDED_AT)
    end = line.find(b'"', start)
    if end == -1:
        return None
    try:
        return time_key(line[start:end].decode("ascii"))
    except UnicodeDecodeError:
        return None


def could_enter(line, floor):
    """Could a line whose newest-first key is (time key, offset) still beat `floor`, the
    smallest such key a full top-k holds? A later line wins a tie on time, so only a line
    whose time is certainly older is left unparsed."""
    key = line_time_key(line)
    return key is None or key >= floor


_FRACTION = r"(?<=:[0-9]{2})\.([0-9]+)"  # compiled only for a time not in the Z form


def time_key(value):
    """A sortable UTC key for decided_at; unparseable times sort oldest."""
    if len(value) == 20 and value[19] == "Z" and value[10] == "T":
        return value[:19] + ".000000"
    from datetime import datetime, timezone
    # fromisoformat before Python 3.11 takes neither Z nor a fraction of other than 3 or 6
    # digits, both of which the schema allows: spell the fraction as exactly 6 digits.
    text = value.replace("Z", "+00:00")
    text = re.sub(_FRACTION, lambda m: "." + m.group(1)[:6].ljust(6, "0"), text, count=1)
    try:
        dt = datetime.fromisoformat(text)
    except ValueError:
        return ""
    if dt.tzinfo is not None:
        dt = dt.astimezone(timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S.%f")
