"""The store folder's files and the path rules every read and write obeys (docs/history.md,
"Storage"): each component is opened relative to its parent's fd without following symlinks;
a symlink, a non-regular file or folder, or a file with more than one link anywhere in the
store path is history_unreadable. Only the writer creates folders (`_open_dir(create=True)`).
"""
from __future__ import annotations

import errno
import os
import stat

from judgment_toolkit.ha import safefs
from judgment_toolkit.ha.history import model
from judgment_toolkit.ha.history.errors import unreadable
from judgment_toolkit.ha.history.store import index

EVENTS, LAST, LOCK, TMP = "events.jsonl", "last", "lock", "last.tmp"
TEMPS = (TMP, index.TMP, index.SLOTS_TMP)


def why(exc: OSError) -> str:
    return exc.strerror or str(exc)


class Folder:
    """The paths of one store and safe fds on them; Store adds the reads (store.py)."""

    def __init__(self, common_dir: str, key: str):
        self.common_dir = common_dir
        self.key = key
        self.dir = os.path.join(common_dir, "ha", "history", key)
        self.events_path = os.path.join(self.dir, EVENTS)
        self.last_path = os.path.join(self.dir, LAST)
        self.lock_path = os.path.join(self.dir, LOCK)
        self.tmp_path = os.path.join(self.dir, TMP)
        self.index_path = os.path.join(self.dir, index.NAME)

    def _open_dir(self, create: bool = False):
        """fd of the store folder, or None when (some part of) it does not exist."""
        try:
            fd = os.open(self.common_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise unreadable(f"cannot open git dir {self.common_dir}: {why(exc)}") from None
        shown = self.common_dir
        for part in ("ha", "history", self.key):
            shown = os.path.join(shown, part)
            try:
                try:
                    nfd = safefs.open_dir(part, dir_fd=fd)
                except FileNotFoundError:
                    if not create:
                        return None
                    try:
                        os.mkdir(part, 0o777, dir_fd=fd)
                        os.fsync(fd)  # the new folder's entry must survive a crash
                    except FileExistsError:
                        pass
                    nfd = safefs.open_dir(part, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise unreadable(f"{shown} is a symlink or not a folder") from None
                raise unreadable(f"cannot open {shown}: {why(exc)}") from None
            finally:
                os.close(fd)
            fd = nfd
        return fd

    def _open_file(self, dfd: int, name: str, flags: int = os.O_RDONLY, mode: int = 0o666):
        """fd of a regular single-link file in the store folder, or None when missing."""
        try:
            return safefs.open_file(name, flags, mode, dir_fd=dfd, single_link=True)
        except safefs.FsError as exc:
            shown = os.path.join(self.dir, name)
            if exc.state == "missing" and not exc.detail:
                return None
            if exc.state == "not_regular":
                if "links" in exc.detail:
                    raise unreadable(f"{shown} has {exc.detail}") from None
                raise unreadable(f"{shown} is a symlink or not a regular file") from None
            raise unreadable(f"cannot open {shown}: {exc.detail}") from None

    def _check_tmp(self, dfd: int, name: str = TMP) -> bool:
        """A temp file may only be absent or a regular single-link file (True if present)."""
        try:
            st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise unreadable(f"cannot inspect {os.path.join(self.dir, name)}: {why(exc)}"
                             ) from None
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            raise unreadable(f"{os.path.join(self.dir, name)} is a symlink, not a regular file "
                             "or has links")
        return True

    def _check_temps(self, dfd: int) -> None:
        for name in TEMPS:
            self._check_tmp(dfd, name)

    def read_last(self, dfd: int):
        """The bytes of `last` (None when it does not exist)."""
        fd = self._open_file(dfd, LAST)
        if fd is None:
            return None
        try:
            return os.read(fd, model.LAST_MAX + 1)
        except OSError as exc:
            raise unreadable(f"cannot read {self.last_path}: {why(exc)}") from None
        finally:
            os.close(fd)
