"""bench/eval/inject4, the fourth tuning set (three teams no other set names), keeps the
format and the promises of bench/eval/inject4/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks). It checks the data only, never a ranker's output."""
from collections import Counter
from pathlib import Path

import pytest

from eval_inject_checks import (check_about_half_korean, check_cross_language_both_ways,
                                check_kind_minimums, check_new_teams_in_time_order,
                                check_no_repeated_question_text, check_question_file,
                                check_questions_per_team, check_reversal_pairs_per_team,
                                check_sequential_ids, check_written_as_append_writes,
                                load_ledger, load_split, normalised, read_set, reversal_pairs)

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject4"
NAME = "tune4"
TEAMS = {"logistics-routing", "learning-platform", "iot-firmware"}
# Teams of the other sets, named here so that this set's teams stay new.
OTHER_TEAMS = {"payments-api", "mobile-app", "data-platform", "web-console", "ml-platform",
               "game-backend", "sre-ops", "ecommerce-search", "health-records", "devtools-cli"}
THIRD = SET.parent / "inject3"
DECISIONS_PER_TEAM = (30, 34)
QUESTIONS_PER_PROJECT = (28, 35)
MIN_PER_KIND = {"reversal": 20, "cross-language": 20, "paraphrase": 12, "korean": 6,
                "distractor": 3, "multi-question": 4}
NO_ANSWER_SHARE = 0.30


@pytest.fixture(scope="module")
def files():
    return read_set(SET)


@pytest.fixture(scope="module")
def records(files):
    return files[1]


@pytest.fixture(scope="module")
def data(files):
    return files[2]


@pytest.fixture(scope="module")
def third():
    """The third set's ledger records and question file."""
    _, records, data = read_set(THIRD)
    return records, data


def test_every_line_is_a_valid_record_written_as_append_writes_it(files):
    check_written_as_append_writes(files[0])


def test_three_new_teams_in_time_order(records, third):
    earlier = [rec["project"] for rec in load_ledger()]
    earlier += [rec["project"] for rec in third[0].values()]
    check_new_teams_in_time_order(records, TEAMS, OTHER_TEAMS, DECISIONS_PER_TEAM, earlier)


def test_about_half_of_the_recorded_questions_are_korean(records):
    check_about_half_korean(records)


def test_format_is_the_one_of_the_first_set(data, records):
    check_question_file(NAME, data, records, 85)


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "t4q")


def test_every_team_has_its_share_of_questions(data):
    check_questions_per_team(data, TEAMS, QUESTIONS_PER_PROJECT)


def test_kinds_reach_their_minimum_counts(data):
    kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
    assert kinds["unanswerable"] and kinds["cross-project"]


def test_reversals_label_a_pair_per_team(data):
    check_reversal_pairs_per_team(data, TEAMS, MIN_PER_KIND["reversal"], 7)


def test_the_ledger_holds_enough_reversals_per_team(data, records):
    """Every labelled pair is two decisions of one team, and each team has at least 7 of them."""
    pairs = reversal_pairs(data["questions"])
    assert len(pairs) >= 24
    for earlier, newest in pairs:
        assert records[earlier]["project"] == records[newest]["project"]
    per_team = Counter(records[newest]["project"] for _, newest in pairs)
    assert all(per_team[team] >= 7 for team in TEAMS), per_team


def test_cross_language_goes_both_ways_and_mixes_scripts(data):
    check_cross_language_both_ways(data, 8)


def test_no_question_text_repeats_a_recorded_question_or_an_earlier_set(data, records, third):
    """Compared as normalised sets; no held-out file is ever loaded."""
    third_records, third_data = third
    check_no_repeated_question_text(
        data, records, {normalised(q["question"]) for q in third_data["questions"]},
        {normalised(rec["question"]) for rec in third_records.values()})
