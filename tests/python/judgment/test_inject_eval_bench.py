"""bench/inject_eval.py's counts: where the rule leaves the newest decision of each reversed
question (reversal_outcomes; docs/judgment-ledger.md, "A fifth tuning set: reversals"), on a
small hand-made question file: each outcome is reached by a question made for it."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from ledger_helpers import write_records
from test_inject import TEAM, decision

ROOT = Path(__file__).resolve().parents[3]
sys.path.append(str(ROOT / "bench"))  # after site-packages: bench/mcp.py must not hide the SDK

import inject_eval  # noqa: E402

OLD = decision("old", "Use Redis or Postgres for the job queue?", "Redis", at="2025-01-01")
NEW = decision("new", "Move the job queue from Redis to Postgres?", "Postgres", at="2026-01-01")


def question(qid, text, labels, newest, relevant):
    return {"id": qid, "split": "t", "project": "shop", "kind": "reversal", "question": text,
            "header": "Q", "options": [{"label": label, "description": label} for label in labels],
            "multiSelect": False, "relevant": relevant, "newest": newest}


QUEUE = "Which job queue do we run now: Redis or Postgres?"


def on_queue(qid, newest, relevant):
    """A question on the queue, which OLD and NEW answer, labelled as given."""
    return question(qid, QUEUE, ["Redis", "Postgres"], newest, relevant)


@pytest.fixture
def ledger(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_records(path, TEAM + [OLD, NEW])
    return path


def test_each_outcome_is_counted_where_the_newest_went(tmp_path, ledger):
    questions = [
        on_queue("q1", "new", {"new": 2, "old": 1}),
        # labelled as if the dark-mode decision had reversed the queue: it is never weighed
        on_queue("q2", "darkmode", {"darkmode": 2, "old": 1}),
        question("q3", "Should the settings page be a modal?", ["Modal", "Route"],
                 "darkmode", {"darkmode": 2}),
        question("q4", "Which job queue?", ["Redis", "Postgres"], None, {"new": 2}),
        # labelled the other way round: the one labelled newest is shown as the earlier one
        on_queue("q5", "old", {"old": 2, "new": 1}),
        # "queue" (postgres, as "new" answered) is weighed and joins the topic unshown
        on_queue("q6", "queue", {"queue": 2, "old": 1}),
    ]
    data = {"ledger": "ledger.jsonl", "grades": {}, "questions": questions}
    path = tmp_path / "questions.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    _, loaded = inject_eval.load(path)
    found = inject_eval.reversal_outcomes(ledger, loaded)
    assert list(found) == list(inject_eval.OUTCOMES)
    assert found["the newest leads"] == 1  # q1
    assert found["an earlier one shown alone, the newest no candidate"] == 1  # q2: "old" shown
    assert found["neither shown, the newest no candidate"] == 1  # q3
    assert found["the newest shown as an earlier decision"] == 1  # q5
    assert found["an earlier one shown alone, the newest a candidate"] == 1  # q6
    assert sum(found.values()) == 5  # q4 names no newest
    printed = subprocess.run([sys.executable, str(ROOT / "bench" / "inject_eval.py"),
                              "--questions", str(path)], capture_output=True, text=True, check=True)
    assert ("the newest decision of each reversed question: the newest leads 1, "
            in printed.stdout), printed.stdout


def test_paths_count_each_decision_shown_by_the_test_that_let_it_in(tmp_path, ledger):
    """bench/inject_eval.py --paths (docs/judgment-ledger.md, "Calibration and evaluation"):
    each decision shown is counted once under the test of the rule that let it in (the
    explain of inject.answers), wrong when its grade for that question is 0."""
    questions = [
        on_queue("q1", "new", {"new": 2, "old": 1}),
        on_queue("q2", None, {"darkmode": 2}),  # the same decisions shown, as if neither answered
        question("q3", "Should the settings page be a modal?", ["Modal", "Route"], None, {}),
    ]
    explain = {}
    shown = inject_eval.inject.answers(str(ledger), "shop", QUEUE, ["Redis", "Postgres"],
                                       header="Q", explain=explain)
    assert {r["id"] for a in shown for r in [a["record"], *a["earlier"]]} == set(explain) == {
        "new", "old"}
    assert set(explain.values()) <= set(inject_eval.inject.ADMITTED) | {
        "joined: " + why for why in inject_eval.inject.JOINED}
    path = tmp_path / "questions.json"
    path.write_text(json.dumps({"ledger": "ledger.jsonl", "grades": {}, "questions": questions}),
                    encoding="utf-8")
    _, loaded = inject_eval.load(path)
    found = inject_eval.paths(ledger, loaded)
    expected = {}
    for why in explain.values():  # q1 and q2 show the same two decisions, right then wrong
        expected.setdefault(why, [0, 0])
        expected[why][0] += 2
        expected[why][1] += 1
    assert found == expected
    printed = subprocess.run([sys.executable, str(ROOT / "bench" / "inject_eval.py"),
                              "--questions", str(path), "--paths"], capture_output=True, text=True,
                             check=True)
    assert "the decisions shown by the test that let them in (shown, wrong): " in printed.stdout
