"""bench/eval/inject3, the third tuning set (three teams the first set never names), keeps the
format and the promises of bench/eval/inject3/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks). It checks the data only, never a ranker's output."""
from pathlib import Path

import pytest

from eval_inject_checks import (check_about_half_korean, check_cross_language_both_ways,
                                check_kind_minimums, check_new_teams_in_time_order,
                                check_no_repeated_question_text, check_question_file,
                                check_questions_per_team, check_reversal_pairs_per_team,
                                check_sequential_ids, check_written_as_append_writes,
                                load_ledger, load_split, read_set)

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject3"
NAME = "tune3"
TEAMS = {"ecommerce-search", "health-records", "devtools-cli"}
# Teams of the other sets, named here so that this set's teams stay new.
OTHER_TEAMS = {"payments-api", "mobile-app", "data-platform", "web-console", "ml-platform",
               "game-backend", "sre-ops"}
DECISIONS_PER_TEAM = (30, 34)
QUESTIONS_PER_PROJECT = (28, 35)
MIN_PER_KIND = {"reversal": 20, "cross-language": 20, "paraphrase": 5, "korean": 5,
                "distractor": 3, "multi-question": 3}
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


def test_every_line_is_a_valid_record_written_as_append_writes_it(files):
    check_written_as_append_writes(files[0])


def test_three_new_teams_in_time_order(records):
    check_new_teams_in_time_order(records, TEAMS, OTHER_TEAMS, DECISIONS_PER_TEAM,
                                  (rec["project"] for rec in load_ledger()))


def test_about_half_of_the_recorded_questions_are_korean(records):
    check_about_half_korean(records)


def test_format_is_the_one_of_the_first_set(data, records):
    check_question_file(NAME, data, records, 85)


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "t3q")


def test_every_team_has_its_share_of_questions(data):
    check_questions_per_team(data, TEAMS, QUESTIONS_PER_PROJECT)


def test_kinds_reach_their_minimum_counts(data):
    kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
    assert kinds["unanswerable"] and kinds["cross-project"]


def test_reversals_label_a_pair_per_team(data):
    check_reversal_pairs_per_team(data, TEAMS, MIN_PER_KIND["reversal"], 6)


def test_cross_language_goes_both_ways_and_mixes_scripts(data):
    check_cross_language_both_ways(data, 8)


def test_no_question_text_repeats_a_recorded_question_or_the_first_set(data, records):
    """Compared as normalised sets; blind.json is never loaded."""
    check_no_repeated_question_text(data, records)
