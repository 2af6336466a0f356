"""The `--help` texts of every `ha` command: every flag and the exit codes.

Exit codes come from the tables that define them (errors.py for the four shared ones,
history/errors.py for the history's codes), so the help, the docs (tested against these tables)
and the code cannot disagree.
"""
from __future__ import annotations

from .errors import INTERNAL, REFUSED, UNSUPPORTED, USAGE

CHECK_FAILED = 1  # ha check: a target failed or could not run

# command -> [(exit code, meaning)] for the core commands
CORE_TABLES = {
    "ha": [(0, "`--help`, `--version`"), (USAGE, "no or unknown command")],
    "ha capabilities": [(0, "the capabilities printed"), (USAGE, "an argument was given"),
                        (INTERNAL, "internal error")],
    "ha new": [(0, "the missing SPEC.md and PLAN.md written"),
               (USAGE, "usage: unknown option, bad goal argument, not inside a git repository"),
               (REFUSED, "refused: SPEC.md and PLAN.md both exist already (nothing is ever "
                         "overwritten)"),
               (INTERNAL, "I/O failure")],
    "ha start": [(0, "started"),
                 (USAGE, "usage: unknown option, bad goal argument, not inside a git repository"),
                 (REFUSED, "refused: already started, broken chain, no SPEC.md, malformed ids, "
                           "no commit"),
                 (UNSUPPORTED, "unknown --rules"),
                 (INTERNAL, "I/O failure, or a write that may have applied")],
    "ha check": [(0, "every target passed"), (CHECK_FAILED, "a target failed or could not run"),
                 (USAGE, "usage: unknown option, bad goal argument, a word that is not an id, "
                         "bad --timeout"),
                 (REFUSED, "refused: not started, broken chain, unknown or manual target, "
                           "a command needing a shell"),
                 (UNSUPPORTED, "the start line names unsupported run rules"),
                 (INTERNAL, "I/O failure, or a write that may have applied")],
    "ha status": [(0, "the status printed (a broken chain is reported, not an error)"),
                  (USAGE, "usage: unknown option, bad goal argument, bad --format"),
                  (UNSUPPORTED, "the start line names unsupported run rules"),
                  (INTERNAL, "I/O failure")],
}

# history command -> the machine codes it can answer (exit codes from history/errors.py)
HISTORY_CODES = {
    "ha history add": ("invalid_input", "limit_exceeded", "invalid_reference",
                       "invalid_relation", "correction_conflict", "request_conflict",
                       "not_started", "run_record_broken", "history_corrupt",
                       "history_unsupported", "history_unreadable", "write_uncertain"),
    "ha history current|list|show": ("invalid_input", "limit_exceeded", "not_started", "history_corrupt",
                        "unknown_event", "cursor_invalid", "cursor_stale", "cursor_mismatch",
                        "history_unsupported", "history_unreadable"),
    "ha history graph": ("invalid_input", "not_started", "history_corrupt", "cursor_invalid",
                         "cursor_stale", "cursor_mismatch", "history_unsupported",
                         "history_unreadable"),
    "ha history verify": ("invalid_input", "not_started", "history_corrupt",
                          "history_unsupported", "history_unreadable"),
}
HISTORY_OK = {"ha history add": "stored, or replayed (the same request id and decision)",
              "ha history current|list|show": "the view printed (`history: absent` when there is no store)",
              "ha history graph": "the Mermaid source (or its JSON) printed (`history: absent` "
                                  "when there is no store)",
              "ha history verify": "the whole chain is intact (or there is no store)"}


def table(command: str) -> list[tuple[int, str]]:
    """[(exit code, meaning)] of a command, in exit-code order."""
    if command in CORE_TABLES:
        return CORE_TABLES[command]
    from .history.errors import EXIT_CODES
    rows: dict[int, list[str]] = {}
    for code in HISTORY_CODES[command]:
        rows.setdefault(EXIT_CODES[code], []).append(f"`{code}`")
    return [(0, HISTORY_OK[command])] + [(n, ", ".join(rows[n])) for n in sorted(rows)]


def table_text(command: str) -> str:
    from ..cliargs import exit_codes_text
    return exit_codes_text(table(command))


TOP = """\
usage: ha capabilities
       ha new <goal>
       ha start <goal> --request QUOTE [--rules run-rules/N]
       ha check <goal> [AC-n|EX-n|T001 ...] [--timeout SECONDS]
       ha status <goal> [--format md|json]
       ha history <goal> ...
       ha --version
Every command answers -h/--help (ha history --help, ha history <goal> add --help, ...).
"""

