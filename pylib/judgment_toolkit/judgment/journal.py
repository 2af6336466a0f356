"""The ledger's journal: a second copy of each line appended to a repository's ledger, kept in
the repository's git common dir, where no pull, checkout, merge or rebase ever writes
(docs/team-memory.md, "What git can still lose").

git takes no lock on the ledger: a record appended while git merges or checks out the file can
be overwritten by git's result. The same line is in the journal, so `judgment-kit heal` (run by
the git hooks that `judgment-kit share` installs) puts it back (judgment.heal).

Only a repository's own ledger (a place.Confined path) is journaled; a ledger that
HARNESS_JUDGMENT_LEDGER names is the user's own file, which no git operation of ours touches.
The journal is best effort: any failure is one stderr note per process and never fails the
append. It is bounded: past MAX_BYTES, the next append or heal keeps what the ledger lacks and
the newest of the rest, up to half of MAX_BYTES (trim).

Standard library only.
"""
import fcntl
import json
import os
import sys

from . import place

FOLDER = "judgment-ledger"
NAME = "journal.jsonl"
MAX_BYTES = 1 << 20  # past this, the next append drops what the ledger holds
_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
_noted = False


def path_for(ledger):
    """The journal of a repository's ledger (a place.Confined), or None for any other path."""
    if not isinstance(ledger, place.Confined):
        return None
    repo = place.repository(ledger.base)
    if repo is None:
        return None
    return os.path.join(repo.common, FOLDER, NAME)


def open_locked(path, create=True):
    """The journal opened for appending and flock'ed (blocking: every holder is quick), or None
    when it does not exist and not `create`."""
    if create:
        os.makedirs(os.path.dirname(path), exist_ok=True)
    try:
        fd = os.open(path, _FLAGS if create else _FLAGS & ~os.O_CREAT, 0o644)
    except FileNotFoundError:
        if create:
            raise
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except BaseException:
        os.close(fd)
        raise
    return fd


def add(ledger, line, ledger_fd):
    """Append `line` (just written to `ledger`, whose descriptor the caller holds locked) to
    the journal; trim it when it is over MAX_BYTES. Never raises: a failure is one note."""
    try:
        path = path_for(ledger)
        if path is None:
            return
        fd = open_locked(path)
        try:
            os.write(fd, line)
            if os.fstat(fd).st_size > MAX_BYTES:
                trim(fd, read_all(ledger_fd), MAX_BYTES // 2)
        finally:
            os.close(fd)
    except Exception as e:  # the journal never fails an append (fail-open)
        note(f"journal not written ({getattr(e, 'strerror', None) or e})")


def note(text):
    global _noted
    if not _noted:
        _noted = True
        try:
            print(f"judgment-ledger: {text}; the append itself is stored", file=sys.stderr,
                  flush=True)
        except Exception:
            pass


def read_all(fd):
    size = os.fstat(fd).st_size
    chunks, at = [], 0
    while at < size:
        chunk = os.pread(fd, size - at, at)
        if not chunk:
            break
        chunks.append(chunk)
        at += len(chunk)
    return b"".join(chunks)


class Holdings:
    """What a ledger's bytes hold: its exact lines, and (computed once, only when a line is not
    found as it is) the (project, id) of each record. Linear in the ledger's size."""

    def __init__(self, data):
        self.data = data
        self.lines = set(data.split(b"\n"))
        self._keys = None

    def has(self, line):
        """Does the ledger hold this journal line (the line itself, or a record of the same
        (project, id), which is the record's identity: docs/judgment-ledger.md, "The record")?"""
        if line.rstrip(b"\n") in self.lines:
            return True
        key = identity(line)
        if key is None:
            return True  # not a record: nothing to restore
        if self._keys is None:
            self._keys = {identity(x) for x in self.lines}
        return key in self._keys

    def add(self, line):
        self.lines.add(line.rstrip(b"\n"))
        if self._keys is not None:
            self._keys.add(identity(line))


def identity(line):
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if type(rec) is not dict or type(rec.get("id")) is not str:
        return None
    return rec.get("project"), rec["id"]


def entries(data):
    """The journal's complete lines (a torn last line is left out), each ending in LF."""
    lines = data.split(b"\n")
    return [x + b"\n" for x in lines[:-1] if x]


def trim(fd, ledger_data, keep_bytes):
    """Rewrite the locked journal with the entries the ledger does not hold, then as many of the
    newest entries it holds as fit in `keep_bytes`. In place, so an appender waiting on the
    journal's lock still writes to the one journal."""
    have = Holdings(ledger_data)
    held, lacking = [], set()
    for x in entries(read_all(fd)):
        if have.has(x):
            held.append(x)
        else:
            lacking.add(x)
    room, newest = keep_bytes - sum(map(len, lacking)), set()
    for x in reversed(held):
        room -= len(x)
        if room < 0:
            break
        newest.add(x)
    data = b"".join(x for x in entries(read_all(fd)) if x in lacking or x in newest)
    os.ftruncate(fd, 0)
    if data:
        os.pwrite(fd, data, 0)
