"""The one Python entry of judgment-ledger and judgment-card, whichever way they are called:

    judgment-ledger ARGS...   /  judgment-card ARGS...        (console scripts: ledger_main, card_main)
    scripts/judgment-ledger.sh ARGS...  / scripts/judgment-card.sh ARGS...
        -> python -m judgment_toolkit.judgment.cli ledger|card ARGS...   (main)

Both routes run the same functions, so arguments, output, messages and exit codes (exits.py)
are the same. Fail-open lives here too: `append` exits 0 after one `append skipped (...)` line
on any I/O trouble or unexpected error, 1 for a rejected record, and 70 only for a broken
installation (a packaged schema missing), which is a bug, not I/O trouble.
"""
import sys

from . import deps, exits, usage
from .args import HelpRequested, UsageError, parse, require
from .. import output
from ..cliargs import whole_number

LEDGER, CARD = "judgment-ledger", "judgment-card"


def main(argv=None):
    """`python -m judgment_toolkit.judgment.cli ledger|card ARGS...` (the scripts' route)."""
    argv = sys.argv[1:] if argv is None else argv
    tools = {"ledger": ledger_main, "card": card_main}
    if not argv or argv[0] not in tools:
        print("usage: python -m judgment_toolkit.judgment.cli ledger|card SUBCOMMAND ARGS...",
              file=sys.stderr)
        return exits.USAGE
    return tools[argv[0]](argv[1:])


def ledger_main(argv=None):
    """The `judgment-ledger` console script."""
    return _dispatch(LEDGER, LEDGER_COMMANDS, sys.argv[1:] if argv is None else argv)


def card_main(argv=None):
    """The `judgment-card` console script."""
    return _dispatch(CARD, CARD_COMMANDS, sys.argv[1:] if argv is None else argv)


def _dispatch(tool, commands, argv):
    name = argv[0] if argv else ""
    if name in ("-h", "--help", "help"):
        output.write(usage.text(tool))
        return exits.OK
    if name not in commands:
        _err(tool, f"unknown subcommand {name or '(none)'}")
        sys.stderr.write(usage.text(tool))
        return exits.USAGE
    command = f"{tool} {name}"
    try:
        return commands[name](argv[1:])
    except HelpRequested:
        output.write(usage.text(command))
        return exits.OK
    except BrokenPipeError:  # `... | head -1`: the reader left; not an error worth a traceback
        output.reader_left()
        return exits.OK
    except deps.MissingResource as e:
        _err(tool, f"{name}: internal error: {e}")
        return exits.INTERNAL
    except KeyboardInterrupt:
        _err(tool, f"{name}: interrupted")
        return 130
    except Exception as e:  # a bug: say so in one line (append never gets here: fail-open)
        _err(tool, f"{name}: internal error: {type(e).__name__}: {e}")
        return exits.INTERNAL


def _err(tool, text):
    print(f"{tool}: {text}", file=sys.stderr, flush=True)


def _deps_ok(tool, command, mode="match"):
    missing = deps.missing(mode)
    if missing:
        _err(tool, f"{command}: missing Python dependencies ({', '.join(missing)}) in "
                   f"{sys.executable}; {deps.install_hint()}")
    return not missing


def _lexicon_ok(tool, command, mode):
    """The relevance mode's lexicon files ($HARNESS_JUDGMENT_LEXICON) load, or say why not."""
    if mode != "relevance":
        return True
    from . import lexicon
    try:
        lexicon.check()
    except UsageError as e:
        _err(tool, f"{command}: {e}")
        return False
    return True


# --- judgment-ledger -----------------------------------------------------------------------------

APPEND_FLAGS = ("project", "question", "answer", "card_ref", "rationale", "tags", "id")


def ledger_append(argv):
    from . import appending
    try:
        _, given = parse(argv, APPEND_FLAGS, switches=("json",))
    except UsageError as e:
        _err(LEDGER, f"append rejected ({e})")
        return exits.REJECTED
    as_json = given.pop("json", False)
    code, rec = appending.append_fail_open(given)  # the fail-open guard (exit 0 on trouble)
    if as_json and rec is not None:
        output.print_json(rec)
    return code


