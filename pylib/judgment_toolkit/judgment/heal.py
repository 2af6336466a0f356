"""Put back the records a git operation overwrote: every journal entry (judgment.journal) that
the ledger now at the path lacks is appended again, under the ledger's lock, in one write
(docs/team-memory.md, "What git can still lose"). `judgment-kit heal` runs it; the git hooks
that `judgment-kit share` installs run that after every commit, merge, checkout and rewrite.
The journal keeps the newest appends, up to journal.MAX_BYTES, whether committed or not: git
can also leave a ledger that lacks committed records (a merge that fails half-way), and the
next commit would commit that loss.

A journal entry is in the ledger when the ledger holds the same line, or a record of the same
(project, id) (the record's identity, docs/judgment-ledger.md, "The record"), so a heal never
writes a record twice and two heals at once write it once. Time is linear in the ledger and the
journal (one pass each, a set of lines; records are parsed only when a line is not found as it
is). A ledger that git removed (a branch without it) is not created again.
"""
import os
import subprocess

from . import journal, place, writer

_FLAGS = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC | os.O_NONBLOCK


def heal(ledger=None, timeout=writer.LOCK_TIMEOUT, left=None):
    """The number of records appended again to `ledger` (default: this repository's ledger).
    `left`, when given, is a ledger's bytes whose records are not brought back (a branch
    switch leaves the records committed on the branch left behind with it). Raises OSError
    (writer.AppendSkipped included) when the ledger cannot be read or written."""
    if ledger is None:
        from .ledger import default_path
        ledger = default_path()
    path = journal.path_for(ledger)
    if path is None or not os.path.exists(path):
        return 0
    try:
        fd = ledger.open(_FLAGS) if isinstance(ledger, place.Confined) else \
            os.open(ledger, _FLAGS)
    except FileNotFoundError:
        return 0
    try:
        if writer._not_regular(os.fstat(fd).st_mode):
            return 0
        if not writer._lock(fd, timeout):
            raise writer.AppendSkipped(f"lock on {ledger} not obtained within {timeout:g} s")
        jfd = journal.open_locked(path, create=False)
        if jfd is None:
            return 0
        try:
            data = journal.read_all(fd)
            have = journal.Holdings(data)
            behind = journal.Holdings(left) if left is not None else None
            missing = []
            for line in journal.entries(journal.read_all(jfd)):
                if not have.has(line) and not (behind and behind.has(line)):
                    missing.append(line)
                    have.add(line)
            if missing:
                out = b"".join(missing)
                if data and not data.endswith(b"\n"):
                    out = b"\n" + out  # a torn last line stays apart from our records
                written = os.write(fd, out)
                if written != len(out):
                    os.ftruncate(fd, len(data))
                    raise writer.AppendSkipped(f"short write to {ledger} (rolled back)")
                os.fsync(fd)
                data += out
            if os.fstat(jfd).st_size > journal.MAX_BYTES:
                journal.trim(jfd, data, journal.MAX_BYTES // 2)
        finally:
            os.close(jfd)
    finally:
        os.close(fd)
    return len(missing)


_GIT_PLACE = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_PREFIX", "GIT_COMMON_DIR")


def committed(ledger, rev):
    """The ledger's bytes in commit `rev` of its repository, or None when it is not tracked
    there (or git cannot say). A hook runs with git's own GIT_DIR and index set; they are
    dropped so the question goes to the ledger's repository."""
    repo = place.repository(ledger.base) if isinstance(ledger, place.Confined) else None
    if repo is None:
        return None
    rel = "/".join(ledger.parts)
    env = {k: v for k, v in os.environ.items() if k not in _GIT_PLACE}
    try:
        done = subprocess.run(["git", f"--git-dir={repo.common}", "cat-file", "blob",
                               f"{rev}:{rel}"], env=env, capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def main(argv, err):
    """`judgment-kit heal [--hook NAME ARGS...]`: exit 0 always (a git hook must never stop
    git); quiet unless a record came back, then one line on stderr. From post-checkout with a
    branch switch (PREV NEW 1, PREV not NEW), the records committed at PREV stay behind."""
    try:
        left = None
        if argv[:2] == ["--hook", "post-checkout"] and len(argv) >= 5 and argv[4] == "1" \
                and argv[2] != argv[3]:
            from .ledger import default_path
            left = committed(default_path(), argv[2])
        n = heal(left=left)
    except Exception as e:  # never stop git over the journal
        print(f"judgment-ledger: heal skipped ({getattr(e, 'strerror', None) or e})", file=err)
        return 0
    if n:
        print(f"judgment-ledger: restored {n} record{'s' if n != 1 else ''} that the last git "
              "operation overwrote", file=err)
    return 0