SYNOPSIS = {
    "ha capabilities": """\
usage: ha capabilities
Print what this ha supports (run rules, formats, features) as one JSON line.
""",
    "ha new": """\
usage: ha new <goal>
Write <goal>/SPEC.md and <goal>/PLAN.md from the templates: the exact headings and columns ha
reads, one acceptance criterion and one task as examples, and comments explaining each column.
The folder is created when missing; an existing file is never overwritten (only the missing
ones are written). Then edit them, commit, and run `ha start <goal> --request QUOTE`.
""",
    "ha start": """\
usage: ha start <goal> --request QUOTE [--rules run-rules/N]
Write the start line of <goal>/runs.jsonl. QUOTE is the user's words that asked for the run;
--rules defaults to run-rules/3. Options take `--opt value` or `--opt=value`; `--` ends them.
""",
    "ha check": """\
usage: ha check <goal> [AC-n|EX-n|T001 ...] [--timeout SECONDS]
Run the commands PLAN.md's 조건표 declares (all, or the given targets), without a shell, and
append one check line per target. --timeout (or HA_CHECK_TIMEOUT) defaults to 600 seconds.
""",
    "ha status": """\
usage: ha status <goal> [--format md|json]
Report where the goal stands: started, rules, record head, commit, tree clean, goal digest,
ids and chain integrity (Markdown by default).
""",
}

HISTORY = """\
usage: ha history <goal> add --kind <kind> --summary <text> [options]   (add --help)
       ha history <goal> add --input <file|-> [--request-id <id>]
       ha history <goal> [current|list] [--target ID]... [--keyword WORD]...
                         [--since CURSOR] [--page CURSOR] [--limit N] [--format md|json]
       ha history <goal> show <Dn> | show --request-id ID [--page CURSOR] [--limit N]
                         [--format md|json]
       ha history <goal> graph [--target ID]... [--keyword WORD]... [--since CURSOR]
                         [--format mermaid|md]
       ha history <goal> verify [--json]
The decision history of a started goal (decision-history/v1): `add` registers one event and
prints its receipt; current (the default), list, show, graph and verify read it and never
change a file. Every one that prints JSON (current, list, show, graph, verify) takes
`--json` and `--format json` alike.
"""

GRAPH = """\
usage: ha history <goal> graph [--target ID]... [--keyword WORD]... [--since CURSOR]
                         [--format mermaid|md|json | --json]
The events of `list` (same filters) as Mermaid flowchart source: one node per event (id,
kind, status, short summary; superseded ones dashed), builds_on edges solid, supersedes
edges dotted. --format md wraps it in a ```mermaid fence, which Markdown viewers that
render Mermaid draw as the picture; the plain source pastes into any Mermaid editor.
--json (or --format json) prints the same nodes and edges as one decision-history-graph/v1
JSON line: {"schema", "history", "goal", "nodes", "edges", "omitted_relations"}.
"""

VERIFY = """\
usage: ha history <goal> verify [--json | --format json]
Verify the whole stored chain from scratch (every line parsed and checked; nothing `last`
vouches for is trusted). Intact: the number of events. Damaged: the error naming the first
bad line. --json prints {"ok", "events", "first_bad_line", "error", "message"}: error is the
machine code (history_corrupt, ...), message what was found where. Read-only.
"""

ADD = """\
usage: ha history <goal> add --kind <kind> --summary <text> [--status <status>]
         [--reason <text>] [--target AC-n|EX-n|T001]... [--ref <ref>]... [--checked-ref <ref>]...
         [--builds-on Dn]... [--supersedes Dn[@Dm]]... [--event-at <RFC 3339>] [--request-id <id>]
       ha history <goal> add --input <file|-> [--request-id <id>]
{kinds}refs (--ref, or --checked-ref when the content was read):
  run:<seq>[:<sha256>]  file:<path>[#<section>]  commit:<sha>[@<repository>]
  external:<ref>
Prints one decision-receipt/v1 JSON line. A file or commit reference that could
not be read is stored as observed (missing, not_regular, outside, unreadable,
too_large, not_found, other_repository) and named in one `ha: note:` line on
stderr each; the event is stored all the same. Resending with the same
--request-id prints the first receipt again ("replayed":true).
"""

VIEW = """\
usage: ha history <goal> [current|list] [--target ID]... [--keyword WORD]...
                         [--since CURSOR] [--page CURSOR] [--limit N] [--format md|json]
       ha history <goal> show <Dn> | show --request-id ID [--page CURSOR] [--limit N]
                         [--format md|json]
--json is --format json.
current: what is decided now; list: every event with its markers; show: one event in full.
--target (any of) and --keyword (all words) filter; --since CURSOR asks what changed after an
earlier result; --page CURSOR continues a long result; --limit 1..200 (default 20).
"""


def text(command: str) -> str:
    """The whole --help text of an `ha` command."""
    if command == "ha":
        return TOP + table_text("ha")
    if command == "ha history":
        return HISTORY + table_text("ha history add").replace(
            "exit codes:", "exit codes (add):") + table_text("ha history current|list|show").replace(
            "exit codes:", "exit codes (current, list, show):")
    if command == "ha history add":
        from .history.meanings import kinds_text
        return ADD.replace("{kinds}", kinds_text()) + table_text("ha history add")
    if command in ("ha history current", "ha history list", "ha history show"):
        return VIEW + table_text("ha history current|list|show")
    if command == "ha history graph":
        return GRAPH + table_text(command)
    if command == "ha history verify":
        return VERIFY + table_text(command)
    return SYNOPSIS[command] + table_text(command)
