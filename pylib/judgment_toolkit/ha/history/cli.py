"""`ha history <goal> ...`: `add` goes to the write side's argument handling (addcli); every
view form goes to the read side's (viewcli). Help is answered, and the goal argument checked
for UTF-8, before anything looks the goal up.
"""
from __future__ import annotations

from judgment_toolkit.cliargs import HELP_FLAGS, HelpRequested, is_utf8
from judgment_toolkit.ha.history.cliopts import SUBCOMMANDS, goal_first, unknown_view
from judgment_toolkit.ha.history.errors import invalid_input

USAGE = ("usage: ha history <goal> add --kind <kind> --summary <text> [options] | "
         "ha history <goal> add --input <file|-> [--request-id <id>] | "
         "ha history <goal> [current|list|show|graph] ... | "
         "ha history <goal> verify [--json | --format json]")


def main(argv: list[str]) -> int:
    if not argv:
        raise invalid_input(USAGE)
    if argv[0] in HELP_FLAGS:
        raise HelpRequested("ha history")
    goal_arg, rest = argv[0], argv[1:]
    if goal_arg.startswith("-") and goal_arg != "-":
        raise invalid_input(goal_first(goal_arg))
    if not is_utf8(goal_arg):
        raise invalid_input(f"goal {goal_arg!r} is not valid UTF-8")
    if rest and not rest[0].startswith("-") and rest[0] not in SUBCOMMANDS:
        raise invalid_input(unknown_view(rest[0]))
    if rest and rest[0] == "add":
        from judgment_toolkit.ha.history.register import addcli
        return addcli.main(goal_arg, rest[1:])
    if rest and rest[0] == "verify":
        from judgment_toolkit.ha.history.store import chaincheck
        return chaincheck.main(goal_arg, rest[1:])
    from judgment_toolkit import output
    if rest and rest[0] == "graph":
        # graph builds on viewcli's arguments, so viewcli must not import graph back
        from judgment_toolkit.ha.history.views import graph
        output.write(graph.run(goal_arg, rest[1:]), None)
        return 0
    from judgment_toolkit.ha.history.views import viewcli  # ships with add: an ImportError here is a real bug, never "unavailable"
    return viewcli.main(goal_arg, rest)

