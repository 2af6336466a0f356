"""The `--help` texts of judgment-ledger and judgment-card: every flag and the exit codes."""
from .exits import table_text

LEDGER_WHERE = """\
ledger: $HARNESS_JUDGMENT_LEDGER, else .claude/state/judgment-ledger.jsonl under
$HARNESS_PROJECT_ROOT, the git top level, or the current directory (a regular file;
symlinks are followed).
"""

SYNOPSIS = {
    "judgment-ledger append": """\
usage: judgment-ledger append --project P --question Q --answer A --card-ref REF
                              [--rationale TEXT] [--tags t1,t2] [--id ID] [--json]
Append one decision to the Judgment Ledger. Silent on success; --json prints the stored
record as one JSON line. With --id: a record already stored under that id with the same
content is not written again (exit 0); other content under it is rejected (exit 1).
Fail-open: an I/O problem is one `append skipped (...)` line on stderr and exit 0.
""",
    "judgment-ledger search": """\
usage: judgment-ledger search --project P --query TEXT [--limit N] [--rank match|relevance]
Print up to N (default 3, at most 3) of the project's records, best first, one JSON
line each. --rank (or HARNESS_JUDGMENT_RANK) chooses the ranking; match is the default.
relevance adds synonyms from the packaged lexicon and the HARNESS_JUDGMENT_LEXICON files.
""",
    "judgment-ledger recall": """\
usage: judgment-ledger recall --project P --question TEXT [--rank match|relevance]
Print the project's past decisions similar to the question as one JSON array of
judgment-card.v1 similar_past_decisions items (at most 3), ranked as search ranks.
""",
    "judgment-ledger prime": """\
usage: judgment-ledger prime --project P [--limit N]
Print the project's N most recent decisions (default 5, at most 50), newest first, as
short Markdown for a session's start. Fail-open: no ledger or no decision prints nothing;
a ledger that cannot be read is one `prime: skipped (...)` line on stderr; exit 0.
""",
    "judgment-ledger verify": """\
usage: judgment-ledger verify [--json]
Read the whole ledger and check every line is a valid judgment-ledger.v1 record (strict
JSON, the schema, LF-terminated, an id used once). Names each bad line and why; --json
prints {"ok", "records", "bad": [{"line", "reason"}]}. Read-only.
""",
    "judgment-card should-issue": """\
usage: judgment-card should-issue --reason R [--floor-category C]
Say whether a decision card is due: ISSUE_CARD for dod-ambiguous, scope-exceeded or
tradeoff; NO_CARD otherwise; HARD_STOP for any non-empty floor category.
""",
    "judgment-card validate": """\
usage: judgment-card validate CARD
Check a judgment-card.v1 JSON file; silent when valid, every violation otherwise.
""",
    "judgment-card record-answer": """\
usage: judgment-card record-answer CARD --answer OPTION_ID --why TEXT --project P
                                   --session S [--json]
Record the answer to a card: a harness-mem checkpoint when configured, then one ledger
append (both fail-open). --json prints {"ledger": <the stored record or null>,
"harness_mem": "recorded" | "unreachable" | "not_configured"} as one line.
""",
    "judgment-card recall": """\
usage: judgment-card recall CARD --project P [--rank match|relevance]
Print the card (pretty JSON) with similar_past_decisions filled from the ledger.
""",
    "judgment-card render": """\
usage: judgment-card render CARD|- [--format md|html]
Show a valid card to a person: Markdown (default), or one static HTML page (no script,
no URL, every card text escaped) that fits 1280x800. - reads the card from stdin.
""",
}

TOP = {
    "judgment-ledger": """\
usage: judgment-ledger append|search|recall|prime|verify ARGS...  (judgment-ledger SUBCOMMAND --help)
  judgment-ledger append --project P --question Q --answer A --card-ref REF
                         [--rationale TEXT] [--tags t1,t2] [--id ID] [--json]
  judgment-ledger search --project P --query TEXT [--limit N] [--rank match|relevance]
  judgment-ledger recall --project P --question TEXT [--rank match|relevance]
  judgment-ledger prime --project P [--limit N]
  judgment-ledger verify [--json]
""",
    "judgment-card": """\
usage: judgment-card should-issue|validate|record-answer|recall|render ARGS...
                                                      (judgment-card SUBCOMMAND --help)
  judgment-card should-issue --reason R [--floor-category C]
  judgment-card validate CARD
  judgment-card record-answer CARD --answer OPTION_ID --why TEXT --project P --session S [--json]
  judgment-card recall CARD --project P [--rank match|relevance]
  judgment-card render CARD|- [--format md|html]
""",
}


def text(command):
    """The whole --help text of `command` ("judgment-ledger append", "judgment-card", ...)."""
    body = TOP.get(command) or SYNOPSIS[command]
    where = LEDGER_WHERE if command.startswith("judgment-ledger") or command in (
        "judgment-card record-answer", "judgment-card recall") else ""
    return body + where + table_text(command)
