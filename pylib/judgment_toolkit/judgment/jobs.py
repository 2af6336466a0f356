"""The Python jobs behind scripts/judgment-ledger.sh and scripts/judgment-card.sh:

    python -m judgment_toolkit.judgment.jobs JOB POSITIONALS...

The Bash scripts own the command line (flags, help, usage errors, fail-open mapping; see
docs/internals.md, "Two layers"); each job takes the already checked values as positional
arguments, in a fixed order, or one JSON document on stdin, and is no second parser. Exit
codes: the documented ones (exits.py), plus exits.CHILD_REJECTED for a record or card the
caller got wrong, which nothing else produces, so the script can tell it from a crash.
"""
import sys

from . import deps, exits
from .. import output

LEDGER, CARD = "judgment-ledger", "judgment-card"


def _err(tool, text):
    print(f"{tool}: {text}", file=sys.stderr, flush=True)


def _deps_ok(tool, command, mode="match"):
    missing = deps.missing(mode)
    if missing:
        _err(tool, f"{command}: missing Python dependencies ({', '.join(missing)}) in "
                   f"{sys.executable}; {deps.install_hint()}")
    return not missing


def _rank_blocked(tool, command, mode):
    """The exit code when rank `mode` cannot run here (a missing dependency, a bad lexicon
    file; said on stderr), else None."""
    if not _deps_ok(tool, command, mode):
        return exits.NO_DEPS
    if mode in deps.RANKED_MODES:
        from . import lexicon
        from .args import UsageError
        try:
            lexicon.check()
        except UsageError as e:
            _err(tool, f"{command}: {e}")
            return exits.USAGE
    return None


def _unreadable(tool, command, error):
    _err(tool, f"{command}: cannot read the ledger {error.filename}: {error.strerror or error}")
    return exits.UNREADABLE


# --- judgment-ledger -----------------------------------------------------------------------------

def append(as_json, *pairs):
    """`append JSON FIELD VALUE ...`, or `append JSON -`: the record's fields as one JSON
    object on stdin (no argv limit), checked exactly like the flags."""
    from . import appending
    if pairs == ("-",):
        given = appending.fields_from_json(appending.read_input(sys.stdin.buffer))
    else:
        given = dict(zip(pairs[::2], pairs[1::2]))
    code, rec = appending.append_fail_open(given)
    if as_json == "1" and rec is not None:
        output.print_json(rec)
    return exits.CHILD_REJECTED if code == exits.REJECTED else code


def search(project, query, limit, mode):
    blocked = _rank_blocked(LEDGER, "search", mode)
    if blocked is not None:
        return blocked
    from . import ledger, search as search_mod
    try:
        found = search_mod.search(ledger.default_path(), project, query, int(limit), mode)
    except OSError as e:
        return _unreadable(LEDGER, "search", e)
    for rec in found:
        output.print_json(rec)
    return exits.OK


def recall(project, question, mode):
    blocked = _rank_blocked(LEDGER, "recall", mode)
    if blocked is not None:
        return blocked
    from . import ledger, recall as recall_mod
    try:
        items = recall_mod.recall(ledger.default_path(), project, question, mode)
    except OSError as e:
        return _unreadable(LEDGER, "recall", e)
    output.print_json(items)
    return exits.OK


def prime(project, limit, as_json="0"):
    """Fail-open: an unreadable ledger is one `prime: skipped (...)` line, exit 0."""
    from . import ledger, prime as prime_mod
    try:
        found = prime_mod.recent(ledger.default_path(), project, int(limit))
    except prime_mod.Unreadable as e:
        _err(LEDGER, f"prime: skipped ({e})")
        return exits.OK
    if as_json == "1":
        output.print_json(prime_mod.as_json(project, found))
        return exits.OK
    text = prime_mod.markdown(project, found)
    if text:
        output.write(text)
    return exits.OK


def list_(project, limit, after, as_json):
    """`list`: one page, newest first; the next page's command on stderr (text) or its
    cursor in "next" (JSON). `after` is "" for the first page."""
    from . import browse, ledger
    path = ledger.default_path()
    try:
        found, more = browse.page(path, project, int(limit), after or None)
    except OSError as e:
        return _unreadable(LEDGER, "list", e)
    if as_json == "1":
        output.print_json({"project": project, "decisions": found, "next": more})
    else:
        output.write("".join(browse.summary_line(rec) + "\n" for rec in found))
        if not found:
            _err(LEDGER, f"list: no decision of project {project!r}"
                         f"{' after that cursor' if after else ''} in {path}")
    if more:
        import shlex
        _err(LEDGER, f"list: next page: judgment-ledger list --project {shlex.quote(project)} "
                     f"--limit {int(limit)} --after {shlex.quote(more)}")
    return exits.OK


def show(rec_id, project, as_json):
    """`show`: one decision of the project; NOT_FOUND when the project has no such id."""
    from . import browse, ledger
    path = ledger.default_path()
    try:
        rec = browse.find(path, project, rec_id)
    except OSError as e:
        return _unreadable(LEDGER, "show", e)
    if rec is None:
        import shlex
        _err(LEDGER, f"show: no decision {rec_id!r} in project {project!r} ({path}); "
                     f"judgment-ledger list --project {shlex.quote(project)} lists its ids")
        return exits.NOT_FOUND
    output.write(output.dumps(rec) + "\n" if as_json == "1" else browse.details(rec))
    return exits.OK


