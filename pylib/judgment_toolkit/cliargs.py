"""The one argument scanner behind every command line (judgment-ledger, judgment-card, ha).

It only splits argv: flags (`--name value` or `--name=value`; the next argument is always the
value, even when it starts with `-`), repeatable flags, switches (flags without a value),
positionals, and `-h`/`--help` wherever a flag may stand. It raises `ArgError` values (a kind
and the argument concerned) and never prints: each command line turns them into its own
documented message and exit code, so the messages stay where the docs and tests pin them.

Kinds: "unknown" (a flag not declared), "twice" (a single flag given again), "needs_value"
(a flag at the end of argv), "unexpected" (a positional beyond what the command takes).
"""
from __future__ import annotations

HELP_FLAGS = ("-h", "--help")


class ArgError(Exception):
    def __init__(self, kind: str, name: str, arg: str | None = None):
        super().__init__(f"{kind}: {name}")
        self.kind = kind
        self.name = name                 # the flag (without `=value`) or the positional
        self.arg = name if arg is None else arg  # the whole argument as given


class HelpRequested(Exception):
    """-h/--help stood where a flag may: the command line prints the usage of `command` on
    stdout and exits 0."""

    def __init__(self, command: str | None = None):
        super().__init__(command)
        self.command = command


class Parsed:
    def __init__(self):
        self.values: dict = {}      # single flag -> str; repeatable flag -> [str, ...]
        self.switches: set = set()  # switches given
        self.positional: list = []
        self.help = False

    def get(self, name, default=None):
        return self.values.get(name, default)


def scan(argv, single=(), multi=(), switches=(), *, max_positional=None, dashdash=False,
         dash_is_flag=False, positional_is_unknown=False) -> Parsed:
    """Split argv. `single`/`multi`/`switches` are flag spellings (`--name`).

    dashdash: `--` ends the flags (the rest are positionals).
    dash_is_flag: a `-x` argument (other than `-`) is a flag (so unknown) rather than a
    positional. positional_is_unknown: a positional is an "unknown" error, not "unexpected".
    Help flags in a flag position end the scan with `help` set (errors before them stand).
    """
    p = Parsed()
    for name in multi:
        p.values[name] = []
    i, only_positional = 0, False
    while i < len(argv):
        arg = argv[i]
        i += 1
        if not only_positional and dashdash and arg == "--":
            only_positional = True
            continue
        if not only_positional and arg in HELP_FLAGS:
            p.help = True
            return p
        is_flag = not only_positional and (
            (arg.startswith("--") and len(arg) > 2) or (dash_is_flag and arg.startswith("-")
                                                         and arg != "-"))
        if not is_flag:
            if positional_is_unknown:
                raise ArgError("unknown", arg)
            if max_positional is not None and len(p.positional) >= max_positional:
                raise ArgError("unexpected", arg)
            p.positional.append(arg)
            continue
        name, eq, value = arg.partition("=")
        if name in switches:
            if eq:
                raise ArgError("unknown", name, arg)
            p.switches.add(name)
            continue
        if name not in single and name not in multi:
            raise ArgError("unknown", name, arg)
        if name in single and name in p.values:
            raise ArgError("twice", name, arg)
        if not eq:
            if i >= len(argv):
                raise ArgError("needs_value", name, arg)
            value = argv[i]
            i += 1
        if name in multi:
            p.values[name].append(value)
        else:
            p.values[name] = value
    return p


def exit_codes_text(rows) -> str:
    """The `exit codes:` block of a --help text from [(code, meaning)], wrapped at 79
    columns; Markdown backticks (the docs print the same tables) are dropped."""
    import textwrap
    out = ["exit codes:\n"]
    for code, meaning in rows:
        out.append(textwrap.fill(meaning.replace("`", ""), 79, initial_indent=f"  {code:<4}",
                                 subsequent_indent=" " * 6) + "\n")
    return "".join(out)


JSON_FLAGS = ("--format", "--json")  # declare "--format" as a single flag, "--json" a switch


def output_format(parsed: Parsed, formats, default: str) -> str:
    """The output format a command was asked for. Every command that prints JSON takes both
    spellings: `--json` is `--format json` (README, "Install"). Raises ValueError with the
    message (naming the flags) for the command line to report as its usage error."""
    fmt = parsed.values.get("--format")
    if "--json" in parsed.switches:
        if fmt not in (None, "json"):
            raise ValueError(f"--json and --format {fmt} disagree (--json means --format json)")
        fmt = "json"
    fmt = default if fmt is None else fmt
    if fmt not in formats:
        raise ValueError(f"--format must be {' or '.join(formats)}, not {fmt!r}")
    return fmt


def is_utf8(text: str) -> bool:
    """False for text decoded from argv bytes that are not UTF-8 (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def whole_number(text: str, max_digits: int = 18) -> int | None:
    """The value of a plain ASCII decimal of at most `max_digits` digits, else None; so a
    4301-digit number is an ordinary bad value (never int()'s digit-limit ValueError)."""
    if not text.isascii() or not text.isdigit() or len(text) > max_digits:
        return None
    return int(text)


SUGGEST_MAX_LEN = 64  # a longer word is no typo of a command name: no distance is computed


def suggest(word: str, choices) -> str | None:
    """The one choice that `word` is a likely typo of, else None: the nearest by edit distance
    (insert, delete, substitute, swap two neighbours), at most 1 for words of up to 4 characters
    and 2 beyond, and only when no other choice is as near. Leading dashes count as written, so
    `--limt` finds `--limit` and `lst` finds `list`. Cost is bounded by SUGGEST_MAX_LEN."""
    if not word or len(word) > SUGGEST_MAX_LEN:
        return None
    limit = 1 if len(word.lstrip("-")) <= 4 else 2
    best, best_d, tie = None, limit + 1, False
    for choice in choices:
        d = _distance(word, choice, limit)
        if d < best_d:
            best, best_d, tie = choice, d, False
        elif d == best_d:
            tie = True
    return None if tie or best is None or best == word else best


def did_you_mean(word: str, choices) -> str:
    """` (did you mean 'X'?)` for a likely typo of one of `choices`, else "": the one wording of
    the hint, appended to an unknown-subcommand or unknown-flag message."""
    hit = suggest(word, choices)
    return f" (did you mean '{hit}'?)" if hit else ""


def _distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance of a and b, or limit + 1 once it must exceed limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] \
                    and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1] if prev[-1] <= limit else limit + 1
