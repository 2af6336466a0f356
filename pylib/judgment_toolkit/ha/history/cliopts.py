"""What every `ha history` command line shares: how JSON output is asked for, and how an
unknown option or view is refused (with the near spelling, cliargs.did_you_mean).

`--json` and `--format json` are one request, accepted by every history command that prints
JSON (current, list, show, graph, verify; docs/history-views.md, "Asking for JSON"). Giving both is fine
when they agree; `--json --format md` asks for two formats and is refused.
"""
from __future__ import annotations

from judgment_toolkit.cliargs import did_you_mean
from judgment_toolkit.ha.history.errors import invalid_input

SUBCOMMANDS = ("add", "current", "list", "show", "graph", "verify")
FORMATS = ("md", "json")


def json_format(fmt: str | None, switches, command: str, formats=FORMATS,
                default: str = "md") -> str:
    """The output format from the `--format` value (None when not given) and the switches."""
    if "--json" in switches:
        if fmt not in (None, "json"):
            raise invalid_input(f"{command}: --json and --format {fmt} ask for two formats; "
                                "give one")
        return "json"
    if fmt is None:
        return default
    if fmt not in formats:
        named = " or ".join(formats) if len(formats) < 3 else \
            f"{', '.join(formats[:-1])} or {formats[-1]}"
        raise invalid_input(f"{command}: --format must be {named}, not {fmt!r}")
    return fmt


def unknown_option(command: str, name: str, choices) -> str:
    """`<command>: unknown option --limt (did you mean '--limit'?)`."""
    return f"{command}: unknown option {name}" + did_you_mean(name, [*choices, "--help"])


def unknown_view(word: str) -> str:
    """The refusal of a word where a view or `add`/`verify` stands: it names the word as an
    unknown view (never as a stray argument of `current`) and suggests the near one; an event
    id there is most likely a `show` without its verb."""
    from judgment_toolkit.ha.history.model import EVENT_ID_RE
    hint = f" (did you mean 'show {word}'?)" if EVENT_ID_RE.fullmatch(word) else \
        did_you_mean(word, SUBCOMMANDS)
    return (f"history: unknown view {word!r}{hint}; after the goal give one of "
            f"{', '.join(SUBCOMMANDS)}, or only options (current is the default)")


def goal_first(flag: str) -> str:
    """An option where the goal stands (`ha history --json`): the goal comes first. A goal
    folder whose name starts with `-` is still reachable as `./-name`."""
    return (f"history: the goal comes first, not {flag!r}{did_you_mean(flag, ('--help', '-h'))}"
            f"; ha history <goal> [add|current|list|show|graph|verify] [options] (a folder "
            f"named so: ./{flag})")
