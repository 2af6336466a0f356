"""Markdown and JSON of one decision-history-view/v1 model (views.py).

JSON is the model itself, compact, non-ASCII unescaped. Markdown is written from the same dict
and only from it, so both carry the same events and meanings. Markdown shortens hashes Core
computed (start key, run head, commit ids, goal digest, observed versions) to 12 hex digits,
never a value the executor gave (references, external versions, request ids). Text that came
from the repository or the executor and holds control characters (a goal path with a newline,
say) is shown as a quoted JSON string so it cannot break the layout; JSON has the exact value.
"""
from __future__ import annotations

from judgment_toolkit.jsonutil import compact
from judgment_toolkit.output import escape_controls, safe


def render(model: dict, fmt: str) -> str:
    if fmt == "json":
        return compact(model) + "\n"
    return markdown(model)


def markdown(m: dict) -> str:
    if m["history"] == "absent":
        return "history: absent\n"
    if m["view"] == "show":
        return _show(m)
    return _listing(m)


# -- pieces ------------------------------------------------------------------------------
def short(h) -> str:
    return h[:12] if h else "none"


def _ids(ids) -> str:
    return ",".join(ids)


def _head(head) -> str:
    return "none" if head is None else f"seq {head['seq']} ({short(head['sha256'])})"


def _kind(item: dict) -> str:
    status = item.get("status")
    return safe(item.get("kind")) + (f" [{safe(status)}]" if status else "")


def _context_marks(ctx: dict) -> list:
    out = []
    if ctx["code"] != "same":
        out.append(f"code {ctx['code']}")
    if ctx["spec"] != "same":
        out.append(f"spec {ctx['spec']}")
    if ctx["path"] != "same":
        out.append(f"path {ctx['path']}")
    return out


def _marks(item: dict, view: str) -> list:
    """The markers of an event line; `current` shows only what is not implied by the view."""
    out = []
    if view == "list":
        if item["lineage"] != "same":
            out.append(f"lineage {item['lineage']}")
        elif item["current"]:
            out.append("current")
    if item["superseded_by"]:
        out.append(f"superseded by {_ids(item['superseded_by'])}")
    if view != "current" and item["supersedes"]:
        out.append(f"corrects {_ids(item['supersedes'])}")
    if item["other_corrected_by"]:
        out.append(f"corrected in another lineage by {_ids(item['other_corrected_by'])}")
    for g in item["grounds_corrected"]:
        out.append(f"linked grounds {g['ground']} corrected by {_ids(g['corrected_by'])}")
    out.extend(_context_marks(item["context"]))
    return out


def _event_line(item: dict, view: str) -> str:
    parts = [item["id"], _kind(item)]
    if item["targets"]:
        parts.append(", ".join(safe(t) for t in item["targets"]))
    parts.append(safe(item["summary"]))
    marks = _marks(item, view)
    return "- " + " · ".join(parts) + (f" ({', '.join(marks)})" if marks else "")


def _related_line(rel: dict, label: str) -> str:
    marks = [f"lineage {rel['lineage']}"] + (["current"] if rel["current"] else [])
    return (f"- {label} · {_kind(rel)} · {safe(rel['summary'])} ({', '.join(marks)})")


def _preamble(m: dict, title: str) -> list:
    lines = [f"# ha history: {safe(m['goal'])} · {title}", ""]
    basis = m["basis"]
    rng = m["range"]
    span = (f"D{rng['since'] + 1}..D{rng['end']} (since D{rng['since']})"
            if rng["since"] is not None else f"D1..D{rng['end']}")
    if rng["end"] == 0 or (rng["since"] is not None and rng["since"] >= rng["end"]):
        span = "no events" + (f" since D{rng['since']}" if rng["since"] is not None else "")
    head = (_head(basis["run_head"]) if basis["chain"] == "ok"
            else "unverifiable (run record chain broken)")
    lines.append(f"- range: {span} · run head {head}")
    q = m["query"]
    filters = [f"target {safe(t)}" for t in q["targets"]]
    filters += [f"keyword {safe(k)}" for k in q["keywords"]]
    if filters:
        lines.append("- filters: " + " · ".join(filters))
    return lines


def _footer(m: dict) -> list:
    p = m["page"]
    what = "successors shown" if m["view"] == "show" else "shown"
    lines = ["", f"{what} {p['shown']} of {p['total']}"
             + (f" · replacements {p['replacements_shown']} of {p['replacements_total']}"
                if "replacements_total" in p else "")
             + (" · truncated" if p["truncated"] else "")]
    if p["next"]:
        lines.append(f"next: {p['next']}")
    lines.append(f"cursor: {m['cursor']}")
    return lines


