"""The exit codes the Python jobs of judgment-ledger and judgment-card return.

The tables of every command are in its --help text (scripts/lib/help/), and a test checks the
tables in docs/judgment-ledger.md against them, so scripts, help and docs say the same thing.

Judgment Ledger v1, section 'Fail-Open', fixes two things: append exits 0 when it skips on an I/O failure (fail-open) and 1 when
the caller's record is rejected. Everything else is ours: a usage error is 64 wherever a usage
error is not a rejected record, so it never shares a code with an answer such as should-issue's
NO_CARD (1; should-issue is answered by scripts/judgment-card.sh alone).
"""
OK = 0
REJECTED = 1       # append: the record (or the command line that describes it) is refused
INVALID = 1        # validate / record-answer / card recall: the card cannot be used
UNREADABLE = 1     # search / recall: the ledger cannot be read
BAD_LINES = 1      # verify: a line of the ledger is not a valid v1 record (or it cannot be read)
NOT_FOUND = 1      # show: the project has no decision with that id
USAGE = 64         # unknown subcommand or flag, missing or bad argument
NO_DEPS = 1        # the interpreter lacks jsonschema or python-ulid (the install hint is printed)
INTERNAL = 70      # a broken installation (a packaged schema missing) or a bug
# A job's answer "the caller got the record or card wrong"; only the jobs return it (Python
# itself exits 1 on an uncaught exception, 120 on a failed flush, 128+n on a signal), so
# scripts/lib/py.sh (PY_REJECTED) maps it to 1 and every other failure to fail-open.
CHILD_REJECTED = 97
