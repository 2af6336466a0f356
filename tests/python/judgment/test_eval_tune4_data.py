"""bench/eval/inject4, the fourth tuning set (three teams no other set names), keeps the
format and the promises of bench/eval/inject4/README.md: a Judgment Ledger v1 file written as
append writes it, and questions that pass every check the first set's files pass
(eval_inject_checks). It checks the data only, never a ranker's output."""
import json
from collections import Counter
from pathlib import Path

import pytest

from eval_inject_checks import (check_kind_minimums, check_question_file, check_sequential_ids,
                                korean, load_ledger, load_split, normalised, question_texts,
                                reversal_pairs)
from judgment_toolkit.judgment import ledger, schema

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject4"
NAME = "tune4"
FIELDS = ["id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags"]
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


def third_set_lines():
    return (THIRD / "ledger.jsonl").read_text(encoding="utf-8").splitlines()


def third_set_questions():
    data = json.loads((THIRD / "tune.json").read_text(encoding="utf-8"))
    return {normalised(q["question"]) for q in data["questions"]}


@pytest.fixture(scope="module")
def lines():
    return (SET / "ledger.jsonl").read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def records(lines):
    return {rec["id"]: rec for rec in map(json.loads, lines)}


@pytest.fixture(scope="module")
def data():
    return json.loads((SET / "tune.json").read_text(encoding="utf-8"))


def test_every_line_is_a_valid_record_written_as_append_writes_it(lines):
    ids = []
    for line in lines:
        rec = json.loads(line)
        assert list(schema.errors("judgment-ledger.v1", rec)) == [], rec["id"]
        assert list(rec) == FIELDS, rec["id"]
        assert line == json.dumps(rec, ensure_ascii=False, separators=(",", ":")), rec["id"]
        ids.append(rec["id"])
    assert len(set(ids)) == len(ids)


def test_three_new_teams_in_time_order(records):
    found = list(records.values())
    per_team = Counter(rec["project"] for rec in found)
    assert set(per_team) == TEAMS
    assert TEAMS.isdisjoint(OTHER_TEAMS)
    assert TEAMS.isdisjoint(rec["project"] for rec in load_ledger())
    assert TEAMS.isdisjoint(json.loads(line)["project"] for line in third_set_lines())
    for team, count in per_team.items():
        assert DECISIONS_PER_TEAM[0] <= count <= DECISIONS_PER_TEAM[1], (team, count)
    times = [ledger.time_key(rec["decided_at"]) for rec in found]
    assert times == sorted(times)
    assert all("2025-01" <= rec["decided_at"][:7] <= "2026-10" for rec in found)


def test_about_half_of_the_recorded_questions_are_korean(records):
    asked = [rec["question"] for rec in records.values()]
    ko = [text for text in asked if korean(text)]
    assert 0.4 <= len(ko) / len(asked) <= 0.6, len(ko)
    assert any(any(c.isascii() and c.isalpha() for c in text) for text in ko)


def test_format_is_the_one_of_the_first_set(data, records):
    check_question_file(NAME, data, records, 85)


def test_grades_are_the_ones_dev_defines(data):
    assert data["grades"] == load_split("dev")["grades"]


def test_ids_are_sequential(data):
    check_sequential_ids(data, "t4q")


def test_every_team_has_its_share_of_questions(data):
    per_project = Counter(q["project"] for q in data["questions"])
    assert set(per_project) == TEAMS
    for project, count in per_project.items():
        assert QUESTIONS_PER_PROJECT[0] <= count <= QUESTIONS_PER_PROJECT[1], (project, count)


def test_kinds_reach_their_minimum_counts(data):
    kinds = check_kind_minimums(data, MIN_PER_KIND, NO_ANSWER_SHARE)
    assert kinds["unanswerable"] and kinds["cross-project"]


def test_reversals_label_a_pair_per_team(data):
    reversals = [q for q in data["questions"] if q["kind"] == "reversal"]
    assert len(reversal_pairs(reversals)) >= MIN_PER_KIND["reversal"]
    for team in TEAMS:
        assert len(reversal_pairs(q for q in reversals if q["project"] == team)) >= 7, team


def test_the_ledger_holds_enough_reversals_per_team(data, records):
    """Every labelled pair is two decisions of one team, and each team has at least 7 of them."""
    pairs = reversal_pairs(data["questions"])
    assert len(pairs) >= 24
    for earlier, newest in pairs:
        assert records[earlier]["project"] == records[newest]["project"]
    per_team = Counter(records[newest]["project"] for _, newest in pairs)
    assert all(per_team[team] >= 7 for team in TEAMS), per_team


def test_cross_language_goes_both_ways_and_mixes_scripts(data):
    crossing = [q for q in data["questions"] if q["kind"] == "cross-language"]
    ko_asks = [q for q in crossing if korean(q["question"])]
    en_asks = [q for q in crossing if not korean(q["question"])]
    assert len(ko_asks) >= 8 and len(en_asks) >= 8
    mixed = [q for q in ko_asks if any(c.isascii() and c.isalpha() for c in q["question"])]
    assert mixed and len(mixed) < len(ko_asks)


def test_no_question_text_repeats_a_recorded_question_or_an_earlier_set(data, records):
    """Compared as normalised sets; no held-out file is ever loaded."""
    mine = {normalised(q["question"]) for q in data["questions"]}
    assert len(mine) == len(data["questions"])
    recorded = {normalised(rec["question"]) for rec in records.values()}
    recorded |= {normalised(rec["question"]) for rec in load_ledger()}
    assert mine.isdisjoint(recorded)
    assert mine.isdisjoint(question_texts("dev"))
    assert mine.isdisjoint(question_texts("tune"))
    assert mine.isdisjoint(third_set_questions())
    assert mine.isdisjoint(normalised(json.loads(line)["question"]) for line in third_set_lines())
