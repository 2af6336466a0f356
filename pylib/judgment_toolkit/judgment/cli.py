"""The one Python entry of scripts/judgment-ledger.sh and scripts/judgment-card.sh.

    python -m judgment_toolkit.judgment.cli ledger append|search|recall ARGS...
    python -m judgment_toolkit.judgment.cli card should-issue|validate|record-answer|recall ARGS...

Exit codes are the scripts' contract, except for `ledger append`, which returns APPEND_REJECTED
for a rejected record: the shell maps it to 1 and maps every other failure of this process
(a crash, an import error, a signal) to a fail-open skip.
"""
import json
import os
import sys

from . import deps
from .args import UsageError, parse, require

APPEND_REJECTED = 65


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2 or (argv[0], argv[1]) not in COMMANDS:
        print("usage: python -m judgment_toolkit.judgment.cli ledger|card SUBCOMMAND ARGS...", file=sys.stderr)
        return 1
    try:
        return COMMANDS[argv[0], argv[1]](argv[2:])
    except BrokenPipeError:  # `... | head -1`: the reader left; not an error worth a traceback
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _out(text):
    sys.stdout.write(text + "\n")


def _err(tool, text):
    print(f"judgment-{tool}: {text}", file=sys.stderr)


def _deps_ok(tool, command):
    missing = deps.missing()
    if missing:
        _err(tool, f"{command}: missing Python dependencies ({', '.join(missing)}) in "
                   f"{sys.executable}; {deps.install_hint()}")
    return not missing


# --- judgment-ledger.sh ------------------------------------------------------------------------

def ledger_append(argv):
    try:
        return _append(argv)
    except Exception as e:  # anything unforeseen: still never block a judgment flow
        _err("ledger", f"append skipped (unexpected {type(e).__name__}: {e})")
        return 0


def _append(argv):
    missing = deps.missing()
    if missing:
        _err("ledger", f"append skipped (missing Python dependencies: {', '.join(missing)} "
                       f"in {sys.executable}; {deps.install_hint()})")
        return 0
    from . import ledger, record
    try:
        _, given = parse(argv, record.FLAGS)
        rec = record.build(given)
    except (UsageError, record.RecordError) as e:
        _err("ledger", f"append rejected ({e})")
        return APPEND_REJECTED
    try:
        ledger.append(ledger.default_path(), record.to_line(rec))
    except ledger.AppendSkipped as e:
        _err("ledger", f"append skipped ({e})")
    return 0


def _read_args(tool, command, argv, text_field):
    """Shared by search and recall: (project, text, limit) or None after printing the error."""
    try:
        _, values = parse(argv, ("project", text_field) + (("limit",) if text_field == "query" else ()))
        require(values, "project", text_field)
        if not values["project"]:
            raise UsageError("project", "must not be empty")
        limit = values.get("limit", "3")
        if not limit.isdigit() or int(limit) < 1:
            raise UsageError("limit", f"must be a positive integer, not {limit!r}")
    except UsageError as e:
        _err(tool, f"{command}: {e}")
        return None
    return values["project"], values[text_field], int(limit)


def _print_json(value, **kwargs):
    """UTF-8 JSON on stdout whatever the locale; \\u-escaped only if the text is not encodable
    (a lone surrogate read from a foreign \\ud800 escape)."""
    try:
        data = json.dumps(value, ensure_ascii=False, **kwargs).encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(value, **kwargs).encode("utf-8")
    sys.stdout.flush()
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def _unreadable(tool, command, error):
    _err(tool, f"{command}: cannot read the ledger {error.filename}: {error.strerror or error}")
    return 1


def ledger_search(argv):
    args = _read_args("ledger", "search", argv, "query")
    if args is None or not _deps_ok("ledger", "search"):
        return 1
    from . import ledger, search
    project, query, limit = args
    try:
        found = search.search(ledger.default_path(), project, query, limit)
    except OSError as e:
        return _unreadable("ledger", "search", e)
    for rec in found:
        _print_json(rec, separators=(",", ":"))
    return 0


def ledger_recall(argv):
    args = _read_args("ledger", "recall", argv, "question")
    if args is None or not _deps_ok("ledger", "recall"):
        return 1
    from . import ledger, recall
    project, question, _ = args
    try:
        items = recall.recall(ledger.default_path(), project, question)
    except OSError as e:
        return _unreadable("ledger", "recall", e)
    _print_json(items, separators=(",", ":"))
    return 0


def ledger_prime(argv):
    """Fail-open: a usage error is exit 1, anything else prints at most one warning, exit 0."""
    from . import prime
    try:
        _, values = parse(argv, ("project", "limit"))
        require(values, "project")
        limit = _positive(values.get("limit", str(prime.DEFAULT_LIMIT)), "limit", prime.MAX_LIMIT)
    except UsageError as e:
        _err("ledger", f"prime: {e}")
        return 1
    try:
        from . import ledger
        text = prime.markdown(values["project"], prime.recent(ledger.default_path(),
                                                              values["project"], limit))
    except prime.Unreadable as e:
        _err("ledger", f"prime: skipped ({e})")
        return 0
    except Exception as e:  # never keep a session from starting
        _err("ledger", f"prime: skipped (unexpected {type(e).__name__}: {e})")
        return 0
    if text:
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
        sys.stdout.buffer.flush()
    return 0


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _positive(raw, field, maximum):
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= maximum:
        raise UsageError(field, f"must be a whole number from 1 to {maximum}, not {raw!r}")
    return int(raw)


