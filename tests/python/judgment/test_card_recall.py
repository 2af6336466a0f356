"""judgment-card.sh recall CARD --project P."""
import copy
import json

from ledger_helpers import CARD, card, hermetic_env, rec, write_card, write_records

from judgment_toolkit.judgment import schema


def run(tmp_path, path, project="demo"):
    env = hermetic_env(tmp_path, HARNESS_JUDGMENT_LEDGER=tmp_path / "l.jsonl")
    return card("recall", path, "--project", project, env=env)


def test_fills_similar_past_decisions_and_still_validates(tmp_path):
    write_records(tmp_path / "l.jsonl", [
        rec(n, question="Use Redis or Postgres for the job queue?", answer="postgres",
            decided_at=f"2026-01-0{n}T00:00:00Z") for n in range(1, 6)
    ] + [rec(8, project="other", question="Use Redis or Postgres for the job queue?")])
    path = write_card(tmp_path / "card.json")
    r = run(tmp_path, path)
    assert (r.returncode, r.stderr) == (0, "")
    out = json.loads(r.stdout)
    assert r.stdout == json.dumps(out, ensure_ascii=False, indent=2) + "\n"  # pretty JSON
    assert [i["mem_id"] for i in out["similar_past_decisions"]] == [
        "judgment-ledger:id-5", "judgment-ledger:id-4", "judgment-ledger:id-3"]
    assert {k: v for k, v in out.items() if k != "similar_past_decisions"} == CARD
    schema.validator(schema.CARD).validate(out)


def test_replaces_existing_items_and_gives_an_empty_array_when_nothing_matches(tmp_path):
    old = [{"summary": "s", "decision": "d", "outcome": "o", "decided_at": "t", "mem_id": "m"}]
    path = write_card(tmp_path / "card.json", similar_past_decisions=old)
    r = run(tmp_path, path)
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["similar_past_decisions"] == []
    assert list(out) == list(CARD) + ["similar_past_decisions"]


def test_long_questions_keep_the_result_valid(tmp_path):
    q = "queue " + "x" * 300
    write_records(tmp_path / "l.jsonl", [rec(1, question=q)])
    path = write_card(tmp_path / "card.json", question=q)
    out = json.loads(run(tmp_path, path).stdout)
    assert out["similar_past_decisions"][0]["summary"] == q[:117] + "..."
    schema.validator(schema.CARD).validate(out)


def test_invalid_card_and_usage(tmp_path):
    bad = copy.deepcopy(CARD)
    del bad["impact"]
    path = write_card(tmp_path / "card.json", card=bad)
    r = run(tmp_path, path)
    assert r.returncode == 1 and "$: 'impact' is a required property" in r.stderr and r.stdout == ""
    r = card("recall", path, env=hermetic_env(tmp_path))
    assert r.returncode == 64 and "missing --project" in r.stderr