def _read_args(command, argv, text_field):
    """Shared by search and recall: (project, text, limit, rank mode) or None after printing
    the error."""
    from .search import rank_mode
    try:
        _, values = parse(argv, ("project", text_field, "rank") + (("limit",) if text_field == "query" else ()))
        require(values, "project", text_field)
        if not values["project"]:
            raise UsageError("project", "must not be empty")
        limit = values.get("limit", "3")
        if not whole_number(limit):
            raise UsageError("limit", f"must be a positive integer, not {limit!r}")
        mode = rank_mode(values.get("rank"))
    except UsageError as e:
        _err(LEDGER, f"{command}: {e}")
        return None
    return values["project"], values[text_field], whole_number(limit), mode


def _unreadable(tool, command, error):
    _err(tool, f"{command}: cannot read the ledger {error.filename}: {error.strerror or error}")
    return exits.UNREADABLE


def _rank_blocked(tool, command, mode):
    """The exit code when rank `mode` cannot run here (a missing dependency, a bad lexicon
    file; said on stderr), else None."""
    if not _deps_ok(tool, command, mode):
        return exits.NO_DEPS
    if not _lexicon_ok(tool, command, mode):
        return exits.USAGE
    return None


def _read_query(command, argv, text_field):
    """(project, text, limit, mode) of search or recall, checked with what the rank mode
    needs; an exit code when they cannot run."""
    args = _read_args(command, argv, text_field)
    if args is None:
        return exits.USAGE
    blocked = _rank_blocked(LEDGER, command, args[3])
    return args if blocked is None else blocked


def ledger_search(argv):
    args = _read_query("search", argv, "query")
    if isinstance(args, int):
        return args
    from . import ledger, search
    project, query, limit, mode = args
    try:
        found = search.search(ledger.default_path(), project, query, limit, mode)
    except OSError as e:
        return _unreadable(LEDGER, "search", e)
    for rec in found:
        output.print_json(rec)
    return exits.OK


def ledger_recall(argv):
    args = _read_query("recall", argv, "question")
    if isinstance(args, int):
        return args
    from . import ledger, recall
    project, question, _, mode = args
    try:
        items = recall.recall(ledger.default_path(), project, question, mode)
    except OSError as e:
        return _unreadable(LEDGER, "recall", e)
    output.print_json(items)
    return exits.OK


def ledger_prime(argv):
    """Fail-open: a usage error is 64; anything else prints at most one warning, exit 0."""
    from . import prime
    try:
        _, values = parse(argv, ("project", "limit"))
        require(values, "project")
        raw = values.get("limit", str(prime.DEFAULT_LIMIT))
        limit = whole_number(raw)
        if not limit or limit > prime.MAX_LIMIT:
            raise UsageError("limit", f"must be a whole number from 1 to {prime.MAX_LIMIT}, "
                                      f"not {raw!r}")
    except UsageError as e:
        _err(LEDGER, f"prime: {e}")
        return exits.USAGE
    try:
        from . import ledger
        text = prime.markdown(values["project"], prime.recent(ledger.default_path(),
                                                              values["project"], limit))
    except prime.Unreadable as e:
        _err(LEDGER, f"prime: skipped ({e})")
        return exits.OK
    except Exception as e:  # never keep a session from starting
        _err(LEDGER, f"prime: skipped (unexpected {type(e).__name__}: {e})")
        return exits.OK
    if text:
        output.write(text)
    return exits.OK


def ledger_verify(argv):
    try:
        _, values = parse(argv, (), switches=("json",))
    except UsageError as e:
        _err(LEDGER, f"verify: {e}")
        return exits.USAGE
    if not _deps_ok(LEDGER, "verify"):
        return exits.NO_DEPS
    from . import ledger, verify
    path = ledger.default_path()
    try:
        report = verify.verify(path)
    except verify.Unreadable as e:
        if values.get("json"):
            output.print_json({"ok": False, "records": 0, "bad": [], "error": str(e)})
        _err(LEDGER, f"verify: {e}")
        return exits.UNREADABLE
    if values.get("json"):
        output.print_json(report.as_json())
    else:
        output.write("".join(f"line {n}: {reason}\n" for n, reason in report.bad))
        if report.ok:
            output.write(f"ok: {_count(report.records, 'record')} in {path}\n")
        else:
            _err(LEDGER, f"verify: {_count(report.records, 'valid record')}, "
                         f"{_count(len(report.bad), 'bad line')} in {path}")
    return exits.OK if report.ok else exits.BAD_LINES


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


# --- judgment-card -------------------------------------------------------------------------------

