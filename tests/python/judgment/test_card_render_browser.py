"""judgment-card render --format html in a real headless Chromium: at 1280x800 the
page is not blank, shows the question, fits without scrolling, and injected markup stays text.

Needs Debian's chromium (`bash scripts/setup-browser.sh`). Skipped without it, except under
CI=true, where a missing browser fails the test.
"""
import json

import pytest

import chromium
from ledger_helpers import CARD, CARD_SH, hermetic_env, run

TYPICAL = dict(CARD, impact_score=70, similar_past_decisions=[
    {"summary": "Cache sessions in Redis?", "decision": "no", "outcome": "one less service",
     "decided_at": "2026-11-20T10:00:00Z", "mem_id": "judgment-ledger:1b2c"}])
FULL = {
    "question": "Which storage should the audit log use for the next two years, given the "
                "retention rule from legal and the current on-call load?",
    "options": [
        {"id": "postgres", "label": "Postgres table, partitioned by month",
         "consequence": "no new service; partitions dropped after 24 months; backups grow by "
                        "about 40 GB a year and restores take longer"},
        {"id": "s3", "label": "Object storage with a daily export",
         "consequence": "cheap and durable; queries need an export job and a second tool; "
                        "one more credential to rotate"},
        {"id": "defer", "label": "Decide after the retention review",
         "consequence": "nothing changes now; the current table keeps growing until March"}],
    "recommendation": "postgres", "confidence": "high",
    "impact": "storage cost, restore time and the audit team's queries; reversible within a "
              "sprint while the data is under 100 GB",
    "impact_score": 85,
    "diff_summary": "adds a partitioned audit_events table, a monthly partition job, a drop job "
                    "gated on the retention setting, and a migration that copies the current rows",
    "similar_past_decisions": [
        {"summary": "Keep metrics in Postgres or a time-series database?", "decision": "postgres",
         "outcome": "fine at our scale; revisit at 1 TB", "decided_at": "2026-10-02T09:12:44Z",
         "mem_id": "judgment-ledger:5c0e2a56-0c1f-4f7e-9a55-2f2c64a1d2b0"},
        {"summary": "Export logs to object storage nightly?", "decision": "no",
         "outcome": "nobody queried the exports", "decided_at": "2026-08-17T16:40:01Z",
         "mem_id": "judgment-ledger:9a1d7b7e-7d0e-4c9e-8b43-07f3a0d6c3e1"},
        {"summary": "Partition the events table by month?", "decision": "yes",
         "outcome": "vacuum time halved", "decided_at": "2026-06-30T11:05:10Z",
         "mem_id": "judgment-ledger:2e4b8a90-51c3-4d59-b7f2-6a1f0c9e8d77"}]}
HOSTILE = dict(CARD,
               question="Ship <script>document.title='pwned'</script> today?",
               recommendation='<img src=x onerror="document.title=\'pwned\';'
                              'document.body.setAttribute(\'data-pwned\',\'1\')">',
               impact="<iframe src=\"javascript:alert(1)\"></iframe>",
               diff_summary="</p></section><script>document.body.innerHTML=''</script>")


@pytest.fixture(scope="module")
def browser():
    with chromium.Browser(chromium.require(chromium.find(), "chromium")) as b:
        yield b


def render_page(tmp_path, doc, name):
    src = tmp_path / f"{name}.json"
    src.write_text(json.dumps(doc), encoding="utf-8")
    r = run(CARD_SH, "render", src, "--format", "html", env=hermetic_env(tmp_path))
    assert r.returncode == 0, r.stderr
    page = tmp_path / f"{name}.html"
    page.write_text(r.stdout, encoding="utf-8")
    return page


@pytest.mark.parametrize("name, doc", [("typical", TYPICAL), ("full", FULL),
                                       ("hostile", HOSTILE)])
def test_card_page_in_chromium(tmp_path, browser, name, doc):
    page = browser.load(render_page(tmp_path, doc, name))
    png = page.screenshot()
    assert chromium.png_size(png) == (chromium.WIDTH, chromium.HEIGHT)
    assert chromium.distinct_colours(png) >= 16, "the screenshot is (nearly) blank"
    width, height, bottom = page.content_size()
    assert width <= chromium.WIDTH and height <= chromium.HEIGHT and bottom <= chromium.HEIGHT, \
        (width, height, bottom)
    assert page.eval("document.getElementById('question').textContent") == doc["question"]
    assert doc["recommendation"] in page.eval("document.body.innerText")


def test_injected_markup_does_not_run(tmp_path, browser):
    page = browser.load(render_page(tmp_path, HOSTILE, "hostile"))
    dom = page.dom()
    assert page.eval("document.title") == "Decision: " + HOSTILE["question"]
    assert "pwned" not in page.eval("document.title").replace(HOSTILE["question"], "")
    assert page.eval("document.querySelectorAll('script, img, iframe').length") == 0
    assert page.eval("document.body.hasAttribute('data-pwned')") is False
    assert "data-pwned=\"1\"" not in dom and "<img" not in dom and "<script" not in dom
    text = page.eval("document.body.innerText")
    for field in ("question", "recommendation", "impact"):
        assert HOSTILE[field] in text  # shown as the text it is
    assert page.eval("document.querySelectorAll('section').length") >= 5  # layout not broken
