"""A program run as a person runs it: in a pseudo-terminal of a fixed size, its output fed to a
terminal emulator (pyte), so a test reads the screen the person would read and types keys.

Waiting is on the screen's content, never a fixed sleep: `wait_for` returns as soon as the
text is on screen. Its deadline is a safety net against a hang (a failure that prints the
screen), never an assertion about speed. The program runs in a session (process group) of its
own, which `close` kills whole.
"""
import fcntl
import os
import signal
import struct
import subprocess
import termios
import threading
import time

import pyte

SAFETY = 60  # seconds: text not on screen by then is a failure, not a bound
RETRY = 1  # seconds: a key that changed nothing on screen by then is pressed again

KEYS = {"enter": b"\r", "down": b"\x1b[B", "up": b"\x1b[A"}


class Terminal:
    def __init__(self, argv, env, cwd, columns=120, rows=40):
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self._lock = threading.Lock()
        self._changed = threading.Condition(self._lock)
        self.ended = False  # the program closed the terminal (it ended)
        self.output = bytearray()  # every byte the program wrote: what scrolled off the screen too
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     cwd=cwd, start_new_session=True, close_fds=True)
        os.close(slave)
        self._reader = threading.Thread(target=self._pump, daemon=True)
        self._reader.start()

    def _pump(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # EIO: the program closed its side
                data = b""
            with self._changed:
                if data:
                    self.output.extend(data)
                    self._stream.feed(data)
                else:
                    self.ended = True
                self._changed.notify_all()
            if not data:
                return

    def _shown(self):
        """The screen as lines of text, blanks on the right cut (the lock held)."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, *texts, timeout=SAFETY):
        """Returns the screen once every one of `texts` is on it at the same time."""
        return self.wait_until(lambda shown: all(text in shown for text in texts),
                               f"on screen: {texts!r}", timeout)

    def wait_until(self, ready, what, timeout=SAFETY):
        """Returns the screen once `ready(screen text)` is true; fails after `timeout` (or when
        the program has ended), printing the screen."""
        end = time.monotonic() + timeout
        with self._changed:
            while True:
                shown = self._shown()
                if ready(shown):
                    return shown
                left = end - time.monotonic()
                if left <= 0 or self.ended:
                    raise AssertionError(f"never {what}; the screen:\n{shown}")
                self._changed.wait(left)

    def press_until(self, key, ready, what, every=RETRY):
        """Presses `key` until `ready(screen text)`, again each `every` seconds it is not: for a
        dialog that drops the keys pressed in its first moments on screen."""
        end = time.monotonic() + SAFETY
        while True:
            self.press(key)
            try:
                return self.wait_until(ready, what, min(every, max(0.1, end - time.monotonic())))
            except AssertionError:
                if time.monotonic() >= end or self.ended:
                    raise

    def type(self, text):
        os.write(self.master, text.encode())

    def press(self, key):
        os.write(self.master, KEYS[key])

    def close(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self._reader.join(timeout=5)  # it ends on EIO once no process holds the terminal
        os.close(self.master)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
