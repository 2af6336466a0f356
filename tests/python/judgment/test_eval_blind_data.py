"""bench/eval/blind.json (a held-out evaluation written blind to the ranker) is
well-formed: same format as questions.json, every labelled id a storefront decision of
bench/eval/ledger.jsonl, grades 1 or 2, split "blind", known kinds, at least 36 questions."""
import json
import re
from pathlib import Path

import pytest

EVAL = Path(__file__).resolve().parents[3] / "bench" / "eval"
KINDS = {"paraphrase", "near-duplicate", "korean", "stopwords", "unanswerable"}


@pytest.fixture(scope="module")
def blind():
    return json.loads((EVAL / "blind.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def ledger_projects():
    projects = {}
    for line in (EVAL / "ledger.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            rec = json.loads(line)
            projects[rec["id"]] = rec["project"]
    return projects


def test_top_level_has_the_questions_json_fields(blind):
    assert set(blind) == {"project", "grades", "split", "questions"}
    assert blind["project"] == "storefront"
    assert set(blind["grades"]) == {"0", "1", "2"}


def test_at_least_36_questions_with_unique_sequential_ids(blind):
    ids = [q["id"] for q in blind["questions"]]
    assert len(ids) >= 36
    assert len(set(ids)) == len(ids)
    assert ids == [f"b{n:02d}" for n in range(1, len(ids) + 1)]


def test_every_question_is_blind_of_a_known_kind_and_nonempty(blind):
    for q in blind["questions"]:
        assert set(q) == {"id", "split", "kind", "question", "relevant"}, q["id"]
        assert q["split"] == "blind", q["id"]
        assert q["kind"] in KINDS, q["id"]
        assert isinstance(q["question"], str) and q["question"].strip(), q["id"]
        assert isinstance(q["relevant"], dict), q["id"]


def test_labels_name_storefront_decisions_with_grade_1_or_2(blind, ledger_projects):
    for q in blind["questions"]:
        for rid, grade in q["relevant"].items():
            assert ledger_projects.get(rid) == "storefront", (q["id"], rid)
            assert grade in (1, 2) and type(grade) is int, (q["id"], rid, grade)


def test_kinds_match_their_labels(blind):
    hangul = re.compile("[\uac00-\ud7a3]")
    for q in blind["questions"]:
        if q["kind"] == "unanswerable":
            assert q["relevant"] == {}, q["id"]
        if q["kind"] in ("paraphrase", "near-duplicate", "korean"):
            assert 2 in q["relevant"].values(), q["id"]
        if q["kind"] == "korean":
            assert hangul.search(q["question"]), q["id"]


def test_every_kind_is_present(blind):
    assert {q["kind"] for q in blind["questions"]} == KINDS
