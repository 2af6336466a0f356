"""The second blind set's ledger (bench/eval/inject2/README.md): Judgment Ledger v1,
"Record Format": every line a valid judgment-ledger.v1 record; ids unique; three teams that the
first set never names; decisions in time order, as append writes them."""
import json
from pathlib import Path

from judgment_toolkit.judgment import ledger, schema

ROOT = Path(__file__).resolve().parents[3]
LEDGER = ROOT / "bench" / "eval" / "inject2" / "ledger.jsonl"
FIRST = ROOT / "bench" / "eval" / "inject" / "ledger.jsonl"


def records(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_every_line_is_a_valid_record_with_a_unique_id():
    found = records(LEDGER)
    assert len(found) >= 150
    for rec in found:
        assert list(schema.errors("judgment-ledger.v1", rec)) == [], rec["id"]
    assert len({rec["id"] for rec in found}) == len(found)


def test_three_new_teams_in_time_order():
    found = records(LEDGER)
    projects = {rec["project"] for rec in found}
    assert len(projects) == 3
    assert projects.isdisjoint(rec["project"] for rec in records(FIRST))
    times = [ledger.time_key(rec["decided_at"]) for rec in found]
    assert times == sorted(times)
