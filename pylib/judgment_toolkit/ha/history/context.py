"""Open a goal's history for add or for the views: repository, goal, run chain, store.

Refusals, in this order: invalid_input (not in a git worktree, no such goal folder),
not_started (no valid start line), history_unsupported (start rules
this ha does not know; add and views alike), run_record_broken (add only: a view of a broken
chain whose line 1 is intact opens normally and its lineage becomes unverifiable).
"""
from __future__ import annotations

import os

from judgment_toolkit.ha import gitrepo, goal as goalmod, runs
from judgment_toolkit.ha.errors import USAGE, HaError
from judgment_toolkit.ha.history.errors import HistoryError
from judgment_toolkit.ha.history.store.store import Store, locate


class HistoryContext:
    def __init__(self, repo, goal, chain, start_key: str, store: Store, rules: str):
        self.repo = repo
        self.goal = goal
        self.chain = chain
        self.start_key = start_key
        self.store = store
        self.rules = rules


def open_history(goal_arg: str, *, for_write: bool, cwd: str | None = None) -> HistoryContext:
    try:
        repo = gitrepo.discover(cwd)
        goal = goalmod.resolve(repo, goal_arg, cwd)
    except HaError as exc:
        if exc.exit_code != USAGE:
            raise
        raise HistoryError("invalid_input", exc.message) from None
    try:
        run = runs.open_started(goal, intact=False)
    except HaError as exc:
        if exc.code != "not_started":
            raise HistoryError("history_unsupported", exc.message) from None
        raise HistoryError("not_started", _not_started(goal)) from None
    if for_write and not run.chain.ok:
        raise HistoryError("run_record_broken", f"{run.chain.error}; nothing was added")
    return HistoryContext(repo, goal, run.chain, run.start_key, locate(repo, run.start_key),
                          run.rules)


def _not_started(goal) -> str:
    if goal.has_spec() or os.path.lexists(goal.runs_path):
        return f"{goal.path} has no valid start record (run `ha start {goal.path}` first)"
    return (f"{goal.path} is not a goal folder: it has no SPEC.md and no run record. A goal "
            f"folder holds SPEC.md (its acceptance criteria) and PLAN.md (its checks and "
            f"tasks): `ha new {goal.path}` writes both from the templates, then commit them "
            f"and run `ha start {goal.path} --request QUOTE`")
