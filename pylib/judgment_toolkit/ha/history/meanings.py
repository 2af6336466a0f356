"""What each stored kind and status token means in English: the one table of meanings, for
`add --help` and docs/history.md ("Fields and limits"). The tokens themselves, and which
statuses a kind may carry, are model.KINDS's (the contract's tokens, stored as written);
tests/python/history_write/test_meanings.py holds the two tables to the same tokens.
"""
from __future__ import annotations

KIND_MEANINGS = {
    "관측": "observation: something seen or reproduced",
    "원인": "cause: why it happens, as a claim",
    "결정": "decision: what was chosen",
    "조치": "action: a change made or planned",
    "검증": "verification: a check of a claim or change",
    "막힘": "blocked: work cannot go on",
    "재개": "resumed: work goes on again",
}

STATUS_MEANINGS = {
    "가설": "hypothesis", "확정": "confirmed", "기각": "rejected",
    "예정": "planned", "반영": "applied",
    "대기": "pending", "통과": "passed", "실패": "failed",
}


def word(token: str) -> str:
    """The English word of a kind or status token (`관측` -> `observation`)."""
    return (KIND_MEANINGS.get(token) or STATUS_MEANINGS[token]).split(":", 1)[0]


def kinds_text() -> str:
    """The kinds block of `add --help`: each kind, its meaning and its statuses."""
    from judgment_toolkit.ha.history.model.terms import KINDS
    lines = ["kinds (--kind, stored as written) and the statuses (--status, optional) a\n"
             "kind may carry:\n"]
    for kind, statuses in KINDS.items():
        lines.append(f"  {kind}  {KIND_MEANINGS[kind]}\n")
        if statuses:
            lines.append("        " + ", ".join(f"{s} {STATUS_MEANINGS[s]}" for s in statuses)
                         + "\n")
    return "".join(lines)


def kind_refusal(given) -> str:
    """Why `given` is no kind, for a person: every kind with its English word, and the kind
    meant when `given` is one of those words (`decision` -> `결정`) or a likely typo of a kind
    or a word (cliargs.suggest)."""
    from judgment_toolkit.cliargs import suggest
    from judgment_toolkit.ha.history.model.terms import KINDS
    choices = ", ".join(f"{k} ({word(k)})" for k in KINDS)
    meant = None
    if isinstance(given, str):
        by_word = {word(k): k for k in KINDS}
        meant = by_word.get(given.strip().casefold())
        if meant is None:
            near = suggest(given, list(KINDS) + list(by_word))
            meant = by_word.get(near, near)
    # the wording of cliargs.did_you_mean, which cannot be used as is: an English word is
    # no typo of its kind
    return f"kind {given!r} must be one of {choices}" + (f" (did you mean '{meant}'?)" if meant else "")
