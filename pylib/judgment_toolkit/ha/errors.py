"""Exit codes shared by every ha command, the core's error codes, and the one exception type.

An HaError is a value, like the decision history's (history/errors.py): a machine `code` that
callers branch on (never the message text), a `message` for people saying what was wrong and
which input caused it, and the `exit_code` the code's table gives. ha.cli prints
`ha: <message>` (docs/ha-core.md, "Exit codes and messages"), or `ha: <code>: <message>`
where the code is part of the documented line: every history error, and the core's
`record_integrity`.
"""
from __future__ import annotations

USAGE = 64        # bad arguments, unknown flags, malformed input
REFUSED = 65      # the request is understood and refused (not started, broken chain, ...)
UNSUPPORTED = 66  # unsupported run rules or an unsupported history schema
INTERNAL = 70     # internal error, I/O failure, or a write that may have applied
# ha check stops its running command's process group on these and exits 128 + the signal's
# number (the shell's convention). By name and number, so the help's exit table needs no
# `signal` import on every start; POSIX fixes these three numbers (a test checks them).
STOP_SIGNALS = (("SIGHUP", 1), ("SIGINT", 2), ("SIGTERM", 15))


def signal_exit(signum: int) -> int:
    return 128 + signum

CODES = {
    "usage": USAGE,                  # arguments, goal path, not in a git worktree, target id
    "goal_invalid": REFUSED,         # SPEC.md / PLAN.md malformed (file:line), no SPEC.md
    "target_refused": REFUSED,       # a target the goal does not declare or ha cannot run
    "not_started": REFUSED,          # the run record has no start line
    "already_started": REFUSED,      # ha start on a non-empty run record
    "goal_exists": REFUSED,          # ha new where SPEC.md and PLAN.md both exist already
    "no_commit": REFUSED,            # ha start in a repository without a commit
    "record_integrity": REFUSED,     # the run record chain is broken (ha never repairs it)
    "unsupported_rules": UNSUPPORTED,  # run rules this ha does not know
    "io_error": INTERNAL,            # git or the file system failed; nothing was written
    "write_uncertain": INTERNAL,     # a write failed after it began: it may have applied
}
SHOWN = frozenset({"record_integrity"})  # core codes its stderr line names
_GENERIC = {USAGE: "usage", REFUSED: "refused", UNSUPPORTED: "unsupported", INTERNAL: "internal"}


class HaError(Exception):
    show_code = False  # HistoryError: every code is shown

    def __init__(self, message: str, exit_code: int, code: str | None = None):
        super().__init__(message)
        if exit_code not in _GENERIC:
            raise ValueError(f"HaError: exit code {exit_code!r} is not one of {list(_GENERIC)}")
        self.message = message
        self.exit_code = exit_code
        self.code = code or _GENERIC[exit_code]

    def render(self) -> str:
        if self.show_code or self.code in SHOWN:
            return f"ha: {self.code}: {self.message}"
        return f"ha: {self.message}"


def error(code: str, message: str) -> HaError:
    """A core error by its code (CODES gives the exit code)."""
    return HaError(message, CODES[code], code)
