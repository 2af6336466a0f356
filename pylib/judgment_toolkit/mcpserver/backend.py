"""The one place the MCP server reaches into the toolkit: every tool runs the very command the
CLI runs, so rules, limits, messages and exit codes exist once. The ledger's command line is the
Bash layer (scripts/judgment-ledger.sh, docs/internals.md), so a ledger tool runs that script as
a child with this server's interpreter; `ha`'s command line is Python and runs in-process.

A command's stdout and stderr are captured for the call; calls are serialised by one lock
because the captured streams are process-wide (sync tools run on worker threads).
"""
from __future__ import annotations

import contextlib
import io
import threading
from dataclasses import dataclass

_LOCK = threading.Lock()


@dataclass
class Outcome:
    code: int
    out: str
    err: str


def _stream():
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")


def _text(stream) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "replace")


def _run(main, argv) -> Outcome:
    out, err = _stream(), _stream()
    with _LOCK, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return Outcome(code or 0, _text(out), _text(err))


def ledger(argv) -> Outcome:
    """`judgment-ledger ARGV...`, the packaged (or checkout) script run as a child."""
    import os
    import subprocess
    import sys
    from judgment_toolkit import packaged
    env = dict(os.environ, HARNESS_PYTHON=sys.executable)
    try:
        r = subprocess.run(["bash", packaged.script("judgment-ledger.sh"), *argv], env=env,
                           stdin=subprocess.DEVNULL, capture_output=True)
    except OSError as e:  # E2BIG: one argument over the kernel's limit for one argv string
        longest = max((len(a.encode("utf-8", "surrogateescape")) for a in argv), default=0)
        return Outcome(64, "", f"judgment-ledger: {argv[0] if argv else ''}: an argument of "
                               f"{longest} bytes is over this system's limit for one argument "
                               f"({e.strerror}); shorten it (a question of a few KiB is plenty)\n")
    return Outcome(r.returncode, r.stdout.decode("utf-8", "replace"),
                   r.stderr.decode("utf-8", "replace"))


def ha(argv) -> Outcome:
    """`ha ARGV...`"""
    from judgment_toolkit.ha.cli import main
    return _run(main, argv)
