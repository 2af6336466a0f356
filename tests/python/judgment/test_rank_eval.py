"""Ranking quality on the labelled evaluation set (bench/eval/, scored by bench/rank_eval.py):
on the held-out questions, the relevance mode beats the match mode. Quality, not time."""
import sys

from ledger_helpers import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import rank_eval  # noqa: E402


def test_the_evaluation_set_is_what_the_docs_say():
    data = rank_eval.load()
    questions = data["questions"]
    assert len(questions) >= 40
    decisions = [line for line in rank_eval.LEDGER.read_text(encoding="utf-8").splitlines()
                 if '"project":"storefront"' in line]
    assert len(decisions) >= 80
    assert {q["split"] for q in questions} == {"dev", "test"}
    assert all(q["split"] == ("dev" if int(q["id"][1:]) % 2 else "test") for q in questions)
    assert all(set(q["relevant"].values()) <= {1, 2} for q in questions)
    kinds = {q["kind"] for q in questions}
    assert {"paraphrase", "near-duplicate", "korean", "stopwords", "unanswerable"} <= kinds


def test_relevance_beats_match_on_the_held_out_questions():
    data = rank_eval.load()
    match = rank_eval.evaluate("match", "test", data)
    relevance = rank_eval.evaluate("relevance", "test", data)
    assert relevance["p@3"] > match["p@3"]
    assert relevance["ndcg@3"] > match["ndcg@3"]
    assert relevance["success@3"] > match["success@3"]
    assert relevance["p@3"] <= relevance["ideal p@3"]


def test_metrics_of_one_question():
    # found d1 (grade 2), d9 (0), d2 (1) of relevant {d1: 2, d2: 1, d3: 1}
    p, ideal, ndcg, success = rank_eval.scores(["d1", "d9", "d2"], {"d1": 2, "d2": 1, "d3": 1})
    assert (p, ideal, success) == (2 / 3, 1.0, 1.0)
    assert abs(ndcg - (3 + 1 / 2) / (3 + 1 / 1.584962500721156 + 1 / 2)) < 1e-9
    assert rank_eval.scores([], {"d1": 1}) == (0.0, 1 / 3, 0.0, 0.0)
