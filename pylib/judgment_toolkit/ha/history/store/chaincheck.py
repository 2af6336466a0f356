"""`ha history <goal> verify [--json]`: verify the whole stored chain from scratch.

Every line is parsed and checked field by field (schema, id, seq, prev hash, request id,
decision, context, relations, size), nothing that `last` or any cache vouches for is trusted,
and `last` is compared with the lines at the end. Read-only: nothing is created, repaired or
truncated. Intact: exit 0 and the number of events. Damaged: the contract's error and exit
code (history_corrupt 65, history_unsupported 66, history_unreadable 70) naming the first bad
line when the damage is in a line; `--json` (or `--format json`) prints {"ok", "events",
"first_bad_line", "error", "message"}: `error` the machine code, `message` its text.
"""
from __future__ import annotations

import re

from judgment_toolkit import output
from judgment_toolkit.cliargs import ArgError, HELP_FLAGS, HelpRequested, scan
from judgment_toolkit.ha.history.cliopts import json_format, unknown_option
from judgment_toolkit.ha.history.context import open_history
from judgment_toolkit.ha.history.errors import HistoryError, invalid_input

USAGE = "usage: ha history <goal> verify [--json | --format json]"


def full_verification(store):
    """The one place that runs the store's full verification from scratch; yields each
    verified event (seq order), raising HistoryError at the first damage."""
    yield from store.scan(full=True)


class Result:
    def __init__(self, events: int, first_bad_line: int | None, error: HistoryError | None):
        self.events, self.first_bad_line, self.error = events, first_bad_line, error

    def as_json(self) -> dict:
        return {"ok": self.error is None, "events": self.events,
                "first_bad_line": self.first_bad_line,
                "error": None if self.error is None else self.error.code,
                "message": None if self.error is None else self.error.message}


def check(store) -> Result:
    """Verify `store`; damage is reported in the Result, not raised. `events` counts the lines
    verified before the first bad one. The first bad line is the line after the last verified
    one when the error came while reading lines, the line `last` names when the lines are
    intact but the last one is not what `last` recorded (an edit of the final line), and None
    when the damage is not in a line (events missing from the end, an unreadable store)."""
    verified = 0
    try:
        if not store.exists():
            return Result(0, None, None)
        for stored in full_verification(store):
            verified = stored.seq
    except HistoryError as err:
        bad = _bad_line(err, verified)
        return Result(verified if bad is None else bad - 1, bad, err)
    return Result(verified, None, None)


_LAST_MISMATCH = re.compile(r" names D([1-9][0-9]*) with another sha256 than the stored line")


def _bad_line(err: HistoryError, verified: int):
    if err.code == "history_unreadable":
        return None
    m = _LAST_MISMATCH.search(err.message)
    if m:
        return int(m.group(1))
    return verified + 1 if f" line {verified + 1}" in err.message else None


def main(goal_arg: str, argv, out=None) -> int:
    if any(a in HELP_FLAGS for a in argv):
        raise HelpRequested("ha history verify")
    as_json = _wants_json(argv)
    ctx = open_history(goal_arg, for_write=False)
    result = check(ctx.store)
    if as_json:
        output.print_json(result.as_json(), out=out)
    if result.error is not None:
        raise result.error
    if not as_json:
        output.write(f"ok: {result.events} event{'s' if result.events != 1 else ''}, chain intact "
                     f"(start {ctx.store.key[:12]})\n" if result.events else "history: absent\n",
                     out)
    return 0


def _wants_json(argv) -> bool:
    try:
        p = scan(argv, single=("--format",), switches=("--json",), max_positional=0,
                 dash_is_flag=True)
    except ArgError as e:
        if e.kind == "unknown":
            raise invalid_input(unknown_option("history verify", e.name,
                                               ("--json", "--format")) + f"; {USAGE}") from None
        raise invalid_input(f"history verify: " + {
            "needs_value": f"{e.name} needs a value",
            "twice": f"{e.name} given twice",
            "unexpected": f"unexpected argument {e.name!r}"}[e.kind] + f"; {USAGE}") from None
    return json_format(p.get("--format"), p.switches, "history verify", ("json",),
                       default="text") == "json"