def ledger_verify(argv):
    if argv not in ([], ["--json"]):
        bad = next(a for a in argv if a != "--json")
        _err("ledger", f"verify: unexpected argument {bad!r} (usage: judgment-ledger verify [--json])")
        return 1
    as_json = bool(argv)
    if not _deps_ok("ledger", "verify"):
        return 1
    from . import ledger, verify
    path = ledger.default_path()
    try:
        report = verify.verify(path)
    except verify.Unreadable as e:
        if as_json:
            _print_json({"ok": False, "records": 0, "bad": [], "error": str(e)},
                        separators=(",", ":"))
        _err("ledger", f"verify: {e}")
        return 1
    if as_json:
        _print_json(report.as_json(), separators=(",", ":"))
    else:
        for number, reason in report.bad:
            _out(f"line {number}: {reason}")
        summary = f"{_count(report.records, 'valid record')}, {_count(len(report.bad), 'bad line')} in {path}"
        if report.ok:
            _out(f"ok: {_count(report.records, 'record')} in {path}")
        else:
            _err("ledger", f"verify: {summary}")
    return 0 if report.ok else 1


# --- judgment-card.sh --------------------------------------------------------------------------

def card_should_issue(argv):
    try:
        _, values = parse(argv, ("reason", "floor_category"))
        if "floor_category" not in values or not values["floor_category"]:
            require(values, "reason")
    except UsageError as e:
        _err("card", f"should-issue: {e}")
        return 1
    if not _deps_ok("card", "should-issue"):
        return 1
    from . import card
    line, code = card.should_issue(values.get("reason"), values.get("floor_category"))
    _out(line)
    return code


def _card_args(command, argv, fields):
    try:
        pos, values = parse(argv, fields, positionals=1)
        if not pos:
            raise UsageError(None, "missing CARD (path of a judgment-card.v1 JSON file)")
        require(values, *fields)
        for field in ("project", "session", "answer"):
            if field in values and not values[field]:
                raise UsageError(field, "must not be empty")
    except UsageError as e:
        _err("card", f"{command}: {e}")
        return None
    return pos[0], values


def card_validate(argv):
    args = _card_args("validate", argv, ())
    if args is None or not _deps_ok("card", "validate"):
        return 1
    from . import card
    try:
        card.load_valid(args[0])
    except card.CardError as e:
        _print_card_error(e)
        return 1
    return 0


def card_record_answer(argv):
    args = _card_args("record-answer", argv, ("answer", "why", "project", "session"))
    if args is None or not _deps_ok("card", "record-answer"):
        return 1
    from . import card
    path, v = args
    try:
        doc = card.load_valid(path)
    except card.CardError as e:
        _print_card_error(e)
        return 1
    ids = card.option_ids(doc)
    if v["answer"] not in ids:
        _err("card", f"record-answer: --answer {v['answer']!r} is not an option of {path} "
                     f"(valid: {', '.join(ids)})")
        return 1
    card.record_answer(path, doc, v["answer"], v["why"], v["project"], v["session"])
    return 0


def card_recall(argv):
    args = _card_args("recall", argv, ("project",))
    if args is None or not _deps_ok("card", "recall"):
        return 1
    from . import card
    path, v = args
    try:
        merged = card.recall(card.load_valid(path), v["project"])
    except card.CardError as e:
        _print_card_error(e)
        return 1
    except OSError as e:
        return _unreadable("card", "recall", e)
    _print_json(merged, indent=2)
    return 0


def card_render(argv):
    try:
        pos, values = parse(argv, ("format",), positionals=1)
        if not pos:
            raise UsageError(None, "missing CARD (a judgment-card.v1 JSON file, or - for stdin)")
        fmt = values.get("format", "md")
        if fmt not in ("md", "html"):
            raise UsageError("format", f"must be md or html, not {fmt!r}")
    except UsageError as e:
        _err("card", f"render: {e}")
        return 1
    if not _deps_ok("card", "render"):
        return 1
    from . import card, render
    path = pos[0]
    try:
        doc = card.load_valid("stdin", sys.stdin.buffer.read()) if path == "-" \
            else card.load_valid(path)
    except card.CardError as e:
        _print_card_error(e)
        return 1
    sys.stdout.buffer.write(render.render(doc, fmt).encode("utf-8", "surrogatepass"))
    sys.stdout.buffer.flush()
    return 0


def _print_card_error(error):
    for i, line in enumerate(error.lines):
        print(f"judgment-card: {line}" if i == 0 else line, file=sys.stderr)


COMMANDS = {
    ("ledger", "append"): ledger_append,
    ("ledger", "search"): ledger_search,
    ("ledger", "recall"): ledger_recall,
    ("ledger", "prime"): ledger_prime,
    ("ledger", "verify"): ledger_verify,
    ("card", "should-issue"): card_should_issue,
    ("card", "validate"): card_validate,
    ("card", "record-answer"): card_record_answer,
    ("card", "recall"): card_recall,
    ("card", "render"): card_render,
}

if __name__ == "__main__":
    sys.exit(main())
