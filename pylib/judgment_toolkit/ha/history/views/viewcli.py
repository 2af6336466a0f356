"""`ha history <goal> [current|list|show] ...`: the argument handling of the read side; the
view itself is computed by viewrun.view and written through judgment_toolkit.output.

    [current|list] [--target ID]... [--keyword WORD]... [--since CURSOR] [--page CURSOR]
                   [--limit N] [--format md|json | --json]
    show <Dn> | show --request-id ID  [--page CURSOR] [--limit N] [--format md|json | --json]

`--json` is `--format json` spelled the other way (verify takes both too); giving both is
fine when they agree, and `--json --format md` is refused.

A continuation (`--page`) must repeat the view and the conditions of the call that gave the
cursor (filters, --since; --limit may change): the cursor pins them, and other conditions are
cursor_mismatch. Views never create or change files.
"""
from __future__ import annotations

from judgment_toolkit import output
from judgment_toolkit.cliargs import ArgError, HelpRequested, is_utf8, scan, whole_number
from judgment_toolkit.ha.history.cliopts import json_format, unknown_option
from judgment_toolkit.ha.history.views import facts as factsmod
from judgment_toolkit.ha.history.errors import invalid_input, limit_exceeded
from judgment_toolkit.ha.history.model import check_request_id, event_seq

VIEWS = ("current", "list", "show")
LIMIT_DEFAULT, LIMIT_MAX = 20, 200
_REPEAT = ("--target", "--keyword")
_SINGLE = ("--since", "--page", "--limit", "--format", "--request-id")
_SWITCHES = ("--json",)


class Args:
    def __init__(self, argv):
        self.view = "current"
        rest = list(argv)
        if rest and rest[0] in VIEWS:
            self.view = rest.pop(0)
        try:
            p = scan(rest, single=_SINGLE, multi=_REPEAT, switches=_SWITCHES, dash_is_flag=True)
        except ArgError as e:
            command = f"history {self.view}"
            if e.kind == "unknown":
                raise invalid_input(unknown_option(command, e.name,
                                                   _SINGLE + _REPEAT + _SWITCHES)) from None
            raise invalid_input(f"{command}: " + {
                "needs_value": f"{e.name} needs a value",
                "twice": f"{e.name} given twice"}[e.kind]) from None
        if p.help:
            raise HelpRequested(f"ha history {self.view}")
        self.values, positional = p.values, p.positional
        for name, value in [*((k, v) for k in _REPEAT for v in self.values[k]),
                            *((k, v) for k, v in self.values.items() if k in _SINGLE)]:
            if not is_utf8(value):
                raise invalid_input(f"history {self.view}: {name} value is not valid UTF-8")
        self.targets = self.values["--target"]
        self.keywords = self.values["--keyword"]
        self.since = self.values.get("--since")
        self.page = self.values.get("--page")
        self.format = json_format(self.values.get("--format"), p.switches,
                                  f"history {self.view}")
        self.limit = _limit(self.values.get("--limit"))
        self.selector = None
        request_id = self.values.get("--request-id")
        if self.view == "show":
            for name in ("--target", "--keyword", "--since"):
                if self.values.get(name):
                    raise invalid_input(f"history show: {name} is for current and list")
            if request_id is not None:
                if positional:
                    raise invalid_input("history show: give an event id or --request-id, "
                                        "not both")
                self.selector = factsmod.Selector(request_id=check_request_id(request_id))
            elif len(positional) == 1:
                self.selector = factsmod.Selector(seq=event_seq(positional[0]), shown=positional[0])
            else:
                raise invalid_input("history show: needs one event id (D1, D2, ...) or "
                                    "--request-id ID")
        else:
            if request_id is not None:
                raise invalid_input(f"history {self.view}: --request-id is for show")
            if positional:
                raise invalid_input(f"history {self.view}: unexpected argument "
                                    f"{positional[0]!r}")


def _limit(raw) -> int:
    if raw is None:
        return LIMIT_DEFAULT
    if not (raw.isascii() and raw.isdigit()) or not raw.strip("0"):
        raise invalid_input(f"--limit {raw!r} must be a whole number from 1 to {LIMIT_MAX}")
    n = whole_number(raw.lstrip("0"))  # None past 18 digits: over the maximum, never an int()
    if n is None or n > LIMIT_MAX:
        raise limit_exceeded(f"--limit {raw} is over the maximum of {LIMIT_MAX}")
    return n


def main(goal_arg: str, argv, out=None) -> int:
    output.write(run(goal_arg, argv), out)
    return 0


def run(goal_arg: str, argv, cwd: str | None = None) -> str:
    """The rendered view (the whole output) for `ha history <goal_arg> <argv...>`."""
    from judgment_toolkit.ha.history.views.viewrun import view
    return view(goal_arg, Args(argv), cwd)
