"""The JSON Schemas shipped in the package (judgment_toolkit/templates/schemas), loaded once
through importlib.resources, with cached draft-07 validators.

Only the paths that validate import this module (it imports jsonschema).
"""
import functools
import json
from importlib import resources

import jsonschema

from .deps import MissingResource

SCHEMA_PACKAGE = "judgment_toolkit.templates"
LEDGER = "judgment-ledger.v1"
CARD = "judgment-card.v1"


@functools.lru_cache(maxsize=None)
def load(name):
    try:
        resource = resources.files(SCHEMA_PACKAGE).joinpath("schemas", f"{name}.json")
        text = resource.read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError) as e:
        raise MissingResource(f"the packaged schema schemas/{name}.json is missing from "
                              f"{SCHEMA_PACKAGE} ({type(e).__name__}); the installation is "
                              "broken: reinstall judgment-toolkit") from None
    return json.loads(text)


@functools.lru_cache(maxsize=None)
def validator(name):
    schema = load(name)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def errors(name, instance):
    """Every violation of schema `name`, sorted by JSON path then message."""
    found = validator(name).iter_errors(instance)
    return sorted(found, key=lambda e: (list(map(str, e.absolute_path)), e.message))
