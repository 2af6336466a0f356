"""`ha check`: run the commands PLAN.md's `## 조건표` declares and record one check line each.

Each command runs without a shell from the worktree's top level, stdin closed, stdout and
stderr together into a log under `<git-dir>/ha/runs/<goal-key>/`. The command runs outside the
lock; only placing its log as `<seq>.log` and appending the line happen under it, so parallel
checks in one worktree never wait for each other's commands. SIGTERM, SIGHUP or SIGINT stop
the running command's whole process group (procgroup.py); its line is recorded (`exit` null,
`result` error), the remaining targets are not run, and procgroup.Interrupted reaches the caller.
"""
from __future__ import annotations

import hashlib
import os
import time

from . import ids as ids_grammar, plan as planmod, procgroup, runs, safefs
from .errors import error

DEFAULT_TIMEOUT = 600.0


class Target:
    def __init__(self, label, target, row):
        self.label = label      # what the result line names: AC-1, EX-2, T001#1
        self.target = target    # the record's target object
        self.row = row          # plan.ConditionRow
        self.argv = None


def select(goal, wanted):
    """The targets to run for `wanted` ids (all runnable 조건표 rows when empty)."""
    ids = goal.ids()
    plan = ids.plan
    if not ids.plan_found:
        raise error("target_refused",
                    f"{goal.path}/PLAN.md: not found; ha check runs the commands of its "
                    f"## 조건표 table. Create it with `ha new {goal.path}` (writes the missing "
                    "PLAN.md from the template, keeps existing files), then fill in the table")
    targets = []
    if not wanted:
        for row in plan.conditions:
            if row.runnable:
                targets.append(Target(row.id, {"criterion": row.id}, row))
        if not targets:
            raise error("target_refused",
                        f"{goal.path}/PLAN.md: ## 조건표 declares no runnable rows (a table "
                        f"with columns exactly '{' | '.join(planmod.CONDITION_COLUMNS)}' and "
                        "change or maintain rows)")
    for wid in dict.fromkeys(wanted):
        if not ids_grammar.TARGET.match(wid):
            raise error("usage", f"{wid!r} is not a target id ({ids_grammar.GRAMMAR})")
        if wid.startswith("T"):
            if wid not in ids.tasks:
                raise error("target_refused", f"{wid}: not in {goal.path}/PLAN.md ## Task")
            rows = [r for r in plan.rows_for_task(wid) if r.runnable]
            if not rows:
                raise error("target_refused",
                            f"{wid}: no runnable ## 조건표 row names this task")
            for index, row in enumerate(rows, 1):
                targets.append(Target(f"{wid}#{index}", {"task": wid, "index": index}, row))
            continue
        if wid.startswith("AC-") and wid not in ids.criteria:
            raise error("target_refused",
                        f"{wid}: not an acceptance criterion in {goal.path}/SPEC.md")
        row = plan.condition(wid)
        if row is None:
            raise error("target_refused", f"{wid}: no row in {goal.path}/PLAN.md ## 조건표")
        if not row.runnable:
            raise error("target_refused",
                        f"{wid}: a manual row ({row.note}); ha check cannot run it")
        targets.append(Target(wid, {"criterion": wid}, row))
    for t in targets:
        t.argv = t.row.argv()
    return targets


def log_dir(goal) -> str:
    return os.path.join(goal.repo.git_dir, "ha", "runs", goal.key)


def check(goal, wanted, timeout=DEFAULT_TIMEOUT, report=None):
    """Run and record every selected target; returns the list of appended records."""
    rules = runs.open_started(goal).rules
    targets = select(goal, wanted)
    folder = log_dir(goal)
    try:
        safefs.ensure_dir(folder)
    except safefs.FsError as exc:
        raise error("io_error", f"cannot create {folder}: {exc}") from None
    done = []
    with procgroup.Guard() as guard:
        for n, t in enumerate(targets):
            guard.raise_pending()  # a signal between two targets: the rest is not run
            if n:
                goal.refresh()
            done.append(_run_one(goal, rules, t, folder, timeout, guard))
            if report:
                report(t, done[-1])
        guard.raise_pending()  # after the interrupted target's line is recorded
    return done


def _run_one(goal, rules, t, folder, timeout, guard):
    now = runs.snapshot(goal, rules)
    tmp = os.path.join(folder, f".running-{os.getpid()}-{time.monotonic_ns()}.log")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o666)
        try:
            exit_code, duration_ms = procgroup.run(t.argv, goal.repo.toplevel, fd, timeout, guard)
        finally:
            os.close(fd)
        output_digest = _file_sha256(tmp)
        if exit_code is None:
            result = "error"
        else:
            result = "pass" if exit_code == 0 else "fail"

        def place_log(seq):
            os.replace(tmp, os.path.join(folder, f"{seq}.log"))

        def fields(_chain, seq):
            return {"target": t.target, "argv": t.argv,
                    "command_digest": runs.sha256_hex(t.row.command.encode("utf-8")),
                    **now.fields(), "exit": exit_code, "result": result, "duration_ms": duration_ms,
                    "output_digest": output_digest,
                    "output_path": f".git/ha/runs/{goal.key}/{seq}.log"}

        def started(chain):
            if chain.start is None:
                raise error("not_started", f"not started: {goal.path} has no start line")
            runs.require_rules(chain.start)

        return runs.append(goal, "check", fields, check=started, before_write=place_log)
    finally:
        if os.path.lexists(tmp):
            os.unlink(tmp)


def _file_sha256(path):
    """sha256 of a log, read in chunks (a check may print a lot)."""
    h = hashlib.sha256()
    try:
        fd = safefs.open_read(path)
    except safefs.FsError as exc:
        raise error("io_error", f"cannot read the check log {path}: {exc}") from None
    try:
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return h.hexdigest()
            h.update(chunk)
    finally:
        os.close(fd)
