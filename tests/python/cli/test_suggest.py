"""cliargs.suggest / did_you_mean: the one "did you mean" of every Python command line."""
from judgment_toolkit.cliargs import SUGGEST_MAX_LEN, did_you_mean, suggest

VIEWS = ("current", "list", "show", "add", "graph", "verify")


def test_one_edit_away_is_suggested():
    assert suggest("lst", VIEWS) == "list"
    assert suggest("shwo", VIEWS) == "show"      # two neighbours swapped
    assert suggest("verfy", VIEWS) == "verify"
    assert suggest("--limt", ("--limit", "--page")) == "--limit"


def test_far_words_and_ties_get_nothing():
    assert suggest("frobnicate", VIEWS) is None
    assert suggest("ab", ("ac", "ad")) is None   # two as near: no guess
    assert suggest("list", VIEWS) is None        # the word itself is no typo
    assert suggest("", VIEWS) is None


def test_short_words_allow_one_edit_longer_two():
    assert suggest("lsit", VIEWS) == "list"      # a swap is one edit
    assert suggest("ls", VIEWS) is None          # two deletions from a 4-letter word
    assert suggest("currnet", VIEWS) == "current"
    assert suggest("curr", VIEWS) is None


def test_a_hostile_word_costs_no_distance():
    assert suggest("l" * (SUGGEST_MAX_LEN + 1), ("l" * SUGGEST_MAX_LEN,)) is None


def test_the_hint_has_one_wording():
    assert did_you_mean("lst", VIEWS) == " (did you mean 'list'?)"
    assert did_you_mean("zzz", VIEWS) == ""
