"""Keeping the index of one add (index.py has the format): append to a trusted index, or
rebuild it during the full scan. Written only under the exclusive store lock, after the events
line and `last`; any failure leaves a state that no reader trusts (indexread.py).
"""
from __future__ import annotations

import os
import sys
import time

from judgment_toolkit.ha.history.store.index import (
    CITER, NAME, SLOT, SLOTS, SLOTS_TMP, STATE, TMP, State, Unusable, cited, encode, identity)
from judgment_toolkit.ha.history.store.indexread import Trusted
from judgment_toolkit.ha.history.store.verify import StoredEvent


class Writer:
    """Keeps the index of one add: append to a trusted one, or rebuild it from a full scan.
    A rebuild is written into temp files and installed only at commit, so a refused add
    leaves the files as they were. Every step that can fail leaves a state that no longer
    agrees with the files (the state is written last), so the next call does not trust it."""

    def __init__(self, store, dfd: int):
        self.store, self.dfd = store, dfd
        self._ifd = None            # rebuild: index.tmp being written
        self.lines: list = []
        self._pos = 0
        self._slots = None          # rebuild: array of (position, newest citer) pairs

    def _open(self, name: str) -> int:
        fd = self.store._open_file(self.dfd, name, os.O_RDWR | os.O_CREAT)
        if fd is None:
            raise Unusable(f"cannot create {name}")
        return fd

    def _new_tmp(self, name: str) -> int:
        if self.store._check_tmp(self.dfd, name):
            os.unlink(name, dir_fd=self.dfd)
        return os.open(name, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                       0o666, dir_fd=self.dfd)

    def _drop_state(self) -> None:
        try:
            os.unlink(STATE, dir_fd=self.dfd)
        except FileNotFoundError:
            pass

    def start_rebuild(self) -> None:
        from array import array
        try:
            self._ifd = self._new_tmp(TMP)
        except OSError:
            self._ifd = None
            return
        self.lines, self._pos, self._slots = [], 0, array("Q")

    def add(self, ev: StoredEvent) -> None:
        """A verified event of the rebuild scan (in seq order)."""
        if self._ifd is None:
            return
        slots = self._slots
        pairs = []
        for a in cited(ev):
            pairs.append((a, slots[2 * a - 1]))
            slots[2 * a - 1] = ev.seq
        line = encode(ev, pairs)
        slots.extend((self._pos, 0))
        self._pos += len(line)
        self.lines.append(line)
        if len(self.lines) >= 4096:
            self._flush()

    def _flush(self) -> None:
        if self._ifd is not None and self.lines:
            data = b"".join(self.lines)
            try:
                _write_all(self._ifd, data, self._pos - len(data))
            except OSError:
                self.abandon()
        self.lines = []

    def abandon(self) -> None:
        if self._ifd is not None:
            os.close(self._ifd)
            self._ifd = None
            self._slots = None
            for name in (TMP, SLOTS_TMP):
                try:
                    os.unlink(name, dir_fd=self.dfd)
                except OSError:
                    pass

    def commit(self, new: StoredEvent, cached) -> None:
        """After the new event and `last` are stored: record it. `cached` is the Trusted
        index the scan used (append to it), or falsy (install the rebuilt one). Never
        raises: the index is derived data, and any failure leaves an index that the next
        call will not trust."""
        try:
            if cached:
                self._append(new, cached)
            elif self._ifd is not None:
                self._install(new)
        except (OSError, Unusable):
            self.abandon()
            try:
                self._drop_state()
            except OSError:
                pass

    def _install(self, new: StoredEvent) -> None:
        self.add(new)
        self._flush()
        if self._ifd is None:
            return
        sfd = self._new_tmp(SLOTS_TMP)
        try:
            slots = self._slots
            if sys.byteorder != "little":
                slots = slots.__copy__()
                slots.byteswap()
            _write_all(sfd, slots.tobytes(), 0)
            self._drop_state()
            os.rename(TMP, NAME, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
            os.rename(SLOTS_TMP, SLOTS, src_dir_fd=self.dfd, dst_dir_fd=self.dfd)
            self._seal(new, self._ifd, sfd)
        finally:
            os.close(sfd)
        os.close(self._ifd)
        self._ifd = self._slots = None

    def _append(self, new: StoredEvent, trusted: Trusted) -> None:
        ifd, sfd = self._open(NAME), self._open(SLOTS)
        try:
            if (identity(os.fstat(ifd)), identity(os.fstat(sfd))) != \
                    (trusted.state.index, trusted.state.slots):
                raise Unusable("changed under the lock")
            pairs = []
            for a in cited(new):
                data = os.pread(sfd, CITER.size, (a - 1) * SLOT.size + 8)
                if len(data) != CITER.size:
                    raise Unusable("short slots")
                pairs.append((a, CITER.unpack(data)[0]))
            pos = trusted.state.length
            _write_all(ifd, encode(new, pairs), pos)
            _write_all(sfd, SLOT.pack(pos, 0), (new.seq - 1) * SLOT.size)
            for a, _ in pairs:
                _write_all(sfd, CITER.pack(new.seq), (a - 1) * SLOT.size + 8)
            self._seal(new, ifd, sfd)
        finally:
            os.close(ifd)
            os.close(sfd)

    def _seal(self, new: StoredEvent, ifd: int, sfd: int) -> None:
        """Write the state naming the files as they are now."""
        efd = self.store._open_file(self.dfd, "events.jsonl")
        try:
            ev_id = identity(os.fstat(efd))
        finally:
            os.close(efd)
        state = State(new.seq, new.sha256, ev_id, identity(os.fstat(ifd)),
                      identity(os.fstat(sfd)))
        newest = max(state.events[4], state.index[4], state.slots[4])
        data = state.to_bytes(self.store.key)
        fd = self._open(STATE)
        try:
            _write_all(fd, data, 0)
            os.ftruncate(fd, len(data))
            for _ in range(3):  # not racy: the state must be newer than every recorded ctime
                if os.fstat(fd).st_mtime_ns > newest:
                    return
                time.sleep(0.005)
                os.utime(fd)
            raise Unusable("the clock did not move")
        finally:
            os.close(fd)


def _write_all(fd: int, data: bytes, pos: int) -> None:
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, pos)
        if n <= 0:
            raise OSError("short write")
        view, pos = view[n:], pos + n
