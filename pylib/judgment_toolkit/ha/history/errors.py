"""Every decision-history error code and its exit code, in one table
(decision-history/v1, section 9 '영수증과 오류'; docs/history.md, "Errors").

A `HistoryError` is a value: a machine code, a message saying what was wrong and which input
caused it, and the exit code this table gives the code. ha.cli renders it as
`ha: <code>: <message>` on stderr.
"""
from __future__ import annotations

from judgment_toolkit.ha.errors import INTERNAL, REFUSED, UNSUPPORTED, USAGE, HaError

EXIT_CODES = {
    "invalid_input": USAGE,          # arguments, kind, status, format, identifier, field errors
    "limit_exceeded": USAGE,         # a documented input limit (not the too_large observation)
    "invalid_reference": REFUSED,    # unknown target, missing run record line, hash mismatch
    "invalid_relation": REFUSED,     # a relation that does not point at an earlier stored event
    "correction_conflict": REFUSED,  # another correction of the same event was stored first
    "request_conflict": REFUSED,     # the request id already names a different decision
    "not_started": REFUSED,          # the goal has no valid start record
    "run_record_broken": REFUSED,    # the run record chain is broken (add)
    "history_corrupt": REFUSED,      # damaged store: lines, chain, seq, relations, `last`
    "unknown_event": REFUSED,        # views: no such event / request id
    "cursor_invalid": REFUSED,       # views: a cursor of another history or not a cursor
    "cursor_stale": REFUSED,         # views: the cursor's run head is no longer verifiable
    "cursor_mismatch": REFUSED,      # views: a cursor made for other query conditions
    "history_unsupported": UNSUPPORTED,  # unknown history schema version or start rules
    "history_unreadable": INTERNAL,  # I/O, permissions, symlinks or odd files in the store path
    "write_uncertain": INTERNAL,     # the write may or may not have applied
}


class HistoryError(HaError):
    show_code = True

    def __init__(self, code: str, message: str):
        super().__init__(message, EXIT_CODES[code], code)


def invalid_input(message: str) -> HistoryError:
    return HistoryError("invalid_input", message)


def limit_exceeded(message: str) -> HistoryError:
    return HistoryError("limit_exceeded", message)


def corrupt(message: str) -> HistoryError:
    return HistoryError("history_corrupt", message)


def unreadable(message: str) -> HistoryError:
    return HistoryError("history_unreadable", message)
