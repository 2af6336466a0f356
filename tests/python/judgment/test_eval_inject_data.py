"""bench/eval/inject (the labelled set that automatic injection is judged on) is well-formed:
every ledger line a judgment-ledger.v1 record (Judgment Ledger v1, "Record format"), the
questions shaped as Claude Code's AskUserQuestion input, every label naming a decision of the
question's own project (recall is project-scoped), and the mix of kinds the set promises in
bench/eval/inject/README.md ("Counts"). It checks the data only, never a ranker's output.
The per-file checks live in eval_inject_checks, shared with the tune.json test."""
from collections import Counter

import pytest

from eval_inject_checks import (LATIN, check_askuserquestion_shape, check_cross_project_questions,
                                check_earlier_decisions_have_a_newest, check_ids_and_split,
                                check_kinds_agree_with_labels_and_languages,
                                check_labels_name_decisions_of_the_project, check_readme_counts,
                                check_top_level, korean, load_ledger, load_split, normalised,
                                question_texts)
from judgment_toolkit.judgment import schema

SPLITS = ("dev", "blind")
MIN_QUESTIONS = {"dev": 80, "blind": 100}


@pytest.fixture(scope="module")
def ledger():
    return load_ledger()


@pytest.fixture(scope="module")
def records(ledger):
    return {rec["id"]: rec for rec in ledger}


@pytest.fixture(scope="module", params=SPLITS)
def split(request):
    return request.param, load_split(request.param)


def test_every_ledger_line_is_a_valid_judgment_ledger_v1_record(ledger):
    for rec in ledger:
        assert schema.errors(schema.LEDGER, rec) == [], rec.get("id")
        assert rec["decided_at"].endswith("Z"), rec["id"]


def test_ledger_ids_are_unique(ledger):
    ids = [rec["id"] for rec in ledger]
    assert len(set(ids)) == len(ids)


def test_ledger_is_appended_in_time_order(ledger):
    times = [rec["decided_at"] for rec in ledger]
    assert times == sorted(times)


def test_ledger_mixes_teams_and_languages(ledger):
    assert len(ledger) >= 160
    per_project = Counter(rec["project"] for rec in ledger)
    assert len(per_project) >= 4
    assert min(per_project.values()) >= 30, per_project
    korean_share = sum(korean(rec["question"]) for rec in ledger) / len(ledger)
    assert korean_share >= 0.30, korean_share
    mixed = [r for r in ledger if korean(r["question"]) and LATIN.search(r["question"])]
    assert len(mixed) >= 10


def test_top_level_names_the_ledger_and_the_grades(split):
    check_top_level(split[1])


def test_question_ids_unique_and_split_marked(split):
    name, data = split
    check_ids_and_split(name, data, MIN_QUESTIONS[name])


def test_questions_have_the_shape_of_askuserquestion_input(split):
    check_askuserquestion_shape(split[1])


def test_every_label_names_a_decision_of_the_questions_project(split, records):
    check_labels_name_decisions_of_the_project(split[1], records)


def test_an_earlier_decision_always_has_a_newer_one_that_leads(split, records):
    """Grade 1 marks an earlier decision on the same question; the newest (grade 2) leads."""
    check_earlier_decisions_have_a_newest(split[1], records)


def test_kinds_agree_with_their_labels_and_languages(split, records):
    check_kinds_agree_with_labels_and_languages(split[1], records)


def test_cross_project_questions_are_answered_only_in_another_project(split, records):
    """Their topic is decided in another team's ledger: never relevant, recall is project-scoped."""
    check_cross_project_questions(split[1])


def test_counts_promised_by_the_readme_hold(split):
    check_readme_counts(split[1])


def test_dev_and_blind_share_no_question_text():
    texts = {name: question_texts(name) for name in SPLITS}
    assert texts["dev"].isdisjoint(texts["blind"]), texts["dev"] & texts["blind"]


def test_no_question_repeats_a_recorded_question_word_for_word(records):
    recorded = {normalised(rec["question"]) for rec in records.values()}
    for name in SPLITS:
        for q in load_split(name)["questions"]:
            assert normalised(q["question"]) not in recorded, (name, q["id"])
