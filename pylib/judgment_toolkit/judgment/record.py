"""judgment-ledger.v1 records: built from append flags, validated, serialized as one line.

The schema file is the single source of the fields, their order and which are required: a
record is built from what was given plus the defaults below, and whatever the schema rejects
(a missing required flag included) is reported by field.
"""
import uuid

from judgment_toolkit.jsonutil import compact_bytes, utc_now

from .args import flag_name

# Fields the caller may give; the others have defaults or are generated.
FLAGS = ("project", "question", "answer", "card_ref", "rationale", "tags", "id")


class RecordError(Exception):
    """The record is invalid; `problems` is a list of (field, message)."""

    def __init__(self, problems):
        super().__init__("; ".join(f"{f}: {m}" for f, m in problems))
        self.problems = problems


def split_tags(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def build(given, now=None):
    """A validated record (dict in schema order) from {field: flag value}; RecordError if invalid."""
    values = {
        "id": str(uuid.uuid4()),
        "decided_at": now or utc_now(),
        "rationale": "",
        "tags": [],
    }
    for field, value in given.items():
        values[field] = split_tags(value) if field == "tags" else value
    from . import schema  # jsonschema: only the paths that validate pay for it
    problems = [(f, "not valid UTF-8") for f, v in values.items() if not _is_utf8(v)]
    if problems:
        raise RecordError(problems)
    order = list(schema.load(schema.LEDGER)["properties"])
    record = {k: values[k] for k in order if k in values}
    record.update((k, v) for k, v in values.items() if k not in record)
    validate(record)
    return record


def validate(record):
    from . import schema
    problems = []
    for error in schema.errors(schema.LEDGER, record):
        if error.validator == "required":
            for field in error.validator_value:
                if field not in error.instance and (field, _missing(field)) not in problems:
                    problems.append((field, _missing(field)))
            continue
        path = list(error.absolute_path)
        field = str(path[0]) if path else "record"
        message = "must not be empty" if error.validator == "minLength" else error.message
        problems.append((field, message))
    if problems:
        raise RecordError(problems)


def to_line(record):
    """One compact JSON line, UTF-8 unescaped, LF-terminated."""
    return compact_bytes(record) + b"\n"


def _missing(field):
    return f"missing {flag_name(field)}" if field in FLAGS else "missing"


def _is_utf8(value):
    items = value if isinstance(value, list) else [value]
    try:
        for item in items:
            item.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
