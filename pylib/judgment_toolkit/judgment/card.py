"""judgment-card.v1: load, validate, the record-answer steps, recall (should-issue is argument
logic only: scripts/judgment-card.sh answers it in Bash)."""
import json
import os
import sys


class CardError(Exception):
    """The card cannot be used; `lines` says why (one violation per line)."""

    def __init__(self, lines):
        super().__init__("\n".join(lines))
        self.lines = lines


def load(path):
    """The parsed card; CardError when the file cannot be read or is not JSON."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise CardError([f"cannot read {path}: {e.strerror or e}"]) from None
    return parse(raw, path)


def parse(raw, path):
    """The card parsed from bytes read from `path` (named in errors); CardError if not JSON."""
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as e:
        raise CardError([f"{path} is not valid JSON: not UTF-8 ({e.reason} at byte {e.start})"]) from None
    except (ValueError, RecursionError) as e:
        raise CardError([f"{path} is not valid JSON: {e}"]) from None


def _no_constant(name):
    raise ValueError(f"{name} is not JSON")


def violations(card):
    """Every schema violation as '<JSON path>: <message>', sorted by path."""
    from . import schema  # jsonschema: should-issue never needs it
    return [f"{e.json_path}: {e.message}" for e in schema.errors(schema.CARD, card)]


def load_valid(path, raw=None):
    """The valid card from `path` (or from `raw`, bytes read from what `path` names)."""
    card = load(path) if raw is None else parse(raw, path)
    problems = violations(card)
    if problems:
        raise CardError([f"{path} is not a valid judgment-card.v1:"] + ["  " + p for p in problems])
    return card


def option_ids(card):
    return [o["id"] for o in card["options"]]


def checkpoint(card, answer, why, project, session, env=None):
    """Post the answer to harness-mem when it is configured (fail-open: a failure is one
    `record skipped (unreachable)` line on stderr). Returns "recorded" | "unreachable" |
    "not_configured"."""
    from . import mem
    env = os.environ if env is None else env
    if not mem.configured(env):
        return "not_configured"
    if mem.post(mem.payload(card, answer, why, project, session, env), env):
        return "recorded"
    print("judgment-card: record skipped (unreachable)", file=sys.stderr, flush=True)
    return "unreachable"


def ledger_fields(card, answer, why, project, path):
    """The ledger record of an answered card, as `judgment-ledger append` fields."""
    return {"project": project, "question": card["question"], "answer": answer,
            "rationale": why, "card_ref": path, "tags": "judgment-card"}


def recall(card, project, path=None, mode="match"):
    """The card with similar_past_decisions replaced by the ledger's recall for its question
    (ranked by `mode`, see search.RECALL_MODES; "answers" weighs its option labels too)."""
    from . import ledger, recall as recall_mod
    labels = [o["label"] for o in card.get("options", ()) if isinstance(o, dict)
              and isinstance(o.get("label"), str)]
    items = recall_mod.recall(path or ledger.default_path(), project, card["question"], mode,
                              labels)
    merged = recall_mod.merge(card, items)
    problems = violations(merged)
    if problems:  # cannot happen for a valid card and recall items; checked, not assumed
        raise CardError(["recall result does not validate:"] + ["  " + p for p in problems])
    return merged
