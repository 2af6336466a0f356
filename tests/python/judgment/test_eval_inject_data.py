"""bench/eval/inject (the labelled set that automatic injection is judged on) is well-formed:
every ledger line a judgment-ledger.v1 record (Judgment Ledger v1, "Record format"), the
questions shaped as Claude Code's AskUserQuestion input, every label naming a decision of the
question's own project (recall is project-scoped), and the mix of kinds the set promises in
bench/eval/inject/README.md ("Counts"). It checks the data only, never a ranker's output."""
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

from judgment_toolkit.judgment import schema

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject"
SPLITS = ("dev", "blind")
MIN_QUESTIONS = {"dev": 80, "blind": 100}
KINDS = {"paraphrase", "near-duplicate", "korean", "cross-language", "reversal", "distractor",
         "unanswerable", "cross-project", "multi-question"}
NO_ANSWER_KINDS = {"unanswerable", "cross-project"}
HANGUL = re.compile("[\uac00-\ud7a3]")
LATIN = re.compile("[A-Za-z]")


def korean(text):
    return bool(HANGUL.search(text))


@pytest.fixture(scope="module")
def ledger():
    lines = (SET / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.fixture(scope="module")
def records(ledger):
    return {rec["id"]: rec for rec in ledger}


@pytest.fixture(scope="module", params=SPLITS)
def split(request):
    data = json.loads((SET / f"{request.param}.json").read_text(encoding="utf-8"))
    return request.param, data


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
    _, data = split
    assert set(data) == {"ledger", "grades", "questions"}
    assert data["ledger"] == "ledger.jsonl"
    assert set(data["grades"]) == {"0", "1", "2"}


def test_question_ids_unique_and_split_marked(split):
    name, data = split
    ids = [q["id"] for q in data["questions"]]
    assert len(ids) >= MIN_QUESTIONS[name]
    assert len(set(ids)) == len(ids)
    for q in data["questions"]:
        assert q["split"] == name, q["id"]
        assert q["kind"] in KINDS, q["id"]


def test_questions_have_the_shape_of_askuserquestion_input(split):
    _, data = split
    for q in data["questions"]:
        assert set(q) - {"newest"} == {"id", "split", "project", "kind", "question", "header",
                                       "options", "multiSelect", "relevant"}, q["id"]
        assert q["question"].strip(), q["id"]
        assert 1 <= len(q["header"]) <= 12, (q["id"], q["header"])
        assert 2 <= len(q["options"]) <= 4, q["id"]
        labels = [opt["label"] for opt in q["options"]]
        assert len(set(labels)) == len(labels), q["id"]
        for opt in q["options"]:
            assert set(opt) == {"label", "description"}, q["id"]
            assert opt["label"].strip() and opt["description"].strip(), q["id"]
        assert type(q["multiSelect"]) is bool, q["id"]


def test_every_label_names_a_decision_of_the_questions_project(split, records):
    _, data = split
    for q in data["questions"]:
        for rid, grade in q["relevant"].items():
            assert rid in records, (q["id"], rid)
            assert records[rid]["project"] == q["project"], (q["id"], rid)
            assert type(grade) is int and grade in (1, 2), (q["id"], rid, grade)


def test_an_earlier_decision_always_has_a_newer_one_that_leads(split, records):
    """Grade 1 marks an earlier decision on the same question; the newest (grade 2) leads."""
    _, data = split
    for q in data["questions"]:
        earlier = [rid for rid, g in q["relevant"].items() if g == 1]
        if q["kind"] == "reversal":
            assert earlier and "newest" in q, q["id"]
        if not earlier:
            assert "newest" not in q, q["id"]
            continue
        newest = q["newest"]
        assert q["relevant"].get(newest) == 2, q["id"]
        for rid in earlier:
            assert records[rid]["decided_at"] < records[newest]["decided_at"], (q["id"], rid)
            assert records[rid]["answer"] != records[newest]["answer"], (q["id"], rid)


def test_kinds_agree_with_their_labels_and_languages(split, records):
    _, data = split
    for q in data["questions"]:
        leaders = [rid for rid, g in q["relevant"].items() if g == 2]
        if q["kind"] in NO_ANSWER_KINDS:
            assert q["relevant"] == {}, q["id"]
        else:
            assert leaders, q["id"]
        if q["kind"] == "multi-question":
            assert len(leaders) >= 2, q["id"]
        if q["kind"] == "korean":
            assert korean(q["question"]), q["id"]
            assert all(korean(records[rid]["question"]) for rid in leaders), q["id"]
        if q["kind"] == "cross-language":
            for rid in leaders:
                assert korean(q["question"]) != korean(records[rid]["question"]), (q["id"], rid)


def test_cross_project_questions_are_answered_only_in_another_project(split, records):
    """Their topic is decided in another team's ledger: never relevant, recall is project-scoped."""
    _, data = split
    crossing = [q for q in data["questions"] if q["kind"] == "cross-project"]
    assert len(crossing) >= 4
    for q in crossing:
        assert q["relevant"] == {}, q["id"]


def test_counts_promised_by_the_readme_hold(split):
    _, data = split
    questions = data["questions"]
    kinds = Counter(q["kind"] for q in questions)
    no_answer = sum(1 for q in questions if not q["relevant"])
    assert no_answer / len(questions) >= 0.30, (no_answer, len(questions))
    assert kinds["cross-language"] >= 10, kinds
    pairs = {(rid, q["newest"]) for q in questions if "newest" in q
             for rid, g in q["relevant"].items() if g == 1}
    assert len(pairs) >= 12, pairs
    assert sum(korean(q["question"]) for q in questions) / len(questions) >= 0.25
    assert any(q["multiSelect"] for q in questions)
    for project in {q["project"] for q in questions}:
        mine = [q for q in questions if q["project"] == project]
        assert any(not q["relevant"] for q in mine), project
        assert any(q["relevant"] for q in mine), project


def normalised(text):
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def test_dev_and_blind_share_no_question_text():
    texts = {}
    for name in SPLITS:
        data = json.loads((SET / f"{name}.json").read_text(encoding="utf-8"))
        texts[name] = {normalised(q["question"]) for q in data["questions"]}
    assert texts["dev"].isdisjoint(texts["blind"]), texts["dev"] & texts["blind"]


def test_no_question_repeats_a_recorded_question_word_for_word(records):
    recorded = {normalised(rec["question"]) for rec in records.values()}
    for name in SPLITS:
        data = json.loads((SET / f"{name}.json").read_text(encoding="utf-8"))
        for q in data["questions"]:
            assert normalised(q["question"]) not in recorded, (name, q["id"])
