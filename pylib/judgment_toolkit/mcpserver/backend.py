"""The one place the MCP server reaches into the toolkit, so rules, limits, messages and exit
codes exist once:

- `ledger_job`: a read of the ledger (search, recall, prime) runs the Python job the CLI's
  script runs (judgment_toolkit.judgment.jobs), in-process, with the already checked values:
  no process start-up and no imports per call.
- `ledger`: the Bash entry point itself (scripts/judgment-ledger.sh) as a child, for what only
  it owns (docs/internals.md, "Two layers"): the fail-open mapping of append, which gets its
  record on stdin (`append --input -`, so no argv limit applies), and the usage errors of a
  command line it refuses.
- `ha`: `ha`'s command line is Python and runs in-process.

A command's stdout and stderr are captured for the call; in-process calls are serialised by
one lock because the captured streams are process-wide (sync tools run on worker threads).
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


def ledger_job(job, *values) -> Outcome:
    """`python -m judgment_toolkit.judgment.jobs JOB VALUES...`, in this process."""
    from judgment_toolkit.judgment import jobs
    return _run(jobs.main, [job, *values])


def ledger(argv, stdin: bytes = b"") -> Outcome:
    """`judgment-ledger ARGV...` (the packaged or checkout script) as a child, `stdin` its
    input, run with this server's interpreter."""
    import os
    import subprocess
    import sys
    from judgment_toolkit import packaged
    env = dict(os.environ, HARNESS_PYTHON=sys.executable)
    try:
        r = subprocess.run(["bash", packaged.script("judgment-ledger.sh"), *argv], env=env,
                           input=stdin, capture_output=True)
    except OSError as e:  # E2BIG: one argument over the kernel's limit for one argv string
        longest = max((len(a.encode("utf-8", "surrogateescape")) for a in argv), default=0)
        return Outcome(64, "", f"judgment-ledger: {argv[0]}: an argument of {longest} bytes is "
                               f"over this system's limit for one argument ({e.strerror}); "
                               "shorten it (a question of a few KiB is plenty)\n")
    except ValueError as e:  # a NUL or a lone surrogate, which no argv string can hold
        return Outcome(64, "", f"judgment-ledger: {argv[0]}: an argument cannot be put on a "
                               f"command line ({e}); remove that character\n")
    return Outcome(r.returncode, r.stdout.decode("utf-8", "replace"),
                   r.stderr.decode("utf-8", "replace"))


def ha(argv) -> Outcome:
    """`ha ARGV...`"""
    from judgment_toolkit.ha.cli import main
    return _run(main, argv)
