"""Checks shared by the tests of bench/eval/inject's question files (dev, blind, tune) and of
the tuning sets of new teams (inject3, inject4): each file has the same format and the same
promises (bench/eval/inject/README.md), so each check is written once here and every file's
test calls it. They check data only, never a ranker's output.

(A plain module, not conftest, so it cannot shadow the shared tests/python/conftest.py.)
"""
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

from judgment_toolkit.judgment import ledger, schema

SET = Path(__file__).resolve().parents[3] / "bench" / "eval" / "inject"
KINDS = {"paraphrase", "near-duplicate", "korean", "cross-language", "reversal", "distractor",
         "unanswerable", "cross-project", "multi-question"}
NO_ANSWER_KINDS = {"unanswerable", "cross-project"}
HANGUL = re.compile("[\uac00-\ud7a3]")
LATIN = re.compile("[A-Za-z]")


def korean(text):
    return bool(HANGUL.search(text))


def normalised(text):
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def load_ledger():
    lines = (SET / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def load_split(name):
    return json.loads((SET / f"{name}.json").read_text(encoding="utf-8"))


def question_texts(name):
    """The normalised question texts of one file, for the no-shared-text checks."""
    return {normalised(q["question"]) for q in load_split(name)["questions"]}


def check_top_level(data):
    assert set(data) == {"ledger", "grades", "questions"}
    assert data["ledger"] == "ledger.jsonl"
    assert set(data["grades"]) == {"0", "1", "2"}


def check_ids_and_split(name, data, min_questions):
    ids = [q["id"] for q in data["questions"]]
    assert len(ids) >= min_questions
    assert len(set(ids)) == len(ids)
    for q in data["questions"]:
        assert q["split"] == name, q["id"]
        assert q["kind"] in KINDS, q["id"]


def check_askuserquestion_shape(data):
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


def check_labels_name_decisions_of_the_project(data, records):
    for q in data["questions"]:
        for rid, grade in q["relevant"].items():
            assert rid in records, (q["id"], rid)
            assert records[rid]["project"] == q["project"], (q["id"], rid)
            assert type(grade) is int and grade in (1, 2), (q["id"], rid, grade)


def check_earlier_decisions_have_a_newest(data, records):
    """Grade 1 marks an earlier decision on the same question; the newest (grade 2) leads."""
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


def check_kinds_agree_with_labels_and_languages(data, records):
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


def check_cross_project_questions(data):
    """Their topic is decided in another team's ledger: never relevant, recall is project-scoped."""
    crossing = [q for q in data["questions"] if q["kind"] == "cross-project"]
    assert len(crossing) >= 4
    for q in crossing:
        assert q["relevant"] == {}, q["id"]


def reversal_pairs(questions):
    """The distinct (earlier, newest) decision pairs the questions label."""
    return {(rid, q["newest"]) for q in questions if "newest" in q
            for rid, g in q["relevant"].items() if g == 1}


def check_readme_counts(data):
    questions = data["questions"]
    kinds = Counter(q["kind"] for q in questions)
    no_answer = sum(1 for q in questions if not q["relevant"])
    assert no_answer / len(questions) >= 0.30, (no_answer, len(questions))
    assert kinds["cross-language"] >= 10, kinds
    pairs = reversal_pairs(questions)
    assert len(pairs) >= 12, pairs
    assert sum(korean(q["question"]) for q in questions) / len(questions) >= 0.25
    assert any(q["multiSelect"] for q in questions)
    for project in {q["project"] for q in questions}:
        mine = [q for q in questions if q["project"] == project]
        assert any(not q["relevant"] for q in mine), project
        assert any(q["relevant"] for q in mine), project


def check_question_file(name, data, records, min_questions):
    """Every check a question file of the injection sets passes (the format of dev.json)."""
    check_top_level(data)
    check_ids_and_split(name, data, min_questions)
    check_askuserquestion_shape(data)
    check_labels_name_decisions_of_the_project(data, records)
    check_earlier_decisions_have_a_newest(data, records)
    check_kinds_agree_with_labels_and_languages(data, records)
    check_cross_project_questions(data)
    check_readme_counts(data)


def check_sequential_ids(data, prefix):
    ids = [q["id"] for q in data["questions"]]
    assert ids == [f"{prefix}{i:03d}" for i in range(1, len(ids) + 1)]


def check_kind_minimums(data, min_per_kind, no_answer_share):
    """Each kind reaches its minimum count, and enough questions have no relevant decision."""
    kinds = Counter(q["kind"] for q in data["questions"])
    for kind, least in min_per_kind.items():
        assert kinds[kind] >= least, (kind, kinds[kind])
    no_answer = sum(1 for q in data["questions"] if not q["relevant"])
    assert no_answer / len(data["questions"]) >= no_answer_share, no_answer
    return kinds


# --- the tuning sets of new teams (bench/eval/inject3, inject4): a ledger of their own -------

FIELDS = ["id", "project", "decided_at", "question", "answer", "rationale", "card_ref", "tags"]


def read_set(folder, questions="tune.json"):
    """(the ledger's lines, {id: record}, the question file) of a set with its own ledger."""
    lines = (folder / "ledger.jsonl").read_text(encoding="utf-8").splitlines()
    records = {rec["id"]: rec for rec in map(json.loads, lines)}
    data = json.loads((folder / questions).read_text(encoding="utf-8"))
    return lines, records, data


def check_written_as_append_writes(lines):
    """Every line a valid judgment-ledger.v1 record, compact, in the schema's field order;
    ids unique."""
    ids = []
    for line in lines:
        rec = json.loads(line)
        assert list(schema.errors("judgment-ledger.v1", rec)) == [], rec["id"]
        assert list(rec) == FIELDS, rec["id"]
        assert line == json.dumps(rec, ensure_ascii=False, separators=(",", ":")), rec["id"]
        ids.append(rec["id"])
    assert len(set(ids)) == len(ids)


def check_new_teams_in_time_order(records, teams, other_teams, per_team, earlier_projects):
    """The set's teams are `teams`, none of another set's (`other_teams`, and the projects of
    the earlier ledgers), each with per_team (least, most) decisions, dated 2025-01 to 2026-10
    in time order."""
    found = list(records.values())
    counts = Counter(rec["project"] for rec in found)
    assert set(counts) == teams
    assert teams.isdisjoint(other_teams)
    assert teams.isdisjoint(earlier_projects)
    for team, count in counts.items():
        assert per_team[0] <= count <= per_team[1], (team, count)
    times = [ledger.time_key(rec["decided_at"]) for rec in found]
    assert times == sorted(times)
    assert all("2025-01" <= rec["decided_at"][:7] <= "2026-10" for rec in found)


def check_about_half_korean(records):
    """40-60% of the recorded questions in Korean, some of them mixed-script."""
    asked = [rec["question"] for rec in records.values()]
    ko = [text for text in asked if korean(text)]
    assert 0.4 <= len(ko) / len(asked) <= 0.6, len(ko)
    assert any(any(c.isascii() and c.isalpha() for c in text) for text in ko)


def check_questions_per_team(data, teams, per_team):
    counts = Counter(q["project"] for q in data["questions"])
    assert set(counts) == teams
    for project, count in counts.items():
        assert per_team[0] <= count <= per_team[1], (project, count)


def check_reversal_pairs_per_team(data, teams, least, least_per_team):
    """The reversal questions label at least `least` pairs, least_per_team of each team."""
    reversals = [q for q in data["questions"] if q["kind"] == "reversal"]
    assert len(reversal_pairs(reversals)) >= least
    for team in teams:
        pairs = reversal_pairs(q for q in reversals if q["project"] == team)
        assert len(pairs) >= least_per_team, team


def check_cross_language_both_ways(data, least_each):
    """Cross-language questions asked in Korean and in English, least_each at least; some of
    the Korean ones mixed-script, not all."""
    crossing = [q for q in data["questions"] if q["kind"] == "cross-language"]
    ko_asks = [q for q in crossing if korean(q["question"])]
    en_asks = [q for q in crossing if not korean(q["question"])]
    assert len(ko_asks) >= least_each and len(en_asks) >= least_each
    mixed = [q for q in ko_asks if any(c.isascii() and c.isalpha() for c in q["question"])]
    assert mixed and len(mixed) < len(ko_asks)


def check_no_repeated_question_text(data, records, *others):
    """No two questions of the set alike, none like a recorded question (its own ledger's or
    the first set's), a question of the first set's dev and tune files, or any of `others`
    (normalised texts); compared as normalised sets, no held-out file loaded."""
    mine = {normalised(q["question"]) for q in data["questions"]}
    assert len(mine) == len(data["questions"])
    recorded = {normalised(rec["question"]) for rec in records.values()}
    recorded |= {normalised(rec["question"]) for rec in load_ledger()}
    assert mine.isdisjoint(recorded)
    assert mine.isdisjoint(question_texts("dev"))
    assert mine.isdisjoint(question_texts("tune"))
    for texts in others:
        assert mine.isdisjoint(texts)
