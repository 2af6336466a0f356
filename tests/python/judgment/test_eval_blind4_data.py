"""bench/eval/inject6, the held-out set blind4 (three teams no other set names), keeps the
format and the promises of bench/eval/inject6/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks), plus a `chosen` option for every answerable question. It checks the data
only, never a ranker's output. The only other held-out file it loads is inject5's blind.json,
and only to compare normalised question texts and team names."""
import copy
from collections import Counter
from pathlib import Path

import pytest

from eval_inject_checks import (NO_ANSWER_KINDS, check_about_half_korean,
                                check_cross_language_both_ways, check_kind_minimums,
                                check_new_teams_in_time_order, check_no_repeated_question_text,
                                check_question_file, check_questions_per_team,
                                check_reversal_pairs_per_team, check_sequential_ids,
                                check_written_as_append_writes, load_ledger, load_split,
                                normalised, read_set, reversal_pairs)

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject6"
QUESTIONS = "blind.json"
NAME = "blind4"
TEAMS = {"hotel-pms", "music-streaming", "payroll-saas"}
# Teams of the other sets, named here so that this set's teams stay new.
OTHER_TEAMS = {"payments-api", "mobile-app", "data-platform", "web-console", "ml-platform",
               "game-backend", "sre-ops", "ecommerce-search", "health-records", "devtools-cli",
               "logistics-routing", "learning-platform", "iot-firmware", "fraud-detection",
               "newsroom-cms", "transit-ticketing"}
THIRD = SET.parent / "inject3"
FOURTH = SET.parent / "inject4"
FIFTH = SET.parent / "inject5"
DECISIONS_PER_TEAM = (50, 55)
QUESTIONS_PER_PROJECT = (48, 53)
MIN_PER_KIND = {"reversal": 20, "cross-language": 20, "paraphrase": 20, "korean": 10,
                "near-duplicate": 5, "distractor": 5, "multi-question": 4,
                "unanswerable": 30, "cross-project": 8}
NO_ANSWER_SHARE = 0.30


@pytest.fixture(scope="module")
def files():
    return read_set(SET, QUESTIONS)


@pytest.fixture(scope="module")
def records(files):
    return files[1]


@pytest.fixture(scope="module")
def data(files):
    return files[2]


@pytest.fixture(scope="module")
def shaped(data):
    """The question file without the `chosen` field, which the shared AskUserQuestion shape
    check does not know; `chosen` is checked on its own below."""
    plain = copy.deepcopy(data)
    for q in plain["questions"]:
        q.pop("chosen", None)
    return plain


@pytest.fixture(scope="module")
def earlier_sets():
    """The ledger records and question files of the tuning sets inject3 and inject4, and of
    the held-out set inject5 (blind3), loaded only to compare team names and texts."""
    sets = [read_set(folder)[1:] for folder in (THIRD, FOURTH)]
    return sets + [read_set(FIFTH, "blind.json")[1:]]


def test_every_line_is_a_valid_record_written_as_append_writes_it(files):
    check_written_as_append_writes(files[0])


def test_three_new_teams_in_time_order(records, earlier_sets):
    earlier = [rec["project"] for rec in load_ledger()]
    for set_records, _ in earlier_sets:
        earlier += [rec["project"] for rec in set_records.values()]
    check_new_teams_in_time_order(records, TEAMS, OTHER_TEAMS, DECISIONS_PER_TEAM, earlier)


def test_about_half_of_the_recorded_questions_are_korean(records):
    check_about_half_korean(records)


def test_format_is_the_one_of_the_first_set(shaped, records):
    check_question_file(NAME, shaped, records, 145)


def test_only_chosen_is_added_to_the_shape(data):
    for q in data["questions"]:
        assert set(q) - {"newest", "chosen"} == {"id", "split", "project", "kind", "question",
                                                 "header", "options", "multiSelect",
                                                 "relevant"}, q["id"]


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "b4q")


def test_every_team_has_its_share_of_questions(data):
    check_questions_per_team(data, TEAMS, QUESTIONS_PER_PROJECT)


def test_kinds_reach_their_minimum_counts(data):
    kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
    assert kinds["unanswerable"] and kinds["cross-project"]


def test_every_team_has_questions_without_an_answer(data):
    for team in TEAMS:
        mine = [q for q in data["questions"] if q["project"] == team]
        silent = [q for q in mine if not q["relevant"]]
        assert len(silent) / len(mine) >= NO_ANSWER_SHARE, team


def test_reversals_label_a_pair_per_team(data):
    check_reversal_pairs_per_team(data, TEAMS, MIN_PER_KIND["reversal"], 8)


def test_the_ledger_holds_enough_reversals_per_team(data, records):
    """Every labelled pair is two decisions of one team, and each team has at least 8 of them."""
    pairs = reversal_pairs(data["questions"])
    assert len(pairs) >= 24
    for earlier, newest in pairs:
        assert records[earlier]["project"] == records[newest]["project"]
    per_team = Counter(records[newest]["project"] for _, newest in pairs)
    assert all(per_team[team] >= 8 for team in TEAMS), per_team


def test_cross_language_goes_both_ways_and_mixes_scripts(data):
    check_cross_language_both_ways(data, 10)


def test_every_answerable_question_names_the_option_it_recalls(data):
    """`chosen` is the label of the option the leader's answer corresponds to, or null when no
    single option is that answer; questions with two leaders have null; questions without a
    relevant decision have no `chosen` or null."""
    for q in data["questions"]:
        labels = [opt["label"] for opt in q["options"]]
        leaders = [rid for rid, g in q["relevant"].items() if g == 2]
        if q["kind"] in NO_ANSWER_KINDS or not q["relevant"]:
            assert q.get("chosen") is None, q["id"]
            continue
        assert "chosen" in q, q["id"]
        assert q["chosen"] is None or q["chosen"] in labels, (q["id"], q["chosen"])
        if len(leaders) >= 2:
            assert q["chosen"] is None, q["id"]
    named = [q for q in data["questions"] if q.get("chosen") is not None]
    assert len(named) >= 90


def test_no_question_text_repeats_a_recorded_question_or_an_earlier_set(data, records,
                                                                        earlier_sets):
    """Compared as normalised sets; inject5's held-out questions are loaded only for this."""
    others = []
    for set_records, set_data in earlier_sets:
        others.append({normalised(q["question"]) for q in set_data["questions"]})
        others.append({normalised(rec["question"]) for rec in set_records.values()})
    check_no_repeated_question_text(data, records, *others)
