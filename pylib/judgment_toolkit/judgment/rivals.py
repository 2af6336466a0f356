"""Rivals: things of one kind that live side by side, of which a question names one (iOS or
Android, staging or production). A question that names one of them asks about that one: a
decision whose question names another of the kind, and not it, answers a sibling question
("Minimum iOS version?" for "What minimum Android version?"), however many other words the two
share. Used by the recall for automatic injection (judgment.inject; docs/judgment-ledger.md,
"Recall for automatic injection", "Rivals").

KINDS holds one line per kind, its rivals separated by "|", each rival's spellings by commas.
Only kinds whose rivals a team keeps side by side are listed, never alternatives that replace
one another (a cloud, a database: "Move to GCP?" answers "Stay on AWS?"), and only names that
say one thing in a software team's question ("edge" says several). An English spelling is
named when its words are among a text's words, folded (its terms would not do: Snowball gives
"production" and "product" one stem); a Korean one when its terms (judgment.analysis.terms) are
among the text's, whatever particle follows it.
"""
KINDS = """
ios, 아이오에스 | android, 안드로이드, 안드
staging, stg, 스테이징 | production, prod, 프로덕션, 운영 환경, 운영 서버
windows, 윈도우 | macos, mac os, 맥os | linux, 리눅스
chrome, 크롬 | safari, 사파리 | firefox, 파이어폭스
frontend, front end, front-end, 프론트엔드, 프런트엔드 | backend, back end, back-end, 백엔드
"""

_KINDS = None


def kinds():
    """[[(ASCII words, or None; terms) of each spelling] for each rival] for each kind."""
    global _KINDS
    if _KINDS is None:
        from .analysis import fold, terms, words
        _KINDS = [[[(frozenset(words(fold(s))), None) if s.isascii() else (None, frozenset(terms(s)))
                    for s in rival.split(",")] for rival in line.split("|")]
                  for line in KINDS.strip().splitlines()]
    return _KINDS


def named(text):
    """{(kind, rival)} of the rivals that `text` names."""
    from .analysis import fold, terms, words
    folded = fold(text)
    held_words, held_terms = set(words(folded)), None
    found = set()
    for k, rivals in enumerate(kinds()):
        for r, spellings in enumerate(rivals):
            for ascii_words, korean_terms in spellings:
                if ascii_words is not None:
                    hit = ascii_words <= held_words
                else:
                    if held_terms is None:
                        held_terms = set(terms(folded))
                    hit = korean_terms <= held_terms
                if hit:
                    found.add((k, r))
                    break
    return found


def apart(asked, other):
    """Whether a question that names the rivals `asked` (named) is not the question that one
    naming `other` asked: the asked question names one rival of a kind, and the other names
    another of that kind and not it."""
    for kind, rival in asked:
        if sum(1 for k, _ in asked if k == kind) != 1:
            continue  # "iOS or Android?" asks about both
        if (kind, rival) not in other and any(k == kind for k, _ in other):
            return True
    return False
