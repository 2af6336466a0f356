"""bench/eval/inject/tune.json, the second tuning set (terse and casual, unlike dev.json), keeps
the format and the promises of bench/eval/inject/README.md ("tune.json"): the checks every
question file passes (eval_inject_checks), and the mix of kinds and projects it was written for.
It checks the data only, never a ranker's output."""
from collections import Counter

import pytest

from eval_inject_checks import (check_kind_minimums, check_question_file, check_sequential_ids,
                                korean, load_ledger, load_split, normalised, question_texts,
                                reversal_pairs)

NAME = "tune"
MIN_PER_KIND = {"paraphrase": 25, "korean": 25, "cross-language": 30, "reversal": 15,
                "distractor": 5, "multi-question": 2}
PER_PROJECT = (35, 40)
NO_ANSWER_SHARE = 0.32


@pytest.fixture(scope="module")
def records():
    return {rec["id"]: rec for rec in load_ledger()}


@pytest.fixture(scope="module")
def data():
    return load_split(NAME)


def test_format_is_the_one_dev_and_blind_have(data, records):
    check_question_file(NAME, data, records, 150)


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "tune")


def test_every_project_has_its_share_of_questions(data, records):
    per_project = Counter(q["project"] for q in data["questions"])
    assert set(per_project) == {rec["project"] for rec in records.values()}
    for project, count in per_project.items():
        assert PER_PROJECT[0] <= count <= PER_PROJECT[1], (project, count)


def test_kinds_reach_their_minimum_counts(data):
    kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
    assert kinds["unanswerable"] and kinds["cross-project"]


def test_reversals_lead_with_the_newest_pair(data):
    reversals = [q for q in data["questions"] if q["kind"] == "reversal"]
    assert len(reversal_pairs(reversals)) >= MIN_PER_KIND["reversal"]


def test_cross_language_goes_both_ways_and_mixes_scripts(data, records):
    """Korean questions about English records, English about Korean, and mixed-script ones."""
    crossing = [q for q in data["questions"] if q["kind"] == "cross-language"]
    ko_asks = [q for q in crossing if korean(q["question"])]
    en_asks = [q for q in crossing if not korean(q["question"])]
    assert len(ko_asks) >= 10 and len(en_asks) >= 10
    mixed = [q for q in ko_asks if any(c.isascii() and c.isalpha() for c in q["question"])]
    assert mixed and len(mixed) < len(ko_asks)


def test_style_is_terse_lower_case(data):
    """Written as a busy engineer types: mostly no leading capital, short questions."""
    texts = [q["question"] for q in data["questions"]]
    capitalised = [t for t in texts if t[0].isupper()]
    assert len(capitalised) <= len(texts) // 10, capitalised
    assert sum(len(t) for t in texts) / len(texts) < 50


def test_no_question_text_repeats_dev_blind_or_a_recorded_question(data, records):
    """Compared as normalised sets only; blind.json's content is never shown."""
    mine = {normalised(q["question"]) for q in data["questions"]}
    assert len(mine) == len(data["questions"])
    recorded = {normalised(rec["question"]) for rec in records.values()}
    assert mine.isdisjoint(recorded)
    assert mine.isdisjoint(question_texts("dev"))
    shared_with_blind = len(mine & question_texts("blind"))  # a count: no blind text printed
    assert shared_with_blind == 0
