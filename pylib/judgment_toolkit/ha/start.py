"""`ha start`: write the start line (line 1) of a goal's run record."""
from __future__ import annotations

import sys

from . import runs
from .errors import error


def start(goal, quote: str, rules: str = runs.DEFAULT_RULES, warn=None) -> runs.Appended:
    if rules not in runs.SUPPORTED_RULES:
        raise error("unsupported_rules", f"unsupported run rules {rules!r} (supported: "
                    f"{', '.join(runs.SUPPORTED_RULES)})")
    if not quote.strip():
        raise error("usage", "--request: the quote must not be empty")
    if not goal.has_spec():
        raise error("goal_invalid", f"{goal.path}/SPEC.md: not found; a goal needs a SPEC.md")
    goal.ids()  # a malformed goal is refused before anything is recorded
    base = goal.repo.head()
    if base is None:
        raise error("no_commit",
                    "the repository has no commit yet; commit the goal before ha start")

    def refuse_if_started(chain):
        if chain.start is not None:
            runs.require_rules(chain.start)  # a record this ha cannot read: 66
        if chain.raw:
            what = "has a start line" if chain.start is not None else "is not empty"
            raise error("already_started", f"already started: {goal.path}/runs.jsonl {what} "
                        f"(head seq {chain.head['seq']})")

    # The cheap checks run first (and again under the lock, in `append`), so a started goal is
    # refused without running git status.
    chain = runs.read_chain(goal)
    if chain.start is not None:
        runs.require_rules(chain.start)
    if not chain.ok:
        raise runs.integrity_error(chain)
    refuse_if_started(chain)
    now = runs.snapshot(goal, rules)
    if not now.tree_clean:
        (warn or _warn)("worktree has changes outside the goal's documents and run bundle; "
                        "recording tree_clean:false")
    fields = {"goal": goal.path, "base_commit": base, "tree_clean": now.tree_clean,
              "spec_digest": now.spec_digest,
              "request": {"source": "conversation", "quote": quote}, "rules": rules}
    return runs.append(goal, "start", fields, check=refuse_if_started)


def _warn(message):
    print(f"ha: warning: {message}", file=sys.stderr)
