"""One check command in its own process group, and stopping that group as a whole.

`ha check` starts each command with start_new_session, so the command and everything it starts
share one process group. The group is stopped when the command times out, when ha receives
SIGTERM, SIGHUP or SIGINT while the command runs (`Guard`), and after the command exits
(whatever it left behind). Stopping sends SIGTERM to the group, gives it STOP_GRACE seconds,
then sends SIGKILL, and returns once no member of the group is running.
"""
from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

from . import safefs
from .errors import STOP_SIGNALS as _BY_NAME, signal_exit

STOP_SIGNALS = tuple(signal.Signals[name] for name, _number in _BY_NAME)  # errors.py's three
STOP_GRACE = 2.0     # seconds between SIGTERM and SIGKILL to a group
_KILL_WAIT = 2.0     # how long to wait for SIGKILLed members to be gone (they cannot refuse)
_POLL = 0.02


class Interrupted(Exception):
    """ha received one of STOP_SIGNALS (errors.py); ha check exits signal_exit(signum)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum

    @property
    def name(self) -> str:
        return signal.Signals(self.signum).name

    @property
    def exit_code(self) -> int:
        return signal_exit(self.signum)


class Guard:
    """While active, STOP_SIGNALS never end ha on the spot. The first one is kept (`caught`);
    while a command runs (`arm` ... `disarm`) it is raised as Interrupted into the wait so the
    group can be stopped and the check recorded; at any other moment (an append under the lock)
    it waits for the next `raise_pending`. A signal ignored when ha started (`nohup ha check`)
    stays ignored. Outside the main thread signals are the caller's: the guard does nothing."""

    def __init__(self):
        self.caught = None
        self._armed = False
        self._saved = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                if signal.getsignal(signum) is signal.SIG_IGN:
                    continue  # ignored by whoever started ha (nohup, a background job): stays so
                self._saved[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *exc):
        for signum, handler in self._saved.items():
            signal.signal(signum, handler)
        self._saved.clear()

    def _handle(self, signum, _frame):
        if self.caught is None:
            self.caught = signum
        if self._armed:
            self._armed = False
            raise Interrupted(self.caught)

    def arm(self):
        self._armed = True
        self.raise_pending()  # a signal that came while the command was being started

    def disarm(self):
        self._armed = False

    def raise_pending(self):
        if self.caught is not None:
            self._armed = False
            raise Interrupted(self.caught)


def run(argv, cwd, log_fd, timeout, guard):
    """Run argv into log_fd: (exit code or None, duration ms). A note goes into the log when
    ha stopped the command (timeout, `guard.caught`) or could not start it."""
    began = time.monotonic()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=log_fd,
                                stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as exc:
        _note(log_fd, f"ha: cannot start {argv[0]!r}: {exc.strerror or exc}\n")
        return None, _ms(began)
    try:
        try:
            guard.arm()
            code = proc.wait(timeout=timeout)
        finally:
            guard.disarm()
    except subprocess.TimeoutExpired:
        stop(proc)
        _note(log_fd, f"\nha: timed out after {timeout:g} s; stopped\n")
        return None, _ms(began)
    except Interrupted as exc:
        stop(proc)
        _note(log_fd, f"\nha: interrupted by {exc.name}; stopped the command's process group\n")
        return None, _ms(began)
    except BaseException:
        stop(proc)
        raise
    _signal_group(proc.pid, signal.SIGKILL)  # leftovers of a command that exited
    if code < 0:
        code = 128 - code  # killed by a signal: the shell's 128+n convention
    return code, _ms(began)


def stop(proc, grace=STOP_GRACE):
    """SIGTERM to the group, SIGKILL after `grace` seconds; returns once none of it runs."""
    pgid = proc.pid
    if _signal_group(pgid, signal.SIGTERM) and not _wait_gone(proc, grace):
        _signal_group(pgid, signal.SIGKILL)
        _wait_gone(proc, _KILL_WAIT)
    proc.wait()


def _wait_gone(proc, seconds) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        proc.poll()  # reap the leader: a zombie of ours must not count as running
        if not running(proc.pid):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL)


def running(pgid) -> bool:
    """Whether a member of process group `pgid` still runs. Members that have exited but wait
    for their new parent (init) to reap them count as gone: they hold no resources but a slot."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return True  # no /proc: the group exists, so something in it may run
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # exited meanwhile
        if int(fields[2]) == pgid and fields[0] not in (b"Z", b"X"):
            return True
    return False


def _signal_group(pgid, signum) -> bool:
    try:
        os.killpg(pgid, signum)
        return True
    except (ProcessLookupError, PermissionError):
        return False


def _note(fd, text):
    safefs.write_all(fd, text.encode())


def _ms(began):
    return int((time.monotonic() - began) * 1000)
