"""bench/eval/inject2/blind.json, the second blind set, keeps the format of the first set's
question files (bench/eval/inject/README.md, the checks every question file passes in
eval_inject_checks) and the promises of bench/eval/inject2/README.md: its count, the share of
questions with no relevant decision, the minimum count of each kind, reversal pairs led by the
newest decision, cross-language questions both ways, and Korean questions in a casual style.
It checks the data only, never a ranker's output."""
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from eval_inject_checks import (check_kind_minimums, check_question_file, check_sequential_ids,
                                korean, load_ledger, load_split, normalised, question_texts,
                                reversal_pairs)

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject2"
NAME = "blind"
MIN_QUESTIONS = 130
PER_PROJECT = (44, 52)
NO_ANSWER_SHARE = 0.30
MIN_PER_KIND = {"paraphrase": 12, "korean": 12, "cross-language": 20, "reversal": 15,
                "distractor": 3, "multi-question": 2, "unanswerable": 30, "cross-project": 6}
# Casual Korean endings (반말, 음슴체): 돼?, 함?, 씀?, 줘, 어/아?, 임?, 됨?
CASUAL_KO = re.compile(r"(돼|함|씀|줘|해|어|아|임|됨|나|지|까|감|음)\??\s*$")


@pytest.fixture(scope="module")
def records():
    lines = (SET / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return {rec["id"]: rec for rec in map(json.loads, filter(str.strip, lines))}


@pytest.fixture(scope="module")
def data():
    return json.loads((SET / f"{NAME}.json").read_text(encoding="utf-8"))


def test_format_is_the_one_the_first_set_has(data, records):
    check_question_file(NAME, data, records, MIN_QUESTIONS)


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "b2q")


def test_every_project_has_its_share_and_its_unanswerable_questions(data, records):
    per_project = Counter(q["project"] for q in data["questions"])
    assert set(per_project) == {rec["project"] for rec in records.values()}
    for project, count in per_project.items():
        assert PER_PROJECT[0] <= count <= PER_PROJECT[1], (project, count)
        silent = sum(1 for q in data["questions"] if q["project"] == project and not q["relevant"])
        assert silent / count >= NO_ANSWER_SHARE, (project, silent, count)


def test_kinds_reach_their_minimum_counts(data):
    check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)


def test_reversals_are_distinct_pairs_led_by_the_latest_decision(data, records):
    """The newest is graded 2 and decided after every other labelled decision of the question."""
    reversals = [q for q in data["questions"] if q["kind"] == "reversal"]
    assert len(reversal_pairs(reversals)) >= MIN_PER_KIND["reversal"]
    for q in data["questions"]:
        if "newest" not in q:
            continue
        assert q["relevant"][q["newest"]] == 2, q["id"]
        latest = max(q["relevant"], key=lambda rid: records[rid]["decided_at"])
        assert latest == q["newest"], q["id"]


def test_cross_language_goes_both_ways_and_mixes_scripts(data):
    crossing = [q for q in data["questions"] if q["kind"] == "cross-language"]
    ko_asks = [q for q in crossing if korean(q["question"])]
    en_asks = [q for q in crossing if not korean(q["question"])]
    assert len(ko_asks) >= 10 and len(en_asks) >= 10
    mixed = [q for q in ko_asks if any(c.isascii() and c.isalpha() for c in q["question"])]
    assert mixed and len(mixed) < len(ko_asks)


def test_korean_questions_are_many_mixed_and_often_casual(data):
    ko = [q["question"] for q in data["questions"] if korean(q["question"])]
    assert len(ko) / len(data["questions"]) >= 0.35
    assert sum(1 for t in ko if re.search("[A-Za-z]", t)) >= len(ko) // 3
    assert sum(1 for t in ko if CASUAL_KO.search(t)) >= len(ko) // 3


def test_no_question_text_repeats_a_recorded_question_or_a_tuning_set(data, records):
    """The first set's held-out file is not loaded: it is never read while a set is written."""
    mine = {normalised(q["question"]) for q in data["questions"]}
    assert len(mine) == len(data["questions"])
    recorded = {normalised(rec["question"]) for rec in records.values()}
    recorded |= {normalised(rec["question"]) for rec in load_ledger()}
    assert mine.isdisjoint(recorded)
    assert mine.isdisjoint(question_texts("dev"))
    assert mine.isdisjoint(question_texts("tune"))
