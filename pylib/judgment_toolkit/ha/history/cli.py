"""`ha history <goal> ...`: `add` is handled here; every view form goes to the read side."""
from __future__ import annotations

from .errors import invalid_input

USAGE = ("usage: ha history <goal> add --kind <kind> --summary <text> [options] | "
         "ha history <goal> add --input <file|-> [--request-id <id>] | "
         "ha history <goal> [current|list|show|graph] ... | ha history <goal> verify [--json]")


def main(argv: list[str]) -> int:
    if not argv:
        raise invalid_input(USAGE)
    goal_arg, rest = argv[0], argv[1:]
    if rest and rest[0] == "add":
        from . import add
        return add.main(goal_arg, rest[1:])
    if rest and rest[0] == "verify":
        from . import chaincheck
        return chaincheck.main(goal_arg, rest[1:])
    try:
        from . import viewcli
    except ImportError:
        raise invalid_input("history views not available") from None
    return viewcli.main(goal_arg, rest)
