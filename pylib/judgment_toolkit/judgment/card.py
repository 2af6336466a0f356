"""judgment-card.v1: load, validate, should-issue, record-answer, recall."""
import json
import os
import sys

from . import exits

ISSUE_REASONS = ("dod-ambiguous", "scope-exceeded", "tradeoff")


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


def should_issue(reason, floor_category=None):
    """(stdout line, exit code)."""
    if floor_category:
        return f"HARD_STOP: floor ({floor_category})", exits.HARD_STOP
    if reason in ISSUE_REASONS:
        return "ISSUE_CARD", exits.OK
    return "NO_CARD: reason not in enum", exits.NO_CARD


def option_ids(card):
    return [o["id"] for o in card["options"]]


RECORD_SKIPPED = "judgment-card: record skipped (unreachable)"


def record_answer(path, card, answer, why, project, session, env=None, err=None):
    """Checkpoint to harness-mem when configured, then append to the ledger in-process through
    the ledger command's own append (appending.append_fail_open). Both are fail-open: a failure
    is one stderr line, never an error. Returns {"ledger": the stored record or None,
    "harness_mem": "recorded" | "unreachable" | "not_configured"}."""
    from . import appending, mem
    env = os.environ if env is None else env
    err = err or sys.stderr
    outcome = "not_configured"
    if mem.configured(env):
        outcome = "recorded" if mem.post(mem.payload(card, answer, why, project, session, env),
                                         env) else "unreachable"
        if outcome == "unreachable":
            print(RECORD_SKIPPED, file=err, flush=True)
    given = {"project": project, "question": card["question"], "answer": answer,
             "rationale": why, "card_ref": path, "tags": "judgment-card"}
    _, rec = appending.append_fail_open(given, err=err)
    return {"ledger": rec, "harness_mem": outcome}


def recall(card, project, path=None, mode="match"):
    """The card with similar_past_decisions replaced by the ledger's recall for its question
    (ranked by `mode`, see search.MODES)."""
    from . import ledger, recall as recall_mod
    items = recall_mod.recall(path or ledger.default_path(), project, card["question"], mode)
    merged = recall_mod.merge(card, items)
    problems = violations(merged)
    if problems:  # cannot happen for a valid card and recall items; checked, not assumed
        raise CardError(["recall result does not validate:"] + ["  " + p for p in problems])
    return merged
