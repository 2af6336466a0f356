"""`ha status`: one view model of a goal's state, rendered as Markdown or JSON.

Nothing time-dependent is shown, so the same repository state always prints the same bytes.
"""
from __future__ import annotations

from judgment_toolkit.jsonutil import compact

from . import runs
from .errors import HaError

SCHEMA = "ha-status/v1"


def collect(goal) -> dict:
    chain = runs.read_chain(goal)
    start = chain.start
    rules = runs.require_rules(start) if start is not None else None
    ids_error = None
    ids = {"criteria": [], "optional": [], "extras": [], "tasks": []}
    try:
        got = goal.ids()
        ids = {"criteria": got.criteria, "optional": got.optional, "extras": got.extras,
               "tasks": got.tasks}
    except HaError as err:
        ids_error = err.message
    now = runs.snapshot(goal, rules or runs.DEFAULT_RULES)
    return {
        "schema": SCHEMA,
        "goal": goal.path,
        "started": start is not None,
        "rules": rules,
        "start": None if start is None else {"sha256": runs.start_key(chain),
                                             "base_commit": start.get("base_commit"),
                                             "at": start.get("at")},
        "head": chain.head,
        "commit": now.commit,
        "tree_clean": now.tree_clean,
        "spec_digest": {"now": now.spec_digest,
                        "start": None if start is None else start.get("spec_digest")},
        "ids": ids,
        "ids_error": ids_error,
        "chain": {"ok": chain.ok, "lines": len(chain.raw), "error": chain.error},
    }


def render(view: dict, fmt: str) -> str:
    if fmt == "json":
        return compact(view) + "\n"
    return markdown(view)


def _short(h):
    return h[:12] if h else "none"


def markdown(v: dict) -> str:
    lines = [f"# ha status: {v['goal']}", ""]
    if v["started"]:
        s = v["start"]
        lines.append(f"- started: yes, at {s['at']}, base {_short(s['base_commit'])}, "
                     f"start {_short(s['sha256'])}")
        lines.append(f"- rules: {v['rules']}")
    else:
        lines.append("- started: no")
    head = v["head"]
    lines.append(f"- record head: {'none' if head is None else 'seq %d (%s)' % (head['seq'], _short(head['sha256']))}")
    lines.append(f"- commit: {_short(v['commit'])}")
    lines.append(f"- tree clean: {'yes' if v['tree_clean'] else 'no'}")
    d = v["spec_digest"]
    at_start = ""
    if d["start"] is not None:
        at_start = ", at start " + _short(d["start"]) + \
            (" (unchanged)" if d["start"] == d["now"] else " (changed)")
    lines.append(f"- goal digest: {_short(d['now'])}{at_start}")
    if v["ids_error"]:
        lines.append(f"- ids: error: {v['ids_error']}")
    else:
        ids = v["ids"]
        crit = [c + (" (선택)" if c in ids["optional"] else "") for c in ids["criteria"]]
        lines.append(f"- criteria: {', '.join(crit) or 'none'}")
        lines.append(f"- extras: {', '.join(ids['extras']) or 'none'}")
        lines.append(f"- tasks: {', '.join(ids['tasks']) or 'none'}")
    c = v["chain"]
    lines.append(f"- chain: {'intact' if c['ok'] else 'broken: ' + c['error']}"
                 f" ({c['lines']} verified line{'s' if c['lines'] != 1 else ''})")
    return "\n".join(lines) + "\n"
