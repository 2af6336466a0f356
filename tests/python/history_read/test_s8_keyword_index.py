"""decision-history/v1 section 8 `--keyword` (case-insensitive, in summary or reason) answered
from the index: the events lines are tested in blocks with bytes.lower() instead of one
casefold per line,
so the characters whose casefold is ASCII (Kelvin sign, ß, ligatures), JSON escapes, Hangul and
words that occur outside summary and reason must give what the full pass gives."""
import sys
import unicodedata  # noqa: F401  (the Unicode data the checks below read through str methods)

import pytest

from helpers_read import GOAL, ids, note, start, store_dir, view  # noqa: F401

from judgment_toolkit.ha.history.views import query

SUMMARIES = [
    ("\u212ailo bytes", ()),                  # Kelvin sign: casefolds to "kilo bytes"
    ("STRASSE", ()),
    ("Straße", ()),                          # casefolds to "strasse"
    ("\ufb01le format", ()),                 # ligature fi: "file format"
    ("plain 경계 text", ()),
    ("nothing", ("--reason", "FILE here")),  # the word in the reason
    ("profile", ()),                         # inside a word: still a hit (substring)
    ("fil e", ()),
    ("x", ("--target", "AC-1")),             # "ac-1" only in targets: not a hit
    ("tab\there file", ()),                  # an escaped character in the line
]
WORDS = ["kilo", "strasse", "Straße", "file", "경계", "ac-1", "FIL", "here"]


def test_the_casefold_tables_match_this_pythons_unicode_data():
    to_ascii = "".join(chr(c) for c in range(0x80, sys.maxunicode + 1)
                       if any(x.isascii() for x in chr(c).casefold()))
    assert query.CASEFOLDS_TO_ASCII == to_ascii
    hangul = range(0xAC00, 0xD7A4)
    assert all(chr(c).casefold() == chr(c) for c in hangul)
    into = [c for c in range(sys.maxunicode + 1) if c not in hangul
            and any(0xAC00 <= ord(x) <= 0xD7A3 for x in chr(c).casefold())]
    assert into == []


@pytest.mark.parametrize("word", WORDS)
def test_keyword_from_the_index_equals_the_full_pass(repo, goal, word):
    start(repo)
    for summary, extra in SUMMARIES:
        note(repo, summary, *extra)
    assert (store_dir(repo) / "index.state").exists()
    with_index = [view(repo, v, "--keyword", word) for v in ("current", "list")]
    for name in ("index", "index.slots", "index.state"):
        (store_dir(repo) / name).unlink()
    assert [view(repo, v, "--keyword", word) for v in ("current", "list")] == with_index
    got = ids(with_index[1]["events"])
    folded = word.casefold()
    want = [f"D{i + 1}" for i, (s, extra) in enumerate(SUMMARIES)
            if folded in s.casefold() or folded in " ".join(extra[1:2]).casefold()
            and extra[:1] == ("--reason",)]
    assert got == want, (word, got, want)
