"""Every exit code of judgment-ledger and judgment-card, one table per command.

The usage texts (`--help`) print these tables, and a test checks the tables in
docs/judgment-ledger.md against them, so code, help and docs say the same thing.

The seed fixes two things: append exits 0 when it skips on an I/O failure (fail-open) and 1 when
the caller's record is rejected. Everything else is ours: a usage error is 64 wherever a usage
error is not a rejected record, so it never shares a code with an answer such as NO_CARD.
"""
OK = 0
REJECTED = 1       # append: the record (or the command line that describes it) is refused
NO_CARD = 1        # should-issue: the reason does not call for a card
INVALID = 1        # validate / record-answer / card recall: the card cannot be used
UNREADABLE = 1     # search / recall: the ledger cannot be read
HARD_STOP = 2      # should-issue: a floor category
BAD_LINES = 1      # verify: a line of the ledger is not a valid v1 record (or it cannot be read)
USAGE = 64         # unknown subcommand or flag, missing or bad argument
NO_DEPS = 1        # the interpreter lacks jsonschema or python-ulid (the install hint is printed)
INTERNAL = 70      # a broken installation (a packaged schema missing) or a bug

TABLES = {
    "judgment-ledger": [
        (OK, "`--help`"),
        (USAGE, "no or unknown subcommand"),
    ],
    "judgment-ledger append": [
        (OK, "written; already stored under this `--id` with the same content; or skipped "
             "(an I/O problem, the lock, a ledger that is not a regular file, missing "
             "dependencies, an unexpected error: one `append skipped (...)` line)"),
        (REJECTED, "rejected: usage, schema, or `--id` already stored with other content"),
        (INTERNAL, "broken installation (a packaged schema is missing)"),
    ],
    "judgment-ledger search": [
        (OK, "results, possibly none"),
        (UNREADABLE, "the ledger cannot be read (a folder, a FIFO, a device, no permission); "
                      "missing Python dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-ledger recall": [
        (OK, "a JSON array, possibly empty"),
        (UNREADABLE, "the ledger cannot be read (a folder, a FIFO, a device, no permission); "
                      "missing Python dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-ledger prime": [
        (OK, "the digest, nothing (no ledger, no decision of the project), or skipped: the "
             "ledger cannot be read, or an unexpected error (one `prime: skipped (...)` line)"),
        (USAGE, "usage error (no `--project`, `--limit` not 1-50, unknown flag)"),
    ],
    "judgment-ledger verify": [
        (OK, "every line is a valid judgment-ledger.v1 record (a missing ledger: 0 records)"),
        (BAD_LINES, "a bad line (each named), or the ledger cannot be read; missing Python "
                    "dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-card": [
        (OK, "`--help`"),
        (USAGE, "no or unknown subcommand"),
    ],
    "judgment-card should-issue": [
        (OK, "`ISSUE_CARD`"),
        (NO_CARD, "`NO_CARD: reason not in enum`"),
        (HARD_STOP, "`HARD_STOP: floor (C)`"),
        (USAGE, "usage error (no `--reason` and no floor category, unknown flag)"),
        (INTERNAL, "internal error"),
    ],
    "judgment-card validate": [
        (OK, "valid (silent)"),
        (INVALID, "invalid, unreadable or not JSON; missing Python dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-card record-answer": [
        (OK, "done (the harness-mem checkpoint and the ledger append are fail-open)"),
        (INVALID, "invalid card, or `--answer` not one of its options; missing Python "
                  "dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-card recall": [
        (OK, "the card printed with `similar_past_decisions`"),
        (INVALID, "invalid card, or the ledger cannot be read; missing Python dependencies"),
        (USAGE, "usage error"),
        (INTERNAL, "broken installation, internal error"),
    ],
    "judgment-card render": [
        (OK, "the card as Markdown or HTML"),
        (INVALID, "invalid, unreadable or not JSON; missing Python dependencies"),
        (USAGE, "usage error (no CARD, `--format` not md or html, unknown flag)"),
        (INTERNAL, "broken installation, internal error"),
    ],
}


def table_text(command):
    """The exit-code lines of a usage text."""
    from ..cliargs import exit_codes_text
    return exit_codes_text(TABLES[command])