def verify(as_json):
    if not _deps_ok(LEDGER, "verify"):
        return exits.NO_DEPS
    from . import ledger, verify as verify_mod
    path, how = ledger.chosen_path()
    try:
        report = verify_mod.verify(path)
    except verify_mod.Unreadable as e:
        if as_json == "1":
            output.print_json({"ok": False, "records": 0, "bad": [], "error": str(e)})
        _err(LEDGER, f"verify: {e}")
        return exits.UNREADABLE
    if report.missing:
        text = (f"no ledger at {path} (chosen {how}; see judgment-ledger verify --help); "
                "the first append creates it")
        if as_json == "1":
            output.print_json(dict(report.as_json(), error=text))
        _err(LEDGER, f"verify: {text}")
    elif as_json == "1":
        output.print_json(report.as_json())
    else:
        output.write("".join(f"line {n}: {reason}\n" for n, reason in report.bad))
        repeats = (f" ({_count(report.repeats, 'repeated line')} of the same record, counted "
                   "once)") if report.repeats else ""
        if report.ok:
            output.write(f"ok: {_count(report.records, 'record')} in {path}{repeats}\n")
        else:
            _err(LEDGER, f"verify: {_count(report.records, 'valid record')}, "
                         f"{_count(len(report.bad), 'bad line')} in {path}")
    return exits.OK if report.ok else exits.BAD_LINES


def merge(base, ours, theirs):
    """`merge BASE OURS THEIRS`: git's merge driver (%O %A %B); the result replaces OURS."""
    from . import merge as merge_mod
    try:
        damaged = merge_mod.merge(base, ours, theirs)
    except merge_mod.Unreadable as e:
        _err(LEDGER, f"merge: {e}; git reports a conflict and keeps its own copy")
        return exits.BAD_LINES
    merge_mod.warn_damaged(LEDGER, damaged)
    return exits.OK


def _count(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


# --- judgment-card -------------------------------------------------------------------------------

def _valid_card(command, path):
    """The valid card at `path` (- for stdin), or None after printing why not."""
    if not _deps_ok(CARD, command):
        return None
    from . import card
    try:
        return card.load_valid("stdin", sys.stdin.buffer.read()) if path == "-" \
            else card.load_valid(path)
    except card.CardError as e:
        for i, line in enumerate(e.lines):
            print(f"{CARD}: {line}" if i == 0 else line, file=sys.stderr)
        return None


def card_validate(path):
    return exits.OK if _valid_card("validate", path) is not None else exits.INVALID


def card_render(path, fmt):
    doc = _valid_card("render", path)
    if doc is None:
        return exits.INVALID
    from . import render
    output.write(render.render(doc, fmt))
    return exits.OK


def card_recall(path, project, mode):
    """The card with the ledger's recall merged in, in this one process: the recall is the
    function `judgment-ledger recall` runs (recall.recall), so no second interpreter starts."""
    blocked = _rank_blocked(CARD, "recall", mode)
    if blocked is not None:
        return blocked
    doc = _valid_card("recall", path)
    if doc is None:
        return exits.INVALID
    from . import card
    try:
        merged = card.recall(doc, project, mode=mode)
    except card.CardError as e:
        _err(CARD, "\n".join(e.lines))
        return exits.INVALID
    except OSError as e:
        return _unreadable(CARD, "recall", e)
    output.print_json(merged, indent=2)
    return exits.OK


def card_answer(path, answer, why, project, session):
    """record-answer's first step: the card is valid and the answer one of its options
    (else CHILD_REJECTED), then the harness-mem checkpoint when configured (fail-open).
    Prints the checkpoint outcome on one line, then the ledger record's fields as one JSON
    line, which the script passes to `judgment-ledger.sh append --input -`."""
    missing = deps.missing()
    if missing:  # the installation's fault, not the caller's: skipped, like append (Fail-Open)
        _err(CARD, f"record skipped ({deps.skip_reason(missing)})")
        return exits.OK
    doc = _valid_card("record-answer", path)
    if doc is None:
        return exits.CHILD_REJECTED
    from . import card
    ids = card.option_ids(doc)
    if answer not in ids:
        _err(CARD, f"record-answer: --answer {answer!r} is not an option of {path} "
                   f"(valid: {', '.join(ids)})")
        return exits.CHILD_REJECTED
    outcome = card.checkpoint(doc, answer, why, project, session)
    output.write(outcome + "\n")
    output.print_json(card.ledger_fields(doc, answer, why, project, path))
    return exits.OK


JOBS = {"append": append, "search": search, "recall": recall, "prime": prime, "verify": verify,
        "list": list_, "show": show, "merge": merge,
        "card-validate": card_validate, "card-render": card_render, "card-recall": card_recall,
        "card-answer": card_answer}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in JOBS:
        _err("judgment_toolkit.judgment.jobs", f"unknown job {argv[:1]}; one of {', '.join(JOBS)}")
        return exits.USAGE
    tool, command = (CARD, argv[0][5:]) if argv[0].startswith("card-") else (LEDGER, argv[0])
    if command == "answer":
        command = "record-answer"
    try:
        return JOBS[argv[0]](*argv[1:])
    except BrokenPipeError:  # `... | head -1`: the reader left; not an error worth a traceback
        output.reader_left()
        return exits.OK
    except deps.MissingResource as e:
        _err(tool, f"{command}: internal error: {e}")
        return exits.INTERNAL
    except KeyboardInterrupt:
        _err(tool, f"{command}: interrupted")
        return 130
    except Exception as e:  # a bug: say so in one line (append never gets here: fail-open)
        _err(tool, f"{command}: internal error: {type(e).__name__}: {e}")
        return exits.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
