"""`judgment-card render`: a judgment-card.v1 card as Markdown (default) or as one static HTML page.

The HTML page is self-contained: the template (templates/card.html) holds the
only style, there is no script and no URL, a Content-Security-Policy forbids loading anything,
and every text taken from the card is HTML-escaped, so a field holding `<script>` or
`<img onerror=...>` shows as that text. Markdown escapes `<` so that a viewer that renders
Markdown to HTML shows such fields as text too.

A card cites decision-history events by writing `ha-history:<goal>#D<n>` in any of its texts
(the goal path without white space or `#`); both formats list the cited events with the
command that shows each.
"""
import html
import re
from string import Template

from .deps import packaged_text
from ..output import safe

TEMPLATE = "card.html"
HISTORY_REF = re.compile(r"ha-history:([^\s#]+)#(D[1-9][0-9]{0,17})\b")
_TEXT_FIELDS = ("question", "recommendation", "impact", "diff_summary")


def cited_events(card):
    """[(goal, event id)] cited by `ha-history:<goal>#D<n>` in the card's texts, in order of
    first appearance, without repeats."""
    texts = [card[k] for k in _TEXT_FIELDS]
    for option in card["options"]:
        texts += [option["label"], option["consequence"]]
    for item in card.get("similar_past_decisions") or ():
        texts += [item["outcome"]]
    found = []
    for text in texts:
        for m in HISTORY_REF.finditer(text):
            if m.groups() not in found:
                found.append(m.groups())
    return found


def show_command(goal, event):
    return f"ha history {goal} show {event}"


def recommended_option(card):
    """The id of the option the recommendation names exactly (its id or label), else None."""
    rec = card["recommendation"].strip().casefold()
    for option in card["options"]:
        if rec in (option["id"].casefold(), option["label"].casefold()):
            return option["id"]
    return None


def render(card, fmt="md"):
    return html_page(card) if fmt == "html" else markdown(card)


# -- Markdown -------------------------------------------------------------------------------

def _md(text):
    return text.replace("<", "\\<")


def _md_line(text):
    """One line: white space runs as one space, a remaining control character quoted
    (output.safe), so a card cannot send terminal escapes through `render`."""
    return safe(" ".join(_md(text).split()))


def _md_block(text):
    """Lines kept, each through output.safe."""
    return "\n".join(safe(line) for line in _md(text).strip().split("\n"))


def markdown(card):
    chosen = recommended_option(card)
    lines = [f"# Decision: {_md_line(card['question'])}", "",
             f"**Recommendation:** {_md_line(card['recommendation'])} "
             f"(confidence: {card['confidence']})", "", "## Options", ""]
    for o in card["options"]:
        mark = " (recommended)" if o["id"] == chosen else ""
        lines.append(f"- `{safe(o['id'].replace('`', chr(39)))}` **{_md_line(o['label'])}**{mark}: "
                     f"{_md_line(o['consequence'])}")
    score = card.get("impact_score")
    lines += ["", "## Impact", "", _md_block(card["impact"])]
    if score is not None:
        lines += ["", f"impact_score: {score}/100"]
    lines += ["", "## Diff summary", "", _md_block(card["diff_summary"]), "",
              "## Similar past decisions", ""]
    past = card.get("similar_past_decisions") or []
    lines += [f"- {_md_line(p['decided_at'])} · {_md_line(p['summary'])} → "
              f"**{_md_line(p['decision'])}** ({_md_line(p['outcome'])}) · `{safe(p['mem_id'])}`"
              for p in past] or ["- none recalled"]
    cited = cited_events(card)
    if cited:
        lines += ["", "## History events cited", ""]
        lines += [f"- {safe(goal)} {event}: `{safe(show_command(goal, event))}`"
                  for goal, event in cited]
    return "\n".join(lines) + "\n"


# -- HTML -----------------------------------------------------------------------------------

def _h(text):
    return html.escape(text, quote=True)


def html_page(card):
    template = Template(packaged_text("card template", TEMPLATE))
    return template.substitute(title=_h("Decision: " + " ".join(card["question"].split())),
                               body=_body(card))


def _body(card):
    chosen = recommended_option(card)
    options = "\n".join(
        f'<li class="{"recommended" if o["id"] == chosen else "option"}">'
        f'<span class="id">{_h(o["id"])}{" · recommended" if o["id"] == chosen else ""}</span>'
        f'<span class="label">{_h(o["label"])}</span>'
        f'<p class="consequence">{_h(o["consequence"])}</p></li>'
        for o in card["options"])
    confidence = card["confidence"]
    score = card.get("impact_score")
    score_html = "" if score is None else (
        f'<div class="score"><span>impact_score {score}/100</span>'
        f'<div class="bar" aria-hidden="true"><span style="width:{score}%"></span></div></div>')
    past = card.get("similar_past_decisions") or []
    if past:
        rows = "\n".join(
            f"<tr><td>{_h(p['decided_at'])}</td><td>{_h(p['summary'])}</td>"
            f"<td><b>{_h(p['decision'])}</b></td><td>{_h(p['outcome'])}</td>"
            f'<td class="ref">{_h(p["mem_id"])}</td></tr>' for p in past)
        past_html = ("<table><tr><th>decided</th><th>question</th><th>decision</th>"
                     f"<th>outcome</th><th>ledger id</th></tr>\n{rows}</table>")
    else:
        past_html = '<p class="none">none recalled</p>'
    cited = cited_events(card)
    cited_html = "" if not cited else (
        '<section class="cited"><h2>History events cited</h2><ul>'
        + "".join(f'<li><span class="ref">{_h(show_command(goal, event))}</span></li>'
                  for goal, event in cited) + "</ul></section>")
    return f"""<header><span class="kind">Decision card</span><h1 id="question">{_h(card["question"])}</h1></header>
<div class="grid">
<div class="stack">
<section class="options-box"><h2>Options</h2><ul class="options">
{options}
</ul></section>
<section class="diff"><h2>Diff summary</h2><p>{_h(card["diff_summary"])}</p></section>
<section class="past"><h2>Similar past decisions</h2>{past_html}</section>
</div>
<div class="stack">
<section class="recommendation"><h2>Recommendation</h2><p>{_h(card["recommendation"])}<span class="badge {_h(confidence)}">confidence {_h(confidence)}</span></p></section>
<section class="impact"><h2>Impact</h2><p>{_h(card["impact"])}</p>{score_html}</section>
{cited_html}
</div>
</div>
<footer>judgment-card.v1 · rendered by judgment-card render</footer>"""
