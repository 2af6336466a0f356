"""The JSON Schemas in templates/schemas, loaded once, with cached draft-07 validators.

Only the paths that validate import this module (it imports jsonschema).
"""
import functools
import json
from pathlib import Path

import jsonschema

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "templates" / "schemas"
LEDGER = "judgment-ledger.v1"
CARD = "judgment-card.v1"


@functools.lru_cache(maxsize=None)
def load(name):
    with open(SCHEMA_DIR / f"{name}.json", encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def validator(name):
    schema = load(name)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def errors(name, instance):
    """Every violation of schema `name`, sorted by JSON path then message."""
    found = validator(name).iter_errors(instance)
    return sorted(found, key=lambda e: (list(map(str, e.absolute_path)), e.message))
