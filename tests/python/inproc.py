"""`ha` called in-process: judgment_toolkit.ha.cli.main(argv) in the test's own interpreter, with
the working directory, environment, stdin, stdout and stderr a process would have, and a
subprocess.CompletedProcess back, so a test of a rule of the data reads exactly what
conftest.ha (the real scripts/ha process) gives: the same stdout, stderr and exit code.

Use it where the process boundary is not what is tested (a process start costs ~0.15 s; the
history tests made thousands). Each entry point keeps its subprocess tests (conftest.ha) for
argument parsing, exit codes and what the Bash layer does. docs/internals.md, "Tests: how they
run". Safe under pytest-xdist: each worker is its own process and runs one test at a time.
"""
import io
import os
import subprocess
import sys
from contextlib import contextmanager

from judgment_toolkit.ha import cli as ha_cli

from conftest import GIT_ENV


class _Stream(io.TextIOWrapper):
    """A text stream over bytes, as a process's stdout or stderr is (main reconfigures it)."""

    def __init__(self):
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)

    def value(self) -> str:
        """What subprocess.run(text=True) would give: locale decoding, universal newlines."""
        self.flush()
        raw = self.buffer.getvalue()
        return io.TextIOWrapper(io.BytesIO(raw)).read()


@contextmanager
def _process(cwd, env, stdin):
    saved = (os.getcwd(), dict(os.environ), sys.stdin, sys.stdout, sys.stderr)
    try:
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        sys.stdin = stdin
        yield
    finally:
        os.chdir(saved[0])
        os.environ.clear()
        os.environ.update(saved[1])
        sys.stdin, sys.stdout, sys.stderr = saved[2:]


def ha(*args, cwd, env=None, input=None, timeout=None):
    """conftest.ha's signature and answer, without the process. `timeout` is accepted for
    the same signature (a safety net there, never an assertion)."""
    del timeout
    full_env = dict(os.environ, **GIT_ENV)
    full_env.update(env or {})
    argv = [os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args]
    data = input.encode() if isinstance(input, str) else (input or b"")
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    out, err = _Stream(), _Stream()
    with _process(cwd or os.getcwd(), full_env, stdin):
        sys.stdout, sys.stderr = out, err
        try:
            code = ha_cli.main(argv)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return subprocess.CompletedProcess(["ha", *argv], code, out.value(), err.value())
