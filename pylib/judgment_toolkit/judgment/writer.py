"""The ledger's writer: the locked one-write append, and under the same lock the look-up of
an id (`append --id` retries). Only append imports it.
"""
import fcntl
import json
import mmap
import os
import time

from . import journal, place
from .ledger import ESCAPES, _not_regular
from .lines import RECORD_MAX

LOCK_TIMEOUT = 2.0
LOCK_POLL = 0.005


class AppendSkipped(Exception):
    """An I/O failure; the append did not happen (or was rolled back) and the caller goes on."""


def append(path, line, timeout=LOCK_TIMEOUT, fsync=True, find=None):
    """Append one complete line (bytes ending in LF) with a single write(2) on an O_APPEND
    descriptor while holding an exclusive flock on the ledger itself. The kernel drops the lock
    when the holder dies, so a killed appender never leaves the ledger locked.

    `find`, when given, is called under the lock with the descriptor and the ledger's size
    (`find(fd, size)`); when it returns something other than None nothing is written and that
    value is returned (the idempotent `--id` check). Returns None after a write.

    After the write, still under the lock, the path must still name the file written (git
    replaces the ledger by renaming a new file over it on checkout, pull and merge): when it
    names another file, or the same one without the line where it was written, the line is
    appended to the file now there too, unless it already holds it (docs/judgment-ledger.md,
    "When git replaces the ledger"); readers count a record written twice once.

    Then, still under the lock, a repository's ledger copies the line to its journal in the git
    dir (judgment.journal; best effort, never an error), from which `judgment-kit heal` puts back
    what a git operation overwrote (docs/team-memory.md, "What git can still lose").

    Raises AppendSkipped naming the reason on any I/O failure, for a ledger that is not a
    regular file (a FIFO, a device, a socket; a symlink given by HARNESS_JUDGMENT_LEDGER is
    followed to what it names) and for a repository's own ledger behind a symlink
    (place.Confined); a short write is rolled back so no torn line is left behind.
    """
    fd = _open(path)
    try:
        kind = _not_regular(os.fstat(fd).st_mode)
        if kind:
            raise AppendSkipped(f"{path} is not a regular file ({kind})")
        if not _lock(fd, timeout):
            raise AppendSkipped(f"lock on {path} not obtained within {timeout:g} s")
        size = os.fstat(fd).st_size
        if find is not None:
            found = find(fd, size)
            if found is not None:
                return found
        at = _write(fd, path, line, size, fsync)
        for _ in range(MOVES):
            now = _file_now_at(path, fd, at, line)
            if now is None:
                break
            os.close(fd)  # drops our lock: the file now there may be the same inode
            fd = now
            if not _lock(fd, timeout):
                raise AppendSkipped(f"lock on {path} not obtained within {timeout:g} s, after "
                                    "the ledger was replaced during the append")
            if _holds(fd, line):
                break
            at = _write(fd, path, line, os.fstat(fd).st_size, fsync)
        journal.add(path, line, fd)  # still under the lock: a heal sees both or neither
    except OSError as e:
        raise AppendSkipped(f"cannot write {path}: {_reason(e)}") from None
    finally:
        os.close(fd)
    return None


MOVES = 3  # times the ledger may be replaced under one append before the last write stands
_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NONBLOCK


def _open(path):
    """The ledger opened for appending, its folders made; AppendSkipped when it cannot be.
    O_NONBLOCK: opening a FIFO must not wait for a reader; the caller's fstat refuses it."""
    try:
        if isinstance(path, place.Confined):
            return path.open(_FLAGS, 0o644, create_dirs=True)
        parent = os.path.dirname(path)
        if parent:
            try:
                os.makedirs(parent, exist_ok=True)
            except FileExistsError:
                raise AppendSkipped(f"cannot create directory {parent}: a file is in the way") \
                    from None
            except OSError as e:
                raise AppendSkipped(f"cannot create directory {parent}: {_reason(e)}") from None
        return os.open(path, _FLAGS, 0o644)
    except place.Refused as e:
        raise AppendSkipped(f"refused {path}: {_reason(e)}") from None
    except OSError as e:
        raise AppendSkipped(f"cannot open {path}: {_reason(e)}") from None


def _write(fd, path, line, size, fsync):
    """Write `line` at the end of the locked fd (whose size is `size`); the offset it starts at."""
    at = size
    if size and os.pread(fd, 1, size - 1) != b"\n":
        # A line torn by someone else's crash: start ours on a fresh line, so only that
        # fragment (skipped on read) is damaged, never our record.
        line = b"\n" + line
        at += 1
    written = os.write(fd, line)
    if written != len(line):
        os.ftruncate(fd, size)
        raise AppendSkipped(f"short write to {path} ({written} of {len(line)} bytes, rolled back)")
    if fsync:
        try:
            os.fsync(fd)
        except OSError as e:
            raise AppendSkipped(f"fsync of {path} failed after the write: {_reason(e)}") from None
    return at


def _file_now_at(path, fd, at, line):
    """None when the path still names the file of `fd` and `line` is still at `at` in it; else
    the file now at the path, opened for appending (created when git removed it). Our fd keeps
    its inode alive, so no new file can reuse its number while we compare; the content check
    catches a file rewritten in place."""
    now = _open(path)
    try:
        here, there = os.fstat(fd), os.fstat(now)
        if _not_regular(there.st_mode):
            raise AppendSkipped(f"{path} was replaced during the append by something that is "
                                f"not a regular file ({_not_regular(there.st_mode)})")
        if (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino) and \
                os.pread(now, len(line), at) == line:
            os.close(now)
            return None
    except BaseException:
        os.close(now)
        raise
    return now


def _holds(fd, line):
    """Does the file hold `line` as one of its lines (a merge may have carried it over)?"""
    size = os.fstat(fd).st_size
    if size < len(line):
        return False
    with mmap.mmap(fd, size, prot=mmap.PROT_READ) as mm:
        pos = mm.find(line)
        while pos != -1:
            if pos == 0 or mm[pos - 1] == 0x0A:
                return True
            pos = mm.find(line, pos + 1)
    return False


def find_id(fd, size, rec_id, project):
    """The first record of `project` among the first `size` bytes of fd whose id is `rec_id`,
    or None. A record's identity is (project, id): another project's record under the same id
    is not seen, so an id neither tells one project what another stores nor blocks its write
    (docs/judgment-ledger.md, "`--id`: idempotent retries").

    The file is mapped read-only and searched with memchr-speed finds (no copy, no chunking):
    only lines holding the id's JSON string, or a \\u or \\/ escape that could spell it, are
    parsed, so the check costs one pass over the bytes at memory speed.
    """
    if size == 0:
        return None
    needle = json.dumps(rec_id, ensure_ascii=False).encode("utf-8", "surrogatepass")
    with mmap.mmap(fd, size, prot=mmap.PROT_READ) as mm:
        for pattern in (needle,) + ESCAPES:
            pos = mm.find(pattern)
            while pos != -1:
                begin = mm.rfind(b"\n", 0, pos) + 1
                end = mm.find(b"\n", pos)
                end = size if end == -1 else end
                rec = None
                if end - begin <= RECORD_MAX:  # a longer line is no record (lines.py)
                    try:
                        rec = json.loads(mm[begin:end])
                    except (ValueError, RecursionError):
                        pass
                if type(rec) is dict and rec.get("id") == rec_id \
                        and rec.get("project") == project:
                    return rec
                pos = mm.find(pattern, end)
    return None


def _lock(fd, timeout):
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(LOCK_POLL)


def _reason(error):
    return error.strerror or str(error)
