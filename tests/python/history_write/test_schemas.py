"""templates/schemas/decision-*.json document what add really writes and prints."""
import json

import jsonschema

from conftest import ROOT, git
from helpers_write import add, events, receipt, started  # noqa: F401

SCHEMAS = ROOT / "templates" / "schemas"


def _validator(name):
    schema = json.loads((SCHEMAS / name).read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def test_real_events_and_receipts_match_the_schemas(started):
    head = git(started, "rev-parse", "HEAD").stdout.strip()
    receipts = [
        receipt(add(started, "--kind", "원인", "--status", "가설", "--summary", "s",
                    "--target", "AC-1", "--ref", "run:2", "--checked-ref", "file:src/count.go",
                    "--ref", f"commit:{head[:8]}", "--ref", "commit:abcdef1@elsewhere",
                    "--ref", "external:https://x.invalid", "--ref", "file:nope",
                    "--reason", "a\nb", "--event-at", "2026-01-01T00:00:00+09:00")),
        receipt(add(started, "--kind", "결정", "--summary", "d", "--builds-on", "D1",
                    "--supersedes", "D1", "--request-id", "d-1")),
        receipt(add(started, "--kind", "결정", "--summary", "d", "--builds-on", "D1",
                    "--supersedes", "D1", "--request-id", "d-1")),
    ]
    ev_v, rc_v = _validator("decision-history-v1.json"), _validator("decision-receipt-v1.json")
    for r in receipts:
        rc_v.validate(r)
    for ev in events(started):
        ev_v.validate(ev)
    states = [o["state"] for o in events(started)[0]["context"]["evidence"]]
    assert states == ["matched", "found", "other_repository", "not_checked", "missing", "read"]


def test_the_event_schema_rejects_what_the_store_rejects():
    v = _validator("decision-history-v1.json")
    bad = {"schema": "decision-history/v1", "id": "D1", "seq": 1, "prev": None,
           "request_id": "r", "at": "2026-01-01T00:00:00Z",
           "decision": {"kind": "관측", "status": "가설", "summary": "x"},
           "context": {"start": "0" * 64, "run_head": {"seq": 1, "sha256": "0" * 64},
                       "goal": "g", "commit": None, "tree_clean": True,
                       "spec_digest": "0" * 64, "evidence": []}}
    assert not v.is_valid(bad)
    del bad["decision"]["status"]
    assert v.is_valid(bad)
