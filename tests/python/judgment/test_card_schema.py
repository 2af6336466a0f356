"""The two schemas: draft-07, their $id, additionalProperties false throughout, the card's shape."""
import copy

import jsonschema
import pytest

from ledger_helpers import CARD

from judgment_toolkit.judgment import schema


def objects(node):
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield node
        for value in node.values():
            yield from objects(value)
    elif isinstance(node, list):
        for value in node:
            yield from objects(value)


@pytest.mark.parametrize("name", [schema.LEDGER, schema.CARD])
def test_draft_07_with_id_and_closed_objects(name):
    doc = schema.load(name)
    assert doc["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert name in doc["$id"]
    jsonschema.Draft7Validator.check_schema(doc)
    found = list(objects(doc))
    assert found and all(o.get("additionalProperties") is False for o in found)


def test_ledger_schema_fields():
    doc = schema.load(schema.LEDGER)
    assert doc["required"] == ["id", "project", "decided_at", "question", "answer", "rationale",
                               "card_ref", "tags"]
    assert list(doc["properties"]) == doc["required"]
    v = schema.validator(schema.LEDGER)
    good = {"id": "i", "project": "p", "decided_at": "2026-01-01T00:00:00Z", "question": "q",
            "answer": "a", "rationale": "", "card_ref": "c", "tags": []}
    v.validate(good)
    for field in ("id", "project", "question", "answer", "card_ref", "decided_at"):
        assert not v.is_valid(dict(good, **{field: ""})), field
    assert not v.is_valid(dict(good, tags=[""]))
    assert not v.is_valid(dict(good, extra=1))
    assert v.is_valid(dict(good, decided_at="2026-01-01T00:00:00.123+09:00"))


def valid(card):
    return schema.validator(schema.CARD).is_valid(card)


def test_card_shape():
    assert valid(CARD)
    three = copy.deepcopy(CARD)
    three["options"].append({"id": "sqlite", "label": "SQLite", "consequence": "single node"})
    assert valid(three)
    four = copy.deepcopy(three)
    four["options"].append({"id": "x", "label": "x", "consequence": "x"})
    assert not valid(four)
    assert not valid(dict(CARD, options=CARD["options"][:1]))
    for level in ("high", "medium", "low"):
        assert valid(dict(CARD, confidence=level))
    assert not valid(dict(CARD, confidence="certain"))
    for required in ("question", "options", "recommendation", "confidence", "impact", "diff_summary"):
        assert not valid({k: v for k, v in CARD.items() if k != required}), required
    opt = dict(CARD["options"][0], extra=1)
    assert not valid(dict(CARD, options=[opt, CARD["options"][1]]))


def test_card_optional_fields():
    assert valid(dict(CARD, impact_score=0)) and valid(dict(CARD, impact_score=100))
    assert not valid(dict(CARD, impact_score=101)) and not valid(dict(CARD, impact_score=-1))
    item = {"summary": "s", "decision": "d", "outcome": "o", "decided_at": "t", "mem_id": "m"}
    assert valid(dict(CARD, similar_past_decisions=[]))
    assert valid(dict(CARD, similar_past_decisions=[item] * 3))
    assert not valid(dict(CARD, similar_past_decisions=[item] * 4))
    assert not valid(dict(CARD, similar_past_decisions=[dict(item, extra=1)]))
    assert not valid(dict(CARD, similar_past_decisions=[dict(item, summary="x" * 121)]))
    assert not valid(dict(CARD, unknown=1))