# -- current / list ------------------------------------------------------------------------
def _listing(m: dict) -> str:
    view = m["view"]
    lines = _preamble(m, view)
    lines.append("")
    if m["events"]:
        lines += [_event_line(item, view) for item in m["events"]]
    else:
        lines.append("no " + ("current " if view == "current" else "") + "events")
    if m["range"]["since"] is not None:
        lines += ["", "replacements:"]
        lines += [f"- replacement: {r['replaced']} → {r['by']}" for r in m["replacements"]] \
            or ["- none"]
    if view == "current":
        other, corr = m["other_lineage"], m["other_corrections"]
        if other["count"]:
            shown = ", ".join(f"{e['id']} {e['lineage']}" for e in other["events"])
            more = f", … {other['count'] - len(other['events'])} more" if other["truncated"] else ""
            lines += ["", f"other lineage: {other['count']} (different {other['different']}, "
                          f"unverifiable {other['unverifiable']}): {shown}{more}"]
        if corr["count"]:
            lines.append(f"other corrections: {corr['count']} (not applied)")
            lines += [f"- {c['id']} ({c['lineage']}) corrects {_ids(c['supersedes'])}"
                      for c in corr["events"]]
            if corr["truncated"]:
                lines.append(f"- … {corr['count'] - len(corr['events'])} more")
    return "\n".join(lines + _footer(m)) + "\n"


# -- show ------------------------------------------------------------------------------------
def _ref(ref: dict) -> str:
    t = ref.get("type")
    if t == "run":
        text = f"run:{ref['seq']}" + (f":{ref['sha256']}" if "sha256" in ref else "")
    elif t == "file":
        text = f"file:{ref['path']}" + (f"#{ref['section']}" if "section" in ref else "")
    elif t == "commit":
        text = f"commit:{ref['commit']}" + (f"@{ref['repository']}" if "repository" in ref
                                            else "")
    else:
        text = f"external:{ref.get('ref')}"
    parts = [safe(text)]
    if t == "external" and "version" in ref:
        parts.append(f"version {safe(ref['version'])}")
    if ref.get("checked"):
        parts.append("checked")
    return " · ".join(parts)


def _observed(obs: dict) -> str:
    state = safe(obs.get("state"))
    value = obs.get("version") or obs.get("commit")
    return state + (f" ({short(value)})" if value else "")


def _show(m: dict) -> str:
    ev = m["event"]
    d, ctx = ev.get("decision") or {}, ev.get("context") or {}
    lines = _preamble(m, f"show {ev['id']}")
    head = {"id": ev["id"], "kind": d.get("kind"), "status": d.get("status")}
    title = [ev["id"], _kind(head)]
    if d.get("targets"):
        title.append(", ".join(safe(t) for t in d["targets"]))
    title.append(safe(d.get("summary")))
    lines += ["", "## " + " · ".join(title)]
    lines.append(f"- lineage: {m['lineage']} · " + ("current" if m["current"] else "not current"))
    marks = _marks({**m, "targets": []}, "show")
    if marks:
        lines.append("- markers: " + ", ".join(marks))
    lines.append(f"- request_id: {safe(ev.get('request_id'))}")
    lines.append(f"- at: {safe(ev.get('at'))}")
    if "event_at" in d:
        lines.append(f"- event_at: {safe(d['event_at'])}")
    if "reason" in d:
        lines += ["", "reason:"]
        lines += ["> " + escape_controls(line) for line in str(d["reason"]).split("\n")]
    lines += ["", "evidence:"]
    lines += [f"- {_ref(e['ref'])} · registered {_observed(e['registered'])} · now {e['current']}"
              for e in m["evidence"]] or ["- none"]
    diff = m["context"]
    rh = ctx.get("run_head")
    lines += ["", "context:",
              f"- start: {short(ctx.get('start'))}",
              f"- run head: {_head(rh) if isinstance(rh, dict) else 'none'} · lineage {m['lineage']}",
              f"- goal: {safe(ctx.get('goal'))} · path {diff['path']}",
              f"- commit: {short(ctx.get('commit'))} · "
              f"{'tree clean' if ctx.get('tree_clean') else 'tree not clean'} · code {diff['code']}",
              f"- goal digest: {short(ctx.get('spec_digest'))} · spec {diff['spec']}"]
    lines += ["", "predecessors:"]
    lines += [_related_line(p, f"{p['relation']} {p['id']}"
                            + (f" after {p['after']}" if p.get("after") else ""))
              for p in m["predecessors"]] or ["- none"]
    lines += ["", "successors:"]
    names = {"builds_on": "built_on_by", "supersedes": "superseded_by"}
    lines += [_related_line(s, "+".join(names[r] for r in s["relations"]) + f" {s['id']}")
              for s in m["successors"]] or ["- none"]
    return "\n".join(lines + _footer(m)) + "\n"
