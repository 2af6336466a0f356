"""A validity test for judgment-ledger.v1 records, compiled once from the schema file itself, so
that `verify` checks 100k records in a small multiple of the time to parse them
(docs/judgment-ledger.md, "verify").

It answers only valid or not; the reasons of an invalid record still come from the draft-07
validator (schema.errors), so messages are jsonschema's. It understands exactly the keywords
the ledger's schema uses, with draft-07's meaning as jsonschema applies it (a pattern is
re.search, minLength counts code points, `format` is not checked since the validator is built
without a format checker); a schema that uses anything else is refused with None, and verify
then validates with jsonschema alone. tests/python/judgment/test_ledger_verify_fast.py holds
it equal to jsonschema's verdict on the schema's edge cases.
"""
import re

_TYPES = {"string": str, "array": list, "object": dict}
_STRING_KEYS = {"type", "minLength", "pattern", "format", "description"}
_TOP_KEYS = {"$schema", "$id", "title", "description", "type", "additionalProperties",
             "required", "properties"}


def compile_schema(schema):
    """A function record -> bool equal to the draft-07 verdict of `schema`, or None when the
    schema uses something this compiler does not know."""
    if set(schema) - _TOP_KEYS or schema.get("type") != "object" \
            or schema.get("additionalProperties") is not False:
        return None
    props = schema.get("properties", {})
    required = tuple(schema.get("required", ()))
    checks = []
    for name, sub in props.items():
        check = _field(sub)
        if check is None:
            return None
        checks.append((name, check))
    allowed = frozenset(props)

    def valid(rec):
        if type(rec) is not dict or not allowed.issuperset(rec):
            return False
        for name in required:
            if name not in rec:
                return False
        for name, check in checks:
            if name in rec and not check(rec[name]):
                return False
        return True
    return valid


def _field(sub):
    kind = sub.get("type")
    if kind == "string" and set(sub) <= _STRING_KEYS:
        return _string(sub)
    if kind == "array" and set(sub) <= {"type", "items", "description"}:
        items = _string(sub["items"]) if "items" in sub and sub["items"].get("type") == "string" \
            and set(sub["items"]) <= _STRING_KEYS else None
        if "items" in sub and items is None:
            return None
        if items is None:
            return lambda v: type(v) is list
        return lambda v: type(v) is list and all(type(x) is str and items(x) for x in v)
    return None


def _string(sub):
    least = sub.get("minLength", 0)
    pattern = re.compile(sub["pattern"]).search if "pattern" in sub else None
    # jsonschema's "string" is isinstance(str); a JSON parse only ever gives str itself
    if pattern is None:
        return lambda v: type(v) is str and len(v) >= least
    return lambda v: type(v) is str and len(v) >= least and pattern(v) is not None
