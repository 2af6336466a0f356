"""Where the ledger lives, the locked one-write append, and the streaming project-scoped read.

No jsonschema or ulid here: search and recall import this module.
"""
import errno
import fcntl
import json
import os
import stat
import time

LOCK_TIMEOUT = 2.0
LOCK_POLL = 0.005
RELATIVE_PATH = os.path.join(".claude", "state", "judgment-ledger.jsonl")


class AppendSkipped(Exception):
    """An I/O failure; the append did not happen (or was rolled back) and the caller goes on."""


def default_path(env=None, cwd=None):
    """HARNESS_JUDGMENT_LEDGER, else .claude/state/judgment-ledger.jsonl under
    HARNESS_PROJECT_ROOT, else under the git top level of cwd, else under cwd."""
    env = os.environ if env is None else env
    if env.get("HARNESS_JUDGMENT_LEDGER"):
        return env["HARNESS_JUDGMENT_LEDGER"]
    cwd = cwd or os.getcwd()
    root = env.get("HARNESS_PROJECT_ROOT") or git_toplevel(cwd) or cwd
    return os.path.join(root, RELATIVE_PATH)


def git_toplevel(cwd):
    """The worktree top level containing cwd, found the way git does (the nearest directory with
    a .git directory or a .git file); no git process is started."""
    path = os.path.abspath(cwd)
    while True:
        dot_git = os.path.join(path, ".git")
        if os.path.isdir(dot_git) or _is_gitfile(dot_git):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def _is_gitfile(path):
    try:
        with open(path, "rb") as f:
            return f.read(8) == b"gitdir: "
    except OSError:
        return False


def append(path, line, timeout=LOCK_TIMEOUT, fsync=True):
    """Append one complete line (bytes ending in LF) with a single write(2) on an O_APPEND
    descriptor while holding an exclusive flock on the ledger itself. The kernel drops the lock
    when the holder dies, so a killed appender never leaves the ledger locked.

    Raises AppendSkipped naming the reason on any I/O failure; a short write is rolled back so
    no torn line is left behind.
    """
    parent = os.path.dirname(path)
    try:
        if parent:
            os.makedirs(parent, exist_ok=True)
    except FileExistsError:
        raise AppendSkipped(f"cannot create directory {parent}: a file is in the way") from None
    except OSError as e:
        raise AppendSkipped(f"cannot create directory {parent}: {_reason(e)}") from None
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as e:
        raise AppendSkipped(f"cannot open {path}: {_reason(e)}") from None
    try:
        if not _lock(fd, timeout):
            raise AppendSkipped(f"lock on {path} not obtained within {timeout:g} s")
        st = os.fstat(fd)
        regular = stat.S_ISREG(st.st_mode)
        if regular and st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n":
            # A line torn by someone else's crash: start ours on a fresh line, so only that
            # fragment (skipped on read) is damaged, never our record.
            line = b"\n" + line
        written = os.write(fd, line)
        if written != len(line):
            if regular:
                os.ftruncate(fd, st.st_size)
            raise AppendSkipped(f"short write to {path} ({written} of {len(line)} bytes, rolled back)")
        if fsync:
            try:
                os.fsync(fd)
            except OSError as e:
                if e.errno not in (errno.EINVAL, errno.EROFS):  # not syncable (a pipe, /dev/null)
                    raise AppendSkipped(f"fsync of {path} failed after the write: {_reason(e)}") from None
    except OSError as e:
        raise AppendSkipped(f"cannot write {path}: {_reason(e)}") from None
    finally:
        os.close(fd)


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


def project_needle(project):
    return json.dumps(project, ensure_ascii=False).encode("utf-8")


# Lines holding \uXXXX or \/ escapes may spell a value in a way a byte search cannot see;
# such (rare, foreign-written) lines are always parsed.
ESCAPES = (b"\\u", b"\\/")
READ_FIELDS = ("id", "project", "decided_at", "question", "answer")


def records(path, project, keep=None):
    """Yield (line number, record) for each record of `project`, streaming the file.

    A line is filtered on its bytes first (the project's JSON string, then `keep(line)` when
    given) and only then parsed, so memory and most of the time do not depend on the other
    projects' lines. A line is a record when it is a JSON object whose id, project, decided_at,
    question and answer are strings and whose project equals `project` exactly; anything else
    (invalid JSON, torn lines, other shapes) is skipped. A missing ledger has no records.
    """
    needle = project_needle(project)
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        return
    with f:
        for number, line in enumerate(f, 1):
            if needle not in line and not has_escapes(line):
                continue
            if keep is not None and not keep(line):
                continue
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                continue
            if type(rec) is dict and rec.get("project") == project \
                    and all(type(rec.get(k)) is str for k in READ_FIELDS):
                yield number, rec


def has_escapes(line):
    return ESCAPES[0] in line or ESCAPES[1] in line
