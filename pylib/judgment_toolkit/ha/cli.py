"""The `ha` command line: parse arguments, call the library, map errors to exit codes.

`ha history ...` is handed to `ha.history.cli.main(argv)` before anything else is imported,
so the history's own start-up cost stays its own.
"""
from __future__ import annotations

import sys

from .. import output
from ..cliargs import (ArgError, HelpRequested, did_you_mean, is_utf8, output_format,
                       scan)
from . import usage
from .errors import INTERNAL, USAGE, HaError

class _Args:
    """`--flag value` or `--flag=value`, `--` ends options, usage errors 64 (on the shared
    scanner, judgment_toolkit.cliargs)."""

    def __init__(self, command, argv, options, max_positional=None, min_positional=1,
                 switches=()):
        self.command = command
        try:
            p = scan(argv, single=options, switches=switches, max_positional=max_positional,
                     dashdash=True, dash_is_flag=True)
        except ArgError as e:
            if e.kind == "unknown" and e.name in switches:  # `--json=1`
                raise HaError(f"{command}: {e.name} takes no value, not {e.arg!r}",
                              USAGE) from None
            raise HaError(f"{command}: " + {
                "unknown": f"unknown option {e.name}"
                           + did_you_mean(e.name, sorted({*options, *switches, "--help"})),
                "needs_value": f"{e.name} needs a value",
                "twice": f"{e.name} given twice",
                "unexpected": f"unexpected argument {e.name!r}"}[e.kind], USAGE) from None
        if p.help:
            raise HelpRequested(f"ha {command}")
        self.parsed, self.values, self.positional = p, p.values, p.positional
        if len(self.positional) < min_positional:
            raise HaError(f"{command}: missing the goal argument", USAGE)
        for arg in self.positional:
            if not is_utf8(arg):
                raise HaError(f"{command}: argument {arg!r} is not valid UTF-8", USAGE)

    def format(self, formats, default):
        """--format F or --json (cliargs.output_format); a bad one is a usage error."""
        try:
            return output_format(self.parsed, formats, default)
        except ValueError as exc:
            raise HaError(f"{self.command}: {exc}", USAGE) from None


def _open_goal(arg):
    from . import gitrepo, goal
    repo = gitrepo.discover()
    return goal.resolve(repo, arg)


def cmd_capabilities(argv, out):
    args = _Args("capabilities", argv, {"--format"}, max_positional=0, min_positional=0,
                 switches={"--json"})
    args.format(("json",), "json")  # JSON is its only format; asking for it is fine
    from . import capabilities
    output.write(capabilities.render(), out)
    return 0


def cmd_start(argv, out):
    args = _Args("start", argv, {"--request", "--rules"}, max_positional=1)
    if "--request" not in args.values:
        raise HaError("start: --request QUOTE is required (the user's words that asked for "
                      "this run)", USAGE)
    from . import runs, start
    g = _open_goal(args.positional[0])
    done = start.start(g, args.values["--request"],
                       args.values.get("--rules", runs.DEFAULT_RULES))
    rec = done.record
    output.write(f"started: seq {done.seq}, base {rec['base_commit'][:12]}, "
                 f"rules {rec['rules']}\n", out)
    return 0


def cmd_new(argv, out):
    args = _Args("new", argv, set(), max_positional=1)
    from . import gitrepo, scaffold
    for rel, what in scaffold.new(gitrepo.discover(), args.positional[0]):
        output.write(f"{what} {rel}{' (already there, left as it is)' if what == 'kept' else ''}\n",
                     out)
    return 0


def cmd_check(argv, out):
    args = _Args("check", argv, {"--timeout"})
    from . import check
    timeout = check.DEFAULT_TIMEOUT
    raw, source = args.values.get("--timeout"), "--timeout"
    if raw is None:
        import os
        raw, source = os.environ.get("HA_CHECK_TIMEOUT") or None, "HA_CHECK_TIMEOUT"
    if raw is not None:
        try:
            timeout = float(raw)
        except ValueError:
            timeout = -1
        if not 0 < timeout < 10 ** 7:
            raise HaError(f"check: {source} {raw!r} is not a positive number of seconds",
                          USAGE)
    g = _open_goal(args.positional[0])
    results = []

    def report(target, done):
        rec = done.record
        extra = "" if rec["result"] == "pass" else \
            f", exit {'none' if rec['exit'] is None else rec['exit']}, log {rec['output_path']}"
        output.write(f"{target.label} check {rec['result']} (seq {done.seq}{extra})\n", out)
        results.append(rec["result"])

    from .procgroup import Interrupted
    wanted = args.positional[1:]
    try:
        check.check(g, wanted, timeout=timeout, report=report)
    except Interrupted as stop:
        out.flush()
        print(f"ha: check: interrupted by {stop.name}: the running command's process group was "
              f"stopped and its line recorded as result error; {len(results)} target(s) "
              "recorded, the rest not run. Run ha check again to check them", file=sys.stderr)
        return stop.exit_code
    return 0 if all(r == "pass" for r in results) else 1


def cmd_status(argv, out):
    args = _Args("status", argv, {"--format"}, max_positional=1, switches={"--json"})
    fmt = args.format(("md", "json"), "md")
    from . import status
    g = _open_goal(args.positional[0])
    output.write(status.render(status.collect(g), fmt), out)
    return 0


def cmd_history(argv, out):
    try:
        from .history import cli as history_cli
    except ImportError as exc:
        if getattr(exc, "name", None) in (f"{__package__}.history.cli", f"{__package__}.history"):
            raise HaError("history: not available", USAGE) from None
        raise
    return history_cli.main(argv)


COMMANDS = {"capabilities": cmd_capabilities, "new": cmd_new, "start": cmd_start,
            "check": cmd_check, "status": cmd_status, "history": cmd_history}
TOP_FLAGS = ("--help", "--version")


def _utf8_streams() -> None:
    """Every ha output is UTF-8 text (Markdown, JSON, Korean tokens) whatever the locale says;
    stderr escapes what it cannot encode rather than failing."""
    for stream, errors in ((sys.stdout, "strict"), (sys.stderr, "backslashreplace")):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(encoding="utf-8", errors=errors)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    _utf8_streams()
    out = sys.stdout
    try:
        if not argv or argv[0] in ("-h", "--help", "help"):
            (out if argv else sys.stderr).write(usage.text("ha"))
            return 0 if argv else USAGE
        if argv[0] == "--version":
            from .. import version
            output.write(f"ha {version()}\n", out)
            return 0
        command = COMMANDS.get(argv[0])
        if command is None:
            raise HaError(f"unknown command {argv[0]!r}"
                          f"{did_you_mean(argv[0], [*COMMANDS, *TOP_FLAGS])} "
                          f"(commands: {', '.join(COMMANDS)})", USAGE)
        code = command(argv[1:], out)
        out.flush()
        return code
    except HelpRequested as help_:
        output.write(usage.text(help_.command), out)
        return 0
    except HaError as err:
        _flush_quietly(out)
        print(err.render(), file=sys.stderr)
        return err.exit_code
    except BrokenPipeError:
        return INTERNAL
    except KeyboardInterrupt:
        print("ha: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # anything unexpected is a bug: say so, exit 70
        _flush_quietly(out)
        print(f"ha: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return INTERNAL


def _flush_quietly(stream):
    try:
        stream.flush()
    except Exception:
        pass


def console_main() -> int:
    """The `ha` console script (the same function scripts/ha runs through python -m)."""
    return main()


if __name__ == "__main__":
    sys.exit(main())
