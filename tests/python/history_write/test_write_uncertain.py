"""Failed writes of `ha history <goal> add` with a real file-size limit (RLIMIT_FSIZE set in
the child process): decision-history/v1, section "오류" (write_uncertain, exit 70) as
docs/history.md, "Failed writes" reads it. A writer that is alive when its line fails removes
its own partial line under the lock and says so; a writer that dies mid-line (SIGKILL) leaves
damage that no later call cuts."""
import json
import os
import resource
import signal
import subprocess
import sys

from conftest import GIT_ENV, ROOT, SCRIPTS
from helpers_write import GOAL, add, receipt, refused, snapshot, started, store_dir  # noqa: F401

HA = str(SCRIPTS / "ha")


def _limited(repo, limit, *args):
    """`ha history <goal> add` with RLIMIT_FSIZE = `limit` bytes and SIGXFSZ ignored (as Python
    does anyway): a write past the limit stores what fits and then fails with EFBIG."""
    def child():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    return subprocess.run([HA, "history", GOAL, "add", *args], cwd=repo, capture_output=True,
                          text=True, env=dict(os.environ, **GIT_ENV), preexec_fn=child,
                          timeout=120)


def _three(repo):
    for i in range(3):
        receipt(add(repo, "--kind", "관측", "--summary", f"s{i}"))
    return store_dir(repo) / "events.jsonl"


def test_a_line_cut_short_by_the_size_limit_is_removed_and_write_uncertain(started):
    """The limit falls inside the new line, so its first write() stores part of it: the
    writer cuts it back while it holds the lock, and the error is write_uncertain (70)."""
    path = _three(started)
    raw = path.read_bytes()
    before = snapshot(started)
    p = _limited(started, len(raw) + 500, "--kind", "관측", "--summary", "long",
                 "--reason", "y" * 2000, "--request-id", "part-1")
    err = refused(p, "write_uncertain", 70)
    assert "D4 (request id part-1) was not stored" in err and "File too large" in err
    assert "the partial line was removed and nothing was stored" in err
    assert "resend the same decision with --request-id part-1" in err
    assert path.read_bytes() == raw and snapshot(started) == before


def test_resending_with_the_same_request_id_stores_it_once(started):
    """decision-history/v1, section "오류": after write_uncertain the client resends the same
    request; the writer's undo means the resend stores it, and a second resend replays."""
    path = _three(started)
    args = ("--kind", "관측", "--summary", "z", "--reason", "z" * 2000, "--request-id", "again-1")
    refused(_limited(started, path.stat().st_size + 100, *args), "write_uncertain", 70)
    first = receipt(add(started, *args))
    assert (first["id"], first["replayed"]) == ("D4", False)
    assert receipt(add(started, *args)) == {**first, "replayed": True}
    stored = [json.loads(line) for line in path.read_bytes().splitlines()]
    assert [e["request_id"] for e in stored].count("again-1") == 1 and len(stored) == 4


KILLED = """import os, signal, sys
from judgment_toolkit.ha.history.context import open_history
ctx = open_history(sys.argv[1], for_write=True)
w = ctx.store.write_lock().__enter__()          # the real exclusive lock of an add
list(w.scan())
fd = os.open(ctx.store.events_path, os.O_WRONLY | os.O_APPEND)
os.write(fd, b'{"schema":"decision-history/v1","id":"D4","seq":4,"prev":')
os.kill(os.getpid(), signal.SIGKILL)            # dies mid-line, holding the lock
"""


def test_a_writer_killed_mid_line_leaves_history_corrupt_that_is_never_cut(started):
    """A writer killed (SIGKILL) after part of its line: the partial line is damage. Every
    later add and view reports history_corrupt and leaves the bytes as they are."""
    path = _three(started)
    raw = path.read_bytes()
    p = subprocess.run([sys.executable, "-c", KILLED, GOAL], cwd=started, capture_output=True,
                       env=dict(os.environ, **GIT_ENV, PYTHONPATH=str(ROOT / "pylib")),
                       timeout=120)
    assert p.returncode == -signal.SIGKILL, p.stderr
    torn = path.read_bytes()
    assert torn.startswith(raw) and len(torn) > len(raw) and not torn.endswith(b"\n")
    for _ in range(2):
        err = refused(add(started, "--kind", "관측", "--summary", "after",
                          "--request-id", "killed-1"), "history_corrupt", 65)
        assert "line 4 is incomplete" in err
        view = subprocess.run([HA, "history", GOAL, "current"], cwd=started, text=True,
                              capture_output=True, env=dict(os.environ, **GIT_ENV))
        refused(view, "history_corrupt", 65)
    assert path.read_bytes() == torn
