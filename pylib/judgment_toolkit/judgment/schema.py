"""The JSON Schemas shipped in the package (templates/schemas), loaded once
through deps.packaged_text (MissingResource when absent), with cached draft-07 validators.

Only the paths that validate import this module (it imports jsonschema).
"""
import functools
import json

import jsonschema

from .deps import packaged_text

LEDGER = "judgment-ledger.v1"
CARD = "judgment-card.v1"


@functools.lru_cache(maxsize=None)
def load(name):
    return json.loads(packaged_text("schema", "schemas", f"{name}.json"))


@functools.lru_cache(maxsize=None)
def validator(name):
    schema = load(name)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def errors(name, instance):
    """Every violation of schema `name`, sorted by JSON path then message."""
    found = validator(name).iter_errors(instance)
    return sorted(found, key=lambda e: (list(map(str, e.absolute_path)), e.message))
