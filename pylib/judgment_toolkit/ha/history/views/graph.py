"""`ha history <goal> graph [--target ID]... [--keyword WORD]... [--since CURSOR]
[--format mermaid|md|json | --json]`: the history as Mermaid `flowchart` source, or as its
nodes and edges in JSON (`as_json`).

One node per event of the `list` view (same range, filters, since, lineage and supersede
meaning: the graph is drawn from the list view model, views.listing, so it cannot disagree with
it), labelled with its id, kind, status and a shortened summary. One edge per `builds_on`
(solid arrow, labelled builds_on) and per `supersedes` relation (dotted red arrow, labelled
supersedes), from the later event to the earlier one, between events both drawn; relations to
events left out by the filters are counted in a comment. Superseded events (same lineage) are
drawn dashed and grey with "superseded by ..." in their label; events of another lineage are
marked too. `--format md` wraps the source in a ```mermaid fence. Every text from the store is
escaped for Mermaid (entity codes), so no summary can end a label, add a node or inject HTML.
"""
from __future__ import annotations

import re

from judgment_toolkit.cliargs import HELP_FLAGS, HelpRequested
from judgment_toolkit.output import dumps
from judgment_toolkit.ha.history.cliopts import json_format
from judgment_toolkit.ha.history.errors import HistoryError, invalid_input

SUMMARY_MAX = 48
FORMATS = ("mermaid", "md", "json")
SCHEMA = "decision-history-graph/v1"
STYLES = (
    "classDef current fill:#eef6ee,stroke:#3b7d4a,color:#1d2430",
    "classDef superseded fill:#f1f1f1,stroke:#999999,stroke-dasharray:5 4,color:#6b6b6b",
    "classDef other fill:#fff6e0,stroke:#c99a2e,color:#1d2430",
)
SUPERSEDES_LINK = "stroke:#b03a2e,stroke-width:2px"
_SPACE = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029]+")
# Characters that mean something to Mermaid's flowchart grammar, to its HTML labels or to
# Markdown fences; each is written as a Mermaid entity code (#<decimal>;).
_SPECIAL = re.compile(r'["#&<>`|\[\]{}()\\%;]')


def run(goal_arg: str, argv, cwd: str | None = None) -> str:
    from judgment_toolkit.ha.history.views import viewcli, viewrun, views
    if any(a in HELP_FLAGS for a in argv):
        raise HelpRequested("ha history graph")
    fmt, rest = _take_format(argv)
    for name in ("--page", "--limit", "--request-id"):
        if any(a == name or a.startswith(name + "=") for a in rest):
            raise invalid_input(f"history graph: {name} is not an option of graph "
                                "(it draws every event in range)")
    try:  # the options of `list`, named as graph's in errors
        args = viewcli.Args(["list", *rest])
    except HistoryError as exc:
        raise HistoryError(exc.code, exc.message.replace("history list", "history graph", 1)) \
            from None
    inp, _ = viewrun.view_input(goal_arg, args, cwd)
    if isinstance(inp, dict):
        if fmt == "json":
            return dumps({"schema": SCHEMA, "history": "absent", "goal": inp["goal"]}) + "\n"
        return "history: absent\n"
    inp.limit = max(1, inp.facts.end)  # every event in range: one page
    store = inp.store
    inp.store = capture = _BuildsOn(store)
    try:
        model = views.listing(inp)
        builds_on = {item["id"]: capture.of(inp.facts.location(item["seq"])[0])
                     for item in model["events"]}
    finally:
        viewrun.release(inp.facts, store)
    if fmt == "json":
        return dumps(as_json(model, builds_on)) + "\n"
    source = mermaid(model, builds_on)
    return f"```mermaid\n{source}```\n" if fmt == "md" else source


def _take_format(argv):
    """(format, the other arguments); `--json` is `--format json` (cliopts.json_format)."""
    fmt, rest, it = None, [], iter(argv)
    switches = set()
    for arg in it:
        name, eq, value = arg.partition("=")
        if arg == "--json":
            switches.add(arg)
        elif name == "--format":
            if fmt is not None:
                raise invalid_input("history graph: --format given twice")
            if not eq:
                value = next(it, None)
                if value is None:
                    raise invalid_input("history graph: --format needs a value")
            fmt = value
        else:
            rest.append(arg)
    return json_format(fmt, switches, "history graph", FORMATS, default="mermaid"), rest


