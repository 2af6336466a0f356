"""judgment-ledger.sh recall: a JSON array (max 3) of similar_past_decisions items."""
import json

import pytest

from ledger_helpers import hermetic_env, ledger, rec, write_records

from judgment_toolkit.judgment import recall, schema


@pytest.fixture
def env(tmp_path):
    return hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")


def run_recall(env, question, project="demo"):
    r = ledger("recall", "--project", project, "--question", question, env=env)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.endswith("\n") and r.stdout.count("\n") == 1
    return json.loads(r.stdout)


def test_item_shape(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [
        rec(1, question="Pick the queue", answer="postgres", rationale="fewer services",
            decided_at="2026-02-03T04:05:06Z"),
    ])
    assert run_recall(env, "queue") == [{
        "summary": "Pick the queue", "decision": "postgres", "outcome": "fewer services",
        "decided_at": "2026-02-03T04:05:06Z", "mem_id": "judgment-ledger:id-1"}]


def test_empty_rationale_is_recorded(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="queue", rationale="")])
    assert run_recall(env, "queue")[0]["outcome"] == "recorded"


@pytest.mark.parametrize("length,expected", [(119, 119), (120, 120), (121, 120), (500, 120)])
def test_summary_is_cut_at_120_characters(env, length, expected):
    question = "queue " + "é" * (length - 6)
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question=question)])
    summary = run_recall(env, "queue")[0]["summary"]
    assert len(summary) == expected
    if length > 120:
        assert summary == question[:117] + "..."
    else:
        assert summary == question


def test_at_most_3_best_first_and_project_scoped(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"],
                  [rec(n, question="queue choice", decided_at=f"2026-01-0{n}T00:00:00Z") for n in range(1, 6)]
                  + [rec(9, project="other", question="queue choice", decided_at="2027-01-01T00:00:00Z")])
    got = run_recall(env, "queue choice")
    assert [i["mem_id"] for i in got] == ["judgment-ledger:id-5", "judgment-ledger:id-4",
                                          "judgment-ledger:id-3"]


def test_nothing_matches_is_an_empty_array(env):
    assert run_recall(env, "queue") == []
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(1, question="other topic")])
    assert run_recall(env, "queue") == []
    assert run_recall(env, "other topic", project="nobody") == []


def test_items_validate_as_card_similar_past_decisions(env):
    write_records(env["HARNESS_JUDGMENT_LEDGER"], [rec(n, question="q " + "x" * 200) for n in range(3)])
    items = run_recall(env, "q")
    item_schema = schema.load(schema.CARD)["properties"]["similar_past_decisions"]
    assert len(items) == item_schema["maxItems"] == 3
    import jsonschema
    jsonschema.Draft7Validator(item_schema).validate(items)


def test_merge_replaces_and_keeps_key_order():
    card = {"question": "q", "similar_past_decisions": [{"old": 1}], "impact": "i"}
    merged = recall.merge(card, [])
    assert list(merged) == ["question", "similar_past_decisions", "impact"]
    assert merged["similar_past_decisions"] == [] and card["similar_past_decisions"] == [{"old": 1}]
    assert list(recall.merge({"question": "q"}, [1])) == ["question", "similar_past_decisions"]


def test_usage_errors(env):
    r = ledger("recall", "--project", "demo", env=env)
    assert (r.returncode, r.stderr) == (64, "judgment-ledger: recall: question: missing --question\n")
    r = ledger("recall", "--project", "demo", "--question", "q", "--limit", "2", env=env)
    assert (r.returncode, r.stderr) == (64, "judgment-ledger: recall: --limit: unknown flag\n")
