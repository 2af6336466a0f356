"""Recall for automatic injection (docs/claude-kit.md, "At the moment of asking"): the past
decisions that answer a question being asked, or nothing. The PreToolUse hook calls `answers`
in-process; an explicit search (judgment.search) stays broad.

INTERFACE (fixed; the internals are being rebuilt precision-first):

    answers(path, project, question, options=(), env=None) -> [Answer]

    Answer = {"record": the ledger record (dict, as stored),
              "earlier": [older records of the same project that answer the same question
                          with another answer, newest first]}

The list is best first and holds at most MAX_ANSWERS items; an empty list means "say nothing".
`question` is the question's text, `options` the option labels (they weigh less than the
question). Raises only what ledger.records raises for an unreadable ledger (OSError and
ledger's own errors); the hook maps every exception to silence.
"""
MAX_ANSWERS = 3


def answers(path, project, question, options=(), env=None):
    """The past decisions that answer `question` (see the module docstring). Placeholder
    behaviour until the precision-first rule lands: the relevance ranking's top records."""
    from . import rank
    text = " ".join([question, *options])
    return [{"record": rec, "earlier": []}
            for rec in rank.search_records(path, project, text, MAX_ANSWERS)]
