"""judgment-card.v1: load, validate, should-issue, record-answer, recall."""
import json
import os
import subprocess
import sys
from pathlib import Path

from . import ledger, mem, recall as recall_mod, schema

ISSUE_REASONS = ("dod-ambiguous", "scope-exceeded", "tradeoff")
LEDGER_SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "judgment-ledger.sh"


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
        return f"HARD_STOP: floor ({floor_category})", 2
    if reason in ISSUE_REASONS:
        return "ISSUE_CARD", 0
    return "NO_CARD: reason not in enum", 1


def option_ids(card):
    return [o["id"] for o in card["options"]]


RECORD_SKIPPED = "judgment-card: record skipped (unreachable)"


def record_answer(path, card, answer, why, project, session, env=None, err=None):
    """Checkpoint to harness-mem when configured, then append to the ledger through
    judgment-ledger.sh append. Both are fail-open: a failure is one stderr line, never an error."""
    env = os.environ if env is None else env
    err = err or sys.stderr
    if mem.configured(env) and not mem.post(mem.payload(card, answer, why, project, session, env), env):
        print(RECORD_SKIPPED, file=err, flush=True)
    problem = append_to_ledger(path, card, answer, why, project)
    if problem:
        print(problem, file=err, flush=True)


def append_to_ledger(path, card, answer, why, project):
    """Run judgment-ledger.sh append (its stderr passes through); fail-open."""
    argv = ["bash", str(LEDGER_SCRIPT), "append", "--project", project,
            "--question", card["question"], "--answer", answer, "--rationale", why,
            "--card-ref", path, "--tags", "judgment-card"]
    try:
        subprocess.run(argv, stdin=subprocess.DEVNULL, check=False)
    except OSError as e:
        return f"judgment-ledger: append skipped (cannot run {LEDGER_SCRIPT}: {e.strerror or e})"
    except ValueError as e:  # a NUL or a lone surrogate (valid in JSON) cannot be an argument
        return f"judgment-ledger: append skipped (the card cannot be passed as arguments: {e})"
    return None


def recall(card, project, path=None):
    """The card with similar_past_decisions replaced by the ledger's recall for its question."""
    items = recall_mod.recall(path or ledger.default_path(), project, card["question"])
    merged = recall_mod.merge(card, items)
    problems = violations(merged)
    if problems:  # cannot happen for a valid card and recall items; checked, not assumed
        raise CardError(["recall result does not validate:"] + ["  " + p for p in problems])
    return merged