def card_should_issue(argv):
    """Needs neither jsonschema nor ulid, so a hook sees HARD_STOP even from a bare Python."""
    try:
        _, values = parse(argv, ("reason", "floor_category"))
        if "floor_category" not in values or not values["floor_category"]:
            require(values, "reason")
    except UsageError as e:
        _err(CARD, f"should-issue: {e}")
        return exits.USAGE
    from . import card
    line, code = card.should_issue(values.get("reason"), values.get("floor_category"))
    output.write(line + "\n")
    return code


def _card_args(command, argv, fields, switches=(), optional=()):
    try:
        pos, values = parse(argv, fields + optional, positionals=1, switches=switches)
        if not pos:
            raise UsageError(None, "missing CARD (path of a judgment-card.v1 JSON file)")
        require(values, *fields)
        for field in ("project", "session", "answer"):
            if field in values and not values[field]:
                raise UsageError(field, "must not be empty")
        if "rank" in optional:
            from .search import rank_mode
            values["rank"] = rank_mode(values.get("rank"))
    except UsageError as e:
        _err(CARD, f"{command}: {e}")
        return None
    return pos[0], values


def card_validate(argv):
    args = _card_args("validate", argv, ())
    if args is None:
        return exits.USAGE
    if not _deps_ok(CARD, "validate"):
        return exits.NO_DEPS
    from . import card
    try:
        card.load_valid(args[0])
    except card.CardError as e:
        _print_card_error(e)
        return exits.INVALID
    return exits.OK


def card_record_answer(argv):
    args = _card_args("record-answer", argv, ("answer", "why", "project", "session"),
                      switches=("json",))
    if args is None:
        return exits.USAGE
    if not _deps_ok(CARD, "record-answer"):
        return exits.NO_DEPS
    from . import card
    path, v = args
    try:
        doc = card.load_valid(path)
    except card.CardError as e:
        _print_card_error(e)
        return exits.INVALID
    ids = card.option_ids(doc)
    if v["answer"] not in ids:
        _err(CARD, f"record-answer: --answer {v['answer']!r} is not an option of {path} "
                   f"(valid: {', '.join(ids)})")
        return exits.INVALID
    outcome = card.record_answer(path, doc, v["answer"], v["why"], v["project"], v["session"])
    if v.get("json"):
        output.print_json(outcome)
    return exits.OK


def card_recall(argv):
    args = _card_args("recall", argv, ("project",), optional=("rank",))
    if args is None:
        return exits.USAGE
    blocked = _rank_blocked(CARD, "recall", args[1]["rank"])
    if blocked is not None:
        return blocked
    from . import card
    path, v = args
    try:
        merged = card.recall(card.load_valid(path), v["project"], mode=v["rank"])
    except card.CardError as e:
        _print_card_error(e)
        return exits.INVALID
    except OSError as e:
        return _unreadable(CARD, "recall", e)
    output.print_json(merged, indent=2)
    return exits.OK


def card_render(argv):
    try:
        pos, values = parse(argv, ("format",), positionals=1)
        if not pos:
            raise UsageError(None, "missing CARD (a judgment-card.v1 JSON file, or - for stdin)")
        fmt = values.get("format", "md")
        if fmt not in ("md", "html"):
            raise UsageError("format", f"must be md or html, not {fmt!r}")
    except UsageError as e:
        _err(CARD, f"render: {e}")
        return exits.USAGE
    if not _deps_ok(CARD, "render"):
        return exits.NO_DEPS
    from . import card, render
    path = pos[0]
    try:
        doc = card.load_valid("stdin", sys.stdin.buffer.read()) if path == "-" \
            else card.load_valid(path)
    except card.CardError as e:
        _print_card_error(e)
        return exits.INVALID
    output.write(render.render(doc, fmt))
    return exits.OK


def _print_card_error(error):
    for i, line in enumerate(error.lines):
        print(f"judgment-card: {line}" if i == 0 else line, file=sys.stderr)


LEDGER_COMMANDS = {"append": ledger_append, "search": ledger_search, "recall": ledger_recall,
                   "prime": ledger_prime, "verify": ledger_verify}
CARD_COMMANDS = {"should-issue": card_should_issue, "validate": card_validate,
                 "record-answer": card_record_answer, "recall": card_recall,
                 "render": card_render}

if __name__ == "__main__":
    sys.exit(main())