class _BuildsOn:
    """The store as the view model reads it, keeping each read event's builds_on ids (the list
    model leaves them out), so every event is read once."""

    def __init__(self, store):
        self._store, self._ids = store, {}

    def __getattr__(self, name):
        return getattr(self._store, name)

    def read_at(self, offset: int, length: int) -> dict:
        ev = self._store.read_at(offset, length)
        ids = ((ev.get("decision") or {}).get("builds_on") or []) if isinstance(ev, dict) else []
        self._ids[offset] = [i for i in ids if isinstance(i, str)]
        return ev

    def of(self, offset: int) -> list:
        return self._ids.get(offset, [])


def label_text(text, limit: int = SUMMARY_MAX) -> str:
    """One line, shortened to `limit` characters, every special character an entity code."""
    text = _SPACE.sub(" ", "" if text is None else str(text)).strip()
    if len(text) > limit:
        text = text[:limit - 1].rstrip() + "…"
    text = _SPECIAL.sub(lambda m: f"#{ord(m.group())};", text)
    # In a label with line breaks Mermaid reads a backslash before `n` as one more break, even
    # spelled as an entity: a word joiner (invisible) keeps the two characters apart.
    return text.replace("#92;n", "#92;#8288;n")


def _edges(events, builds_on: dict):
    """([(from, relation, to)], how many relations point outside the drawn events): builds_on
    edges first, then supersedes, each in event order; the Mermaid and JSON forms share it."""
    drawn = {item["id"] for item in events}
    edges, omitted = [], 0
    for relation in ("builds_on", "supersedes"):
        for item in events:
            targets = builds_on.get(item["id"], []) if relation == "builds_on" \
                else item["supersedes"]
            for target in targets:
                if target in drawn:
                    edges.append((item["id"], relation, target))
                else:
                    omitted += 1
    return edges, omitted


NODE_FIELDS = ("id", "seq", "kind", "status", "summary", "lineage", "current", "superseded_by")


def as_json(model: dict, builds_on: dict) -> dict:
    """The graph as data (decision-history-graph/v1, docs/history-graph.md): the nodes with the
    list view's own fields, the edges the picture draws, the relations left out."""
    events = model["events"]
    edges, omitted = _edges(events, builds_on)
    return {"schema": SCHEMA, "history": "present", "goal": model["goal"],
            "nodes": [{k: item[k] for k in NODE_FIELDS} for item in events],
            "edges": [{"from": a, "relation": r, "to": b} for a, r, b in edges],
            "omitted_relations": omitted}


def mermaid(model: dict, builds_on: dict) -> str:
    events = model["events"]
    lines = ["flowchart BT",
             f"  %% ha history graph: {label_text(model['goal'], 200)} · "
             f"{len(events)} event{'s' if len(events) != 1 else ''} · builds_on: solid arrow, supersedes: dotted red arrow"]
    classes = {"current": [], "superseded": [], "other": []}
    for item in events:
        head = f"{item['id']} · {label_text(item['kind'])}"
        if item.get("status"):
            head += f" #91;{label_text(item['status'])}#93;"
        parts = [head, label_text(item["summary"])]
        if item["superseded_by"]:
            parts.append("superseded by " + ", ".join(item["superseded_by"]))
            classes["superseded"].append(item["id"])
        elif item["lineage"] != "same":
            parts.append(f"lineage {item['lineage']}")
            classes["other"].append(item["id"])
        elif item["current"]:
            classes["current"].append(item["id"])
        lines.append(f'  {item["id"]}["{"<br/>".join(parts)}"]')
    edges, omitted = _edges(events, builds_on)
    for source, relation, target in edges:
        arrow = "-->|builds_on|" if relation == "builds_on" else "-.->|supersedes|"
        lines.append(f"  {source} {arrow} {target}")
    if omitted:
        lines.append(f"  %% {omitted} relations to events outside the filters or range "
                     "are not drawn")
    lines += ["  " + style for style in STYLES]
    lines += [f"  class {','.join(ids)} {name}" for name, ids in classes.items() if ids]
    sup = [str(i) for i, e in enumerate(edges) if e[1] == "supersedes"]
    if sup:
        lines.append(f"  linkStyle {','.join(sup)} {SUPERSEDES_LINK}")
    return "\n".join(lines) + "\n"
