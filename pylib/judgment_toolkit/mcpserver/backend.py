"""The one place the MCP server reaches into the toolkit: every tool runs the very command the
CLI runs, in-process, so rules, limits, messages and exit codes exist once (in the CLI's own
modules). When the command modules move, re-point the two imports below.

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
    """`judgment-ledger ARGV...`"""
    from judgment_toolkit.judgment.cli import ledger_main
    return _run(ledger_main, argv)


def ha(argv) -> Outcome:
    """`ha ARGV...`"""
    from judgment_toolkit.ha.cli import main
    return _run(main, argv)
